import MosaicProtocol

/// The direct replies of a post in creation order (`SocialClient.replies`).
public struct SocialReplies: Sendable, Hashable {
    public var parent: SocialPostID
    public var replies: [SocialPost]
    /// Round the replies were read at.
    public var round: UInt64
}
