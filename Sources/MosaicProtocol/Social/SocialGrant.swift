/// A user's authorization of an app (`social.grant`): until `expiresAt` the app may sign the
/// operations of `scopes` with the user as author or voter.
public struct SocialGrant: Sendable, Hashable, Codable {
    public var user: String
    /// The app's client id and name.
    public var app: String
    public var appName: String
    public var scopes: [SocialScope]
    public var granted: Int64
    public var expiresAt: Int64
    /// True when the ledger time of the read is at or after `expiresAt`.
    public var expired: Bool

    enum CodingKeys: String, CodingKey {
        case user, app
        case appName = "app_name"
        case scopes, granted
        case expiresAt = "expires_at"
        case expired
    }

    public init(user: String, app: String, appName: String, scopes: [SocialScope], granted: Int64, expiresAt: Int64, expired: Bool = false) {
        self.user = user
        self.app = app
        self.appName = appName
        self.scopes = scopes
        self.granted = granted
        self.expiresAt = expiresAt
        self.expired = expired
    }
}
