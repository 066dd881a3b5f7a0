/// An account's public profile (`social.set_profile`): a unique handle other users find it by,
/// and a short text about it. Both are bounded so a profile stays a small record.
public struct SocialProfile: Sendable, Hashable, Codable {
    /// 3–32 characters of a-z, 0-9 and -, unique among accounts.
    public var name: String
    /// At most 512 bytes of UTF-8, no control characters but newlines.
    public var about: String
    /// Ledger time of the last change.
    public var updated: Int64

    public init(name: String, about: String, updated: Int64) {
        self.name = name
        self.about = about
        self.updated = updated
    }

    /// Longest `about`, in UTF-8 bytes.
    public static let maxAboutBytes = 512
    public static let maxNameBytes = 32

    /// 3–32 characters of [a-z0-9-] (the same alphabet as permlinks, so a name fits in a URL and a key).
    public static func isValidName(_ s: String) -> Bool {
        let u = s.utf8
        return u.count >= 3 && u.count <= maxNameBytes && u.allSatisfy(SocialRules.isPermlinkByte)
    }

    /// Nil when `about` fits; else why not.
    public static func aboutProblem(_ about: String) -> String? {
        if about.utf8.count > maxAboutBytes { return "about is \(about.utf8.count) bytes; at most \(maxAboutBytes) are allowed" }
        if about.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\n") || $0.value == 0x7f }) {
            return "about may not contain control characters (only line breaks)"
        }
        return nil
    }
}

/// What an account earned from the reward pool (docs/SOCIAL.md §8), in base units. Rewards are
/// credited at each payout window's close and stay in the contract until `social.claim_rewards`.
public struct SocialRewardBalance: Sendable, Hashable, Codable {
    /// Credited and not yet claimed.
    public var pending: UInt64
    /// Everything ever credited for the account's posts and replies, and for its votes.
    public var author: UInt64
    public var curation: UInt64
    /// Everything claimed so far.
    public var claimed: UInt64

    public init(pending: UInt64 = 0, author: UInt64 = 0, curation: UInt64 = 0, claimed: UInt64 = 0) {
        self.pending = pending
        self.author = author
        self.curation = curation
        self.claimed = claimed
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        pending = try c.decodeIfPresent(UInt64.self, forKey: .pending) ?? 0
        author = try c.decodeIfPresent(UInt64.self, forKey: .author) ?? 0
        curation = try c.decodeIfPresent(UInt64.self, forKey: .curation) ?? 0
        claimed = try c.decodeIfPresent(UInt64.self, forKey: .claimed) ?? 0
    }
}

/// A post's reward once its payout window closed: what its author and its curators were credited.
public struct SocialPostReward: Sendable, Hashable, Codable {
    public var author: UInt64
    public var curation: UInt64
    /// Ledger time the reward was credited (the payout window's close, or the first block after it).
    public var paidAt: Int64

    enum CodingKeys: String, CodingKey {
        case author, curation
        case paidAt = "paid_at"
    }

    public init(author: UInt64, curation: UInt64, paidAt: Int64) {
        self.author = author
        self.curation = curation
        self.paidAt = paidAt
    }
}

/// The reward pool (`rewards` view): tokens the contract holds for rewards, apart from voting stakes.
public struct SocialRewardPool: Sendable, Hashable, Codable {
    /// Not yet released to any window.
    public var free: UInt64
    /// Released to windows whose posts are being paid.
    public var reserved: UInt64
    /// Credited to accounts and not yet claimed.
    public var pending: UInt64
    /// Voting stakes (not part of the pool; shown so the contract's balance adds up).
    public var staked: UInt64
    /// Basis points of `free` a payout window with votes releases.
    public var shareBps: UInt64
    /// Basis points of a post's reward that go to its curators.
    public var curationBps: UInt64
    public var windowSeconds: Int64

    enum CodingKeys: String, CodingKey {
        case free, reserved, pending, staked
        case shareBps = "share_bps"
        case curationBps = "curation_bps"
        case windowSeconds = "window_seconds"
    }

    public init(
        free: UInt64, reserved: UInt64, pending: UInt64, staked: UInt64, shareBps: UInt64, curationBps: UInt64, windowSeconds: Int64
    ) {
        self.free = free
        self.reserved = reserved
        self.pending = pending
        self.staked = staked
        self.shareBps = shareBps
        self.curationBps = curationBps
        self.windowSeconds = windowSeconds
    }
}
