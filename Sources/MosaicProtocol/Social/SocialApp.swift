/// An app registered with `social.register_app`: its account (the key it signs with), a unique
/// name and the URL a consent page sends the user back to.
public struct SocialApp: Sendable, Hashable, Codable {
    public var clientID: String
    public var name: String
    public var redirectURL: String
    public var registered: Int64

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case name
        case redirectURL = "redirect_url"
        case registered
    }

    public init(clientID: String, name: String, redirectURL: String, registered: Int64) {
        self.clientID = clientID
        self.name = name
        self.redirectURL = redirectURL
        self.registered = registered
    }
}
