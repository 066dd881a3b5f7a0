import MosaicProtocol

/// Accounts read together (`SocialClient.accounts`): in the order asked; names no account holds in `missing`.
public struct SocialAccountList: Sendable, Hashable, Codable {
    /// The accounts found, in the order asked.
    public var accounts: [SocialAccount]
    /// The ids or names no account holds.
    public var missing: [String]
}

/// One page of an account's posts or replies, newest first; `next` continues it.
public struct SocialAccountPosts: Sendable, Hashable, Codable {
    /// The account.
    public var clientID: String
    /// This page's posts, newest first.
    public var posts: [SocialPost]
    /// Pass as `start` for the next page; nil at the end.
    public var next: String?

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case posts, next
    }
}

/// One of an account's current votes, with what the profile page shows of the post.
public struct SocialAccountVote: Sendable, Hashable, Codable {
    /// The vote itself.
    public var vote: SocialVote
    /// The voted post's title.
    public var title: String
    /// Whether the voted post is a reply.
    public var isReply: Bool
    /// Whether the voted post has paid out (the vote no longer locks stake).
    public var paidOut: Bool

    enum CodingKeys: String, CodingKey {
        case title
        case isReply = "is_reply"
        case paidOut = "paid_out"
    }

    /// Decodes the view's snake_case JSON.
    public init(from decoder: any Decoder) throws {
        vote = try SocialVote(from: decoder)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        title = try c.decode(String.self, forKey: .title)
        isReply = try c.decode(Bool.self, forKey: .isReply)
        paidOut = try c.decode(Bool.self, forKey: .paidOut)
    }

    /// The view's form: the vote's keys and the post's, in one object.
    public func encode(to encoder: any Encoder) throws {
        try vote.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(title, forKey: .title)
        try c.encode(isReply, forKey: .isReply)
        try c.encode(paidOut, forKey: .paidOut)
    }
}

/// One page of an account's votes, on the newest posts first.
public struct SocialAccountVotes: Sendable, Hashable, Codable {
    /// The account.
    public var clientID: String
    /// This page's votes.
    public var votes: [SocialAccountVote]
    /// Pass as `start` for the next page; nil at the end.
    public var next: String?

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case votes, next
    }
}
