/// One account's current vote on a post (`social.vote`).
public struct SocialVote: Sendable, Hashable, Codable {
    public var voter: String
    public var author: String
    public var permlink: String
    /// −10000…10000 (basis points of a full vote); 0 once removed.
    public var weight: Int32
    /// What this vote adds to the post's net rshares (negative for a downvote).
    public var rshares: Int64
    /// Times the vote was changed after the first (at most 5).
    public var changes: UInt32
    /// Ledger time of the last change (unix seconds).
    public var time: Int64

    enum CodingKeys: String, CodingKey {
        case voter, author, permlink, weight, rshares, changes, time
    }

    public init(voter: String, author: String, permlink: String, weight: Int32, rshares: Int64, changes: UInt32, time: Int64) {
        self.voter = voter
        self.author = author
        self.permlink = permlink
        self.weight = weight
        self.rshares = rshares
        self.changes = changes
        self.time = time
    }
}
