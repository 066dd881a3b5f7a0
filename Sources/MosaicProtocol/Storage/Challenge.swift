import MosaicCrypto

/// A proof-of-storage request issued by the ledger at the end of a block: `blobber_id` must prove
/// one block of one file of `allocation_id` against `allocation_root` (its root when issued)
/// before `deadline`, with `storage.respond_challenge`.
///
/// `id` = hex SHA-256("mosaic-challenge-v1" ‖ previous block hash ‖ u64 round) (CanonicalWriter);
/// its bytes are the seed: the entry is u64(id[0..<8]) mod entry count, the block is
/// u64(id[8..<16]) mod the entry's block count (see `ChallengeProof`).
public struct Challenge: Sendable, Hashable, Codable {
    public var id: String
    public var allocationID: String
    public var blobberID: String
    public var allocationRoot: String
    public var issuedRound: UInt64
    /// Unix seconds.
    public var issuedAt: Int64
    /// Unix seconds; an open challenge past it fails at the next block.
    public var deadline: Int64
    public var status: ChallengeStatus
    public var closedAt: Int64?
    /// Paid to the blobber on pass; on fail, the amount slashed from its stake.
    public var amount: UInt64
    /// Why it failed (empty otherwise).
    public var reason: String

    enum CodingKeys: String, CodingKey {
        case id
        case allocationID = "allocation_id"
        case blobberID = "blobber_id"
        case allocationRoot = "allocation_root"
        case issuedRound = "issued_round"
        case issuedAt = "issued_at"
        case deadline, status
        case closedAt = "closed_at"
        case amount, reason
    }

    public init(
        id: String, allocationID: String, blobberID: String, allocationRoot: String, issuedRound: UInt64,
        issuedAt: Int64, deadline: Int64
    ) {
        self.id = id
        self.allocationID = allocationID
        self.blobberID = blobberID
        self.allocationRoot = allocationRoot
        self.issuedRound = issuedRound
        self.issuedAt = issuedAt
        self.deadline = deadline
        self.status = .open
        self.closedAt = nil
        self.amount = 0
        self.reason = ""
    }

    public static let domain = "mosaic-challenge-v1"

    /// The challenge seed of a block: the previous block's hash and the new round.
    public static func seed(previousBlockHash: String, round: UInt64) -> [UInt8] {
        var w = CanonicalWriter(domain: domain)
        w.append(string: previousBlockHash)
        w.append(uint64: round)
        return SHA256.hash(w.bytes)
    }

    /// Which entry of `entryCount` (≥ 1) the challenge `id` asks for.
    public static func entryIndex(challengeID: String, entryCount: UInt64) -> UInt64 {
        guard entryCount > 0 else { return 0 }
        return word(challengeID, 0) % entryCount
    }

    /// Which block of `blockCount` (≥ 1) the challenge `id` asks for.
    public static func blockIndex(challengeID: String, blockCount: UInt64) -> UInt64 {
        guard blockCount > 0 else { return 0 }
        return word(challengeID, 1) % blockCount
    }

    /// Big-endian u64 number `n` (0…3) of the 32 id bytes.
    public static func word(_ id: String, _ n: Int) -> UInt64 {
        let b = StorageSigning.hash32(id)
        guard b.count == 32, n >= 0, n < 4 else { return 0 }
        return b[(8 * n)..<(8 * n + 8)].reduce(0) { $0 << 8 | UInt64($1) }
    }
}
