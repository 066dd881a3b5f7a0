/// A post's address: author client id and permlink, written "AUTHOR/PERMLINK".
public struct SocialPostID: Sendable, Hashable, Codable, CustomStringConvertible {
    public var author: String
    public var permlink: String

    public init(author: String, permlink: String) {
        self.author = author
        self.permlink = permlink
    }

    /// Parses "AUTHOR/PERMLINK" (author: 64 lowercase hex characters; permlink: 1–255 of
    /// [a-z0-9-]); nil when it is not of that form.
    public init?(path: String) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let a = String(parts[0]).lowercased()
        let p = String(parts[1])
        guard Transaction.isHexID(a), SocialRules.isValidPermlink(p) else { return nil }
        author = a
        permlink = p
    }

    public var description: String { "\(author)/\(permlink)" }

    /// The longest "AUTHOR/PERMLINK" text: a 64-hex author, the slash and the longest permlink.
    public static let maxTextBytes = 64 + 1 + SocialRules.maxPermlinkBytes
}

/// The shape rules both the contract and clients check (docs/SOCIAL.md §2), so a client can
/// refuse bad input before signing anything.
public enum SocialRules {
    public static let maxPermlinkBytes = 255
    public static let maxTitleBytes = 255
    public static let maxBodyBytes = 65_536
    public static let maxMetadataBytes = 16_384
    public static let maxTags = 5
    public static let maxTagBytes = 24
    public static let maxVoteWeight: Int64 = 10_000
    public static let maxVoteChanges: UInt32 = 5
    public static let rootPostInterval: Int64 = 300
    public static let replyInterval: Int64 = 3
    public static let voteInterval: Int64 = 3
    public static let payoutWindow: Int64 = 7 * 86_400
    public static let maxFeedLimit = 100
    public static let maxAppNameBytes = 32
    public static let maxRedirectBytes = 512
    /// Longest grant: one year.
    public static let maxGrantSeconds: Int64 = 365 * 86_400
    /// Rewards (docs/SOCIAL.md §8): posts are paid when the hour-long window holding their payout
    /// time closes; such a window releases 1 % of the free pool, 25 % of each post's share to its curators.
    public static let rewardWindowSeconds: Int64 = 3600
    public static let rewardShareBps: UInt64 = 100
    public static let curationBps: UInt64 = 2500
    /// Most accounts one `accounts` read names.
    public static let maxAccountsPerRead = 100

    /// 1–255 characters of [a-z0-9-].
    public static func isValidPermlink(_ s: String) -> Bool {
        let u = s.utf8
        return !u.isEmpty && u.count <= maxPermlinkBytes && u.allSatisfy(isPermlinkByte)
    }

    /// 1–24 characters of [a-z0-9-].
    public static func isValidTag(_ s: String) -> Bool {
        let u = s.utf8
        return !u.isEmpty && u.count <= maxTagBytes && u.allSatisfy(isPermlinkByte)
    }

    /// 3–32 characters of [a-z0-9-].
    public static func isValidAppName(_ s: String) -> Bool {
        let u = s.utf8
        return u.count >= 3 && u.count <= maxAppNameBytes && u.allSatisfy(isPermlinkByte)
    }

    static func isPermlinkByte(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7a) || (b >= 0x30 && b <= 0x39) || b == 0x2d
    }

    /// A permlink made from a title: lowercase letters and digits, runs of anything else as one
    /// "-", trimmed, at most 200 characters; "post" when nothing is left.
    public static func permlink(fromTitle title: String) -> String {
        var out = ""
        var dash = false
        for scalar in title.lowercased().unicodeScalars {
            if scalar.isASCII, let b = UInt8(exactly: scalar.value), isPermlinkByte(b), b != 0x2d {
                if dash, !out.isEmpty { out.append("-") }
                dash = false
                out.unicodeScalars.append(scalar)
                if out.utf8.count >= 200 { break }
            } else {
                dash = true
            }
        }
        return out.isEmpty ? "post" : out
    }
}
