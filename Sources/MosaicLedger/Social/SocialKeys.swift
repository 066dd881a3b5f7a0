import MosaicProtocol

/// The social contract's keys (docs/SOCIAL.md §5). Parts are separated by "/", which neither
/// client ids, permlinks nor tags may contain; "*" stands for "every tag" in feed keys.
///
/// | key | value |
/// |---|---|
/// | `p/<author>/<permlink>` | post record (`SocialCodec`) |
/// | `v/<author>/<permlink>/<voter>` | `SocialVote` JSON |
/// | `r/<parent author>/<parent permlink>/<index, 8 hex>` | "author/permlink" of the reply |
/// | `f/<sort>/<tag or *>/<order, 16 hex>/<author>/<permlink>` | the post's feed card (`SocialCodec.card`) |
/// | `q/<payout time, 16 hex>/<author>/<permlink>` | "author/permlink" (root posts awaiting payout) |
/// | `a/<client id>` | account state JSON |
/// | `s/<client id>` | `SocialStake` JSON: voting stake and its lock |
/// | `app/<client id>`, `appname/<name>` | `SocialApp` JSON, the app's client id |
/// | `g/<user>/<app>` | `SocialGrant` JSON |
/// | `seq` | last post sequence number (decimal) |
/// | `pf/<client id>`, `n/<name>` | `SocialProfile` JSON; the client id owning the name |
/// | `ap/<author>/<~sequence, 16 hex>`, `ar/…` | "author/permlink" of the account's root posts, replies (newest first) |
/// | `uv/<voter>/<~post sequence, 16 hex>/<author>/<permlink>` | "author/permlink" the account voted on |
/// | `up/<author>/<permlink>` | sum of the post's positive vote rshares (decimal; the curators' split) |
/// | `w/<window index, 16 hex>` | `SocialRewardWindow` JSON |
/// | `pr/<author>/<permlink>` | `SocialPostReward` JSON |
/// | `rw/<client id>` | `SocialRewardBalance` JSON |
/// | `pool` | `SocialPoolState` JSON; `pc`: `SocialPayoutCursor` JSON |
enum SocialKeys {
    static let allTags = "*"
    static func post(_ author: String, _ permlink: String) -> String { "p/\(author)/\(permlink)" }
    static func vote(_ author: String, _ permlink: String, _ voter: String) -> String { "v/\(author)/\(permlink)/\(voter)" }
    static func votes(_ author: String, _ permlink: String) -> String { "v/\(author)/\(permlink)/" }
    static func replies(_ author: String, _ permlink: String) -> String { "r/\(author)/\(permlink)/" }
    static func reply(_ author: String, _ permlink: String, index: UInt32) -> String {
        replies(author, permlink) + String(SocialScore.hex16(UInt64(index)).suffix(8))
    }
    static func feedPrefix(_ sort: SocialSort, tag: String?) -> String { "f/\(sort.rawValue)/\(tag ?? allTags)/" }
    static func feed(_ sort: SocialSort, tag: String?, order: String, _ author: String, _ permlink: String) -> String {
        feedPrefix(sort, tag: tag) + "\(order)/\(author)/\(permlink)"
    }
    static let payoutPrefix = "q/"
    static func payout(_ at: Int64, _ author: String, _ permlink: String) -> String {
        payoutPrefix + SocialScore.hex16(UInt64(max(0, at))) + "/\(author)/\(permlink)"
    }
    static func account(_ id: String) -> String { "a/\(id)" }
    static func stake(_ id: String) -> String { "s/\(id)" }
    static func app(_ id: String) -> String { "app/\(id)" }
    static func appName(_ name: String) -> String { "appname/\(name)" }
    static func grants(_ user: String) -> String { "g/\(user)/" }
    static func grant(_ user: String, _ app: String) -> String { "g/\(user)/\(app)" }
    static let sequence = "seq"
    static func profile(_ id: String) -> String { "pf/\(id)" }
    static func name(_ name: String) -> String { "n/\(name)" }
    static func accountPosts(_ id: String, replies: Bool) -> String { replies ? "ar/\(id)/" : "ap/\(id)/" }
    static func accountPost(_ post: SocialPost) -> String {
        accountPosts(post.author, replies: !post.isRoot) + SocialScore.hex16(UInt64.max - post.sequence)
    }
    static func accountVotes(_ voter: String) -> String { "uv/\(voter)/" }
    static func accountVote(_ voter: String, _ post: SocialPost) -> String {
        accountVotes(voter) + SocialScore.hex16(UInt64.max - post.sequence) + "/\(post.author)/\(post.permlink)"
    }
    static func upRshares(_ author: String, _ permlink: String) -> String { "up/\(author)/\(permlink)" }
    static func window(_ index: UInt64) -> String { "w/" + SocialScore.hex16(index) }
    static func postReward(_ author: String, _ permlink: String) -> String { "pr/\(author)/\(permlink)" }
    static func rewards(_ id: String) -> String { "rw/\(id)" }
    static let pool = "pool"
    static let payoutCursor = "pc"

    /// The feed order part of a post's key in `sort` (nil when the post is not in that feed:
    /// a reply; for trending and hot, non-positive rshares or, unless `ignoringPayout`, paid out).
    static func order(_ post: SocialPost, _ sort: SocialSort, ignoringPayout: Bool = false) -> String? {
        guard post.isRoot else { return nil }
        let ranked = post.netRshares > 0 && (ignoringPayout || !post.paidOut)
        switch sort {
        case .created: return SocialScore.hex16(UInt64.max - post.sequence)
        case .trending: return ranked ? SocialScore.descendingKey(post.trendingScore) : nil
        case .hot: return ranked ? SocialScore.descendingKey(post.hotScore) : nil
        }
    }

    /// Every feed key of a post (for "*" and each of its tags).
    static func feedKeys(_ post: SocialPost, sorts: [SocialSort], ignoringPayout: Bool = false) -> [String] {
        var out: [String] = []
        for sort in sorts {
            guard let order = order(post, sort, ignoringPayout: ignoringPayout) else { continue }
            out.append(feed(sort, tag: nil, order: order, post.author, post.permlink))
            for tag in post.tags { out.append(feed(sort, tag: tag, order: order, post.author, post.permlink)) }
        }
        return out
    }
}
