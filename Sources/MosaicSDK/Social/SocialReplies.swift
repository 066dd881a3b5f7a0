import MosaicProtocol

/// The direct replies of a post in creation order (`SocialClient.replies`).
public struct SocialReplies: Sendable, Hashable {
    /// The post replied to.
    public var parent: SocialPostID
    /// Its direct replies, oldest first.
    public var replies: [SocialPost]
    /// Round the replies were read at.
    public var round: UInt64
}
