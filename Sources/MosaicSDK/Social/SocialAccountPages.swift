import MosaicProtocol

/// Accounts read together (`SocialClient.accounts`): in the order asked; names no account holds in `missing`.
public struct SocialAccountList: Sendable, Hashable, Decodable {
    public var accounts: [SocialAccount]
    public var missing: [String]
}

/// One page of an account's posts or replies, newest first; `next` continues it.
public struct SocialAccountPosts: Sendable, Hashable, Decodable {
    public var clientID: String
    public var posts: [SocialPost]
    public var next: String?

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case posts, next
    }
}

/// One of an account's current votes, with what the profile page shows of the post.
public struct SocialAccountVote: Sendable, Hashable, Decodable {
    public var vote: SocialVote
    public var title: String
    public var isReply: Bool
    public var paidOut: Bool

    enum CodingKeys: String, CodingKey {
        case title
        case isReply = "is_reply"
        case paidOut = "paid_out"
    }

    public init(from decoder: any Decoder) throws {
        vote = try SocialVote(from: decoder)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        title = try c.decode(String.self, forKey: .title)
        isReply = try c.decode(Bool.self, forKey: .isReply)
        paidOut = try c.decode(Bool.self, forKey: .paidOut)
    }
}

/// One page of an account's votes, on the newest posts first.
public struct SocialAccountVotes: Sendable, Hashable, Decodable {
    public var clientID: String
    public var votes: [SocialAccountVote]
    public var next: String?

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case votes, next
    }
}
