/// An account as the social contract sees it (`account` view). Voting power is in basis points
/// (10000 = 100 %), regenerated to the ledger time of the read.
public struct SocialAccount: Sendable, Hashable, Codable {
    public var clientID: String
    /// Posts and replies written.
    public var postCount: UInt64
    public var votingPower: UInt32
    /// Ledger time of the account's first social action; nil if it has none.
    public var created: Int64?
    public var lastRootPost: Int64?
    public var lastReply: Int64?
    public var lastVote: Int64?

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case postCount = "post_count"
        case votingPower = "voting_power"
        case created
        case lastRootPost = "last_root_post"
        case lastReply = "last_reply"
        case lastVote = "last_vote"
    }

    public init(clientID: String, postCount: UInt64 = 0, votingPower: UInt32 = 10_000, created: Int64? = nil,
                lastRootPost: Int64? = nil, lastReply: Int64? = nil, lastVote: Int64? = nil) {
        self.clientID = clientID
        self.postCount = postCount
        self.votingPower = votingPower
        self.created = created
        self.lastRootPost = lastRootPost
        self.lastReply = lastReply
        self.lastVote = lastVote
    }
}
