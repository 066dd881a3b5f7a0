/// One page of a feed (`feed` view). Pass `next` as the start of the following page, and the
/// same `round` to read every page from one state (then no item repeats or goes missing).
public struct SocialFeedPage: Sendable, Hashable, Codable {
    public var sort: SocialSort
    /// nil for all tags.
    public var tag: String?
    public var posts: [SocialPost]
    /// The last post of this page as "author/permlink", or nil when the feed ends here.
    public var next: String?
    /// Round the page was read at (set by the SDK from the view result).
    public var round: UInt64

    enum CodingKeys: String, CodingKey {
        case sort, tag, posts, next, round
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        sort = try c.decode(SocialSort.self, forKey: .sort)
        tag = try c.decodeIfPresent(String.self, forKey: .tag)
        posts = try c.decode([SocialPost].self, forKey: .posts)
        next = try c.decodeIfPresent(String.self, forKey: .next)
        round = try c.decodeIfPresent(UInt64.self, forKey: .round) ?? 0
    }

    public init(sort: SocialSort, tag: String?, posts: [SocialPost], next: String?, round: UInt64 = 0) {
        self.sort = sort
        self.tag = tag
        self.posts = posts
        self.next = next
        self.round = round
    }
}
