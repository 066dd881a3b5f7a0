/// The order of a feed: `trending` and `hot` by score (posts with positive net rshares before
/// their payout), `created` newest first (every root post).
public enum SocialSort: String, Sendable, Hashable, Codable, CaseIterable {
    case trending
    case hot
    case created
}
