/// A post or a reply of the social contract (docs/SOCIAL.md §2). A root post has an empty
/// `parentAuthor` and its `parentPermlink` is its category; a reply names its parent.
///
/// Scores are fixed-point integers (the real score × 10^7), computed by the contract with
/// integer arithmetic only; `netRshares` is the sum of the current votes' rshares.
public struct SocialPost: Sendable, Hashable, Codable {
    /// Client id of the author.
    public var author: String
    public var permlink: String
    /// Empty for a root post.
    public var parentAuthor: String
    /// The category for a root post, the parent's permlink for a reply.
    public var parentPermlink: String
    /// The root post's category (a reply inherits it).
    public var category: String
    public var title: String
    public var body: String
    /// A JSON object as text, or empty.
    public var jsonMetadata: String
    /// Lowercase tags, the category first; at most 5.
    public var tags: [String]
    /// Ledger time of creation and of the last edit (unix seconds).
    public var created: Int64
    public var lastUpdate: Int64
    /// 0 for a root post, parent depth + 1 for a reply.
    public var depth: UInt32
    /// Number of direct replies.
    public var children: UInt32
    public var netRshares: Int64
    /// Votes currently counted (a vote changed to weight 0 is not).
    public var voteCount: UInt32
    /// Trending and hot scores × 10^7 (docs/SOCIAL.md §4); 0 for replies.
    public var trendingScore: Int64
    public var hotScore: Int64
    /// `created` + 7 days: from then on the post is frozen (no edits, no votes) and out of the
    /// trending and hot feeds.
    public var payoutAt: Int64
    /// True once the ledger time of the read is at or after `payoutAt`.
    public var paidOut: Bool
    /// Creation order among all posts and replies (1, 2, …).
    public var sequence: UInt64
    /// True when the body was cut by a read's `truncate_body`.
    public var bodyTruncated: Bool
    /// What the post earned once its payout window closed (the `post` view and account pages
    /// attach it; feed cards do not).
    public var reward: SocialPostReward?
    /// Before that: the reward it would get if the window closed now (base units, an estimate).
    public var pendingReward: UInt64?
    /// The author's profile name, where a view attaches it.
    public var authorName: String?

    enum CodingKeys: String, CodingKey {
        case author, permlink
        case parentAuthor = "parent_author"
        case parentPermlink = "parent_permlink"
        case category, title, body
        case jsonMetadata = "json_metadata"
        case tags, created
        case lastUpdate = "last_update"
        case depth, children
        case netRshares = "net_rshares"
        case voteCount = "vote_count"
        case trendingScore = "trending_score"
        case hotScore = "hot_score"
        case payoutAt = "payout_at"
        case paidOut = "paid_out"
        case sequence
        case bodyTruncated = "body_truncated"
        case reward
        case pendingReward = "pending_reward"
        case authorName = "author_name"
    }

    public init(
        author: String, permlink: String, parentAuthor: String, parentPermlink: String, category: String, title: String,
        body: String, jsonMetadata: String, tags: [String], created: Int64, lastUpdate: Int64, depth: UInt32,
        children: UInt32 = 0, netRshares: Int64 = 0, voteCount: UInt32 = 0, trendingScore: Int64 = 0, hotScore: Int64 = 0,
        payoutAt: Int64, paidOut: Bool = false, sequence: UInt64, bodyTruncated: Bool = false
    ) {
        self.author = author
        self.permlink = permlink
        self.parentAuthor = parentAuthor
        self.parentPermlink = parentPermlink
        self.category = category
        self.title = title
        self.body = body
        self.jsonMetadata = jsonMetadata
        self.tags = tags
        self.created = created
        self.lastUpdate = lastUpdate
        self.depth = depth
        self.children = children
        self.netRshares = netRshares
        self.voteCount = voteCount
        self.trendingScore = trendingScore
        self.hotScore = hotScore
        self.payoutAt = payoutAt
        self.paidOut = paidOut
        self.sequence = sequence
        self.bodyTruncated = bodyTruncated
    }

    /// True for a root post (no parent).
    public var isRoot: Bool { parentAuthor.isEmpty }

    /// "author/permlink", the post's address in CLI arguments and links.
    public var path: String { "\(author)/\(permlink)" }
}
