import MosaicCrypto

/// A committed block. `hash` covers every other field through `signingBytes`, so a block and
/// its transactions can be checked offline from the previous block's hash.
public struct Block: Sendable, Hashable, Codable, CanonicalSigned {
    public var round: UInt64
    public var hash: String
    public var previousHash: String
    /// Unix seconds (ledger clock) when the block was produced.
    public var timestamp: Int64
    /// Merkle root over the transaction hashes in block order (docs/PROTOCOL.md §2.5).
    public var transactionRoot: String
    /// SHA-256 chain over the account and contract rows this block changed.
    public var stateRoot: String
    public var transactionCount: Int
    public var minerID: String

    enum CodingKeys: String, CodingKey {
        case round, hash
        case previousHash = "previous_hash"
        case timestamp
        case transactionRoot = "transaction_root"
        case stateRoot = "state_root"
        case transactionCount = "transaction_count"
        case minerID = "miner_id"
    }

    public init(
        round: UInt64, previousHash: String, timestamp: Int64, transactionRoot: String, stateRoot: String,
        transactionCount: Int, minerID: String
    ) {
        self.round = round
        self.previousHash = previousHash
        self.timestamp = timestamp
        self.transactionRoot = transactionRoot
        self.stateRoot = stateRoot
        self.transactionCount = transactionCount
        self.minerID = minerID
        self.hash = ""
        self.hash = computedHash
    }

    public static let signingDomain = "mosaic-block-v1"

    public var signingBytes: [UInt8] {
        var w = CanonicalWriter(domain: Block.signingDomain)
        w.append(uint64: round)
        w.append(string: previousHash)
        w.append(int64: timestamp)
        w.append(string: transactionRoot)
        w.append(string: stateRoot)
        // Bit pattern, so a negative count (only from a hostile JSON block) hashes apart from every real one instead of trapping.
        w.append(uint64: UInt64(truncatingIfNeeded: transactionCount))
        w.append(string: minerID)
        return w.bytes
    }

    public var computedHash: String { signingHash }

    /// Merkle root of hex transaction hashes (docs/PROTOCOL.md §2.5): a leaf is
    /// SHA-256(0x00 ‖ the 32 hash bytes), a node SHA-256(0x01 ‖ left ‖ right), an odd last node is
    /// promoted to the next level unchanged, no transactions → 64 zeros. The distinct prefixes keep
    /// a leaf from passing for a node, and promotion (instead of pairing a node with itself) keeps
    /// `[a, b, c]` and `[a, b, c, c]` apart.
    public static func merkleRoot(_ hashes: [String]) -> String {
        Hex.encode(MerkleRules.root(leaves: hashes.map { MerkleRules.leafHash(Hex.decode($0) ?? Array($0.utf8)) }))
    }
}
