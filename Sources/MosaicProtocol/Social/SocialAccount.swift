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
    /// Voting stake (base units) the account locked with `social.stake`: what its votes count.
    public var stake: UInt64
    /// Ledger time until which its votes lock the stake (the last voted post's payout); nil when unlocked.
    public var stakeLockedUntil: Int64?
    /// The profile name and about text (nil before `social.set_profile`).
    public var name: String?
    public var about: String?
    /// Sum of the net rshares the account's posts and replies received (negative after downvotes).
    public var reputation: Int64
    /// `reputation` on the familiar scale starting at 25 (docs/SOCIAL.md §8).
    public var reputationScore: Int64
    public var rewards: SocialRewardBalance
    /// Ledger time from which the one-root-post-per-5-minutes rule allows the next root post
    /// (nil: now).
    public var nextRootPostAt: Int64?

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case postCount = "post_count"
        case votingPower = "voting_power"
        case created
        case lastRootPost = "last_root_post"
        case lastReply = "last_reply"
        case lastVote = "last_vote"
        case stake
        case stakeLockedUntil = "stake_locked_until"
        case name, about, reputation
        case reputationScore = "reputation_score"
        case rewards
        case nextRootPostAt = "next_root_post_at"
    }

    public init(
        clientID: String, postCount: UInt64 = 0, votingPower: UInt32 = 10_000, created: Int64? = nil,
        lastRootPost: Int64? = nil, lastReply: Int64? = nil, lastVote: Int64? = nil, stake: UInt64 = 0,
        stakeLockedUntil: Int64? = nil, name: String? = nil, about: String? = nil, reputation: Int64 = 0,
        reputationScore: Int64 = 25, rewards: SocialRewardBalance = SocialRewardBalance(), nextRootPostAt: Int64? = nil
    ) {
        self.clientID = clientID
        self.postCount = postCount
        self.votingPower = votingPower
        self.created = created
        self.lastRootPost = lastRootPost
        self.lastReply = lastReply
        self.lastVote = lastVote
        self.stake = stake
        self.stakeLockedUntil = stakeLockedUntil
        self.name = name
        self.about = about
        self.reputation = reputation
        self.reputationScore = reputationScore
        self.rewards = rewards
        self.nextRootPostAt = nextRootPostAt
    }

    /// `stake`, the profile, reputation and rewards may be absent, as in answers of older nodes.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        clientID = try c.decode(String.self, forKey: .clientID)
        postCount = try c.decode(UInt64.self, forKey: .postCount)
        votingPower = try c.decode(UInt32.self, forKey: .votingPower)
        created = try c.decodeIfPresent(Int64.self, forKey: .created)
        lastRootPost = try c.decodeIfPresent(Int64.self, forKey: .lastRootPost)
        lastReply = try c.decodeIfPresent(Int64.self, forKey: .lastReply)
        lastVote = try c.decodeIfPresent(Int64.self, forKey: .lastVote)
        stake = try c.decodeIfPresent(UInt64.self, forKey: .stake) ?? 0
        stakeLockedUntil = try c.decodeIfPresent(Int64.self, forKey: .stakeLockedUntil)
        name = try c.decodeIfPresent(String.self, forKey: .name)
        about = try c.decodeIfPresent(String.self, forKey: .about)
        reputation = try c.decodeIfPresent(Int64.self, forKey: .reputation) ?? 0
        reputationScore = try c.decodeIfPresent(Int64.self, forKey: .reputationScore) ?? 25
        rewards = try c.decodeIfPresent(SocialRewardBalance.self, forKey: .rewards) ?? SocialRewardBalance()
        nextRootPostAt = try c.decodeIfPresent(Int64.self, forKey: .nextRootPostAt)
    }
}
