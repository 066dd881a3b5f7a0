/// A user's authorization of an app (`social.grant`): until `expiresAt` the app may sign the
/// operations of `scopes` with the user as author or voter.
public struct SocialGrant: Sendable, Hashable, Codable {
    /// The hash of the `social.grant` transaction that made it: what a consent flow hands the app.
    public var id: String
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
        case id, user, app
        case appName = "app_name"
        case scopes, granted
        case expiresAt = "expires_at"
        case expired
    }

    public init(
        id: String = "", user: String, app: String, appName: String, scopes: [SocialScope], granted: Int64, expiresAt: Int64,
        expired: Bool = false
    ) {
        self.id = id
        self.user = user
        self.app = app
        self.appName = appName
        self.scopes = scopes
        self.granted = granted
        self.expiresAt = expiresAt
        self.expired = expired
    }
}

extension SocialGrant {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decodeIfPresent(String.self, forKey: .id) ?? ""
        user = try c.decode(String.self, forKey: .user)
        app = try c.decode(String.self, forKey: .app)
        appName = try c.decode(String.self, forKey: .appName)
        scopes = try c.decode([SocialScope].self, forKey: .scopes)
        granted = try c.decode(Int64.self, forKey: .granted)
        expiresAt = try c.decode(Int64.self, forKey: .expiresAt)
        expired = try c.decodeIfPresent(Bool.self, forKey: .expired) ?? false
    }
}
