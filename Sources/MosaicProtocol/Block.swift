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
        w.append(uint64: UInt64(transactionCount))
        w.append(string: minerID)
        return w.bytes
    }

    public var computedHash: String { Hex.encode(SHA256.hash(signingBytes)) }

    /// Merkle root of hex transaction hashes: leaves are the 32 hash bytes, a node is
    /// SHA-256(0x01 ‖ left ‖ right), an odd last node is paired with itself, no transactions → 64 zeros.
    public static func merkleRoot(_ hashes: [String]) -> String {
        guard !hashes.isEmpty else { return String(repeating: "0", count: 64) }
        var level = hashes.map { Hex.decode($0) ?? SHA256.hash(Array($0.utf8)) }
        while level.count > 1 {
            var next: [[UInt8]] = []
            next.reserveCapacity((level.count + 1) / 2)
            var i = 0
            while i < level.count {
                let left = level[i]
                let right = i + 1 < level.count ? level[i + 1] : left
                var h = SHA256.Hasher()
                h.update([0x01])
                h.update(left)
                h.update(right)
                next.append(h.finalize())
                i += 2
            }
            level = next
        }
        return Hex.encode(level[0])
    }
}
