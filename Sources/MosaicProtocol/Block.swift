import MosaicCrypto

/// A committed block. `hash` covers every other field through `signingBytes`, so a block and
/// its transactions can be checked offline from the previous block's hash.
public struct Block: Sendable, Hashable, Codable {
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

    public init(round: UInt64, previousHash: String, timestamp: Int64, transactionRoot: String, stateRoot: String,
                transactionCount: Int, minerID: String) {
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

    public var computedHash: String { Hex.encode(SHA256.hash(signingBytes)) }

    /// Merkle root of hex transaction hashes (docs/PROTOCOL.md §2.5): a leaf is
    /// SHA-256(0x00 ‖ the 32 hash bytes), a node SHA-256(0x01 ‖ left ‖ right), an odd last node is
    /// promoted to the next level unchanged, no transactions → 64 zeros. The distinct prefixes keep
    /// a leaf from passing for a node, and promotion (instead of pairing a node with itself) keeps
    /// `[a, b, c]` and `[a, b, c, c]` apart.
    public static func merkleRoot(_ hashes: [String]) -> String {
        guard !hashes.isEmpty else { return String(repeating: "0", count: 64) }
        var level = hashes.map { h -> [UInt8] in
            var leaf = SHA256.Hasher()
            leaf.update([0x00])
            leaf.update(Hex.decode(h) ?? Array(h.utf8))
            return leaf.finalize()
        }
        while level.count > 1 {
            var next: [[UInt8]] = []
            next.reserveCapacity((level.count + 1) / 2)
            var i = 0
            while i < level.count {
                if i + 1 < level.count {
                    var node = SHA256.Hasher()
                    node.update([0x01])
                    node.update(level[i])
                    node.update(level[i + 1])
                    next.append(node.finalize())
                } else {
                    next.append(level[i])
                }
                i += 2
            }
            level = next
        }
        return Hex.encode(level[0])
    }
}
