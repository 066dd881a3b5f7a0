import MosaicCrypto

/// The binary Merkle rules of docs/STORAGE.md §2, shared by the fragment tree (leaves = 64 KiB
/// blocks) and the allocation tree (leaves = file entries): leaf = SHA-256(0x00 ‖ data),
/// node = SHA-256(0x01 ‖ left ‖ right), an odd last node is promoted unchanged, zero leaves give
/// 32 zero bytes. Kept here (MosaicProtocol) so the ledger verifies proofs without MosaicStorage;
/// `MosaicStorage.MerkleTree` follows the same rules and the vectors check both.
public enum StorageMerkle {
    public static func leafHash(_ data: [UInt8]) -> [UInt8] { SHA256.hash([0x00] + data) }

    public static func nodeHash(_ left: [UInt8], _ right: [UInt8]) -> [UInt8] { SHA256.hash([0x01] + left + right) }

    /// Root over leaf hashes.
    public static func root(leaves: [[UInt8]]) -> [UInt8] {
        guard !leaves.isEmpty else { return [UInt8](repeating: 0, count: 32) }
        var level = leaves
        while level.count > 1 { level = parent(level) }
        return level[0]
    }

    /// Sibling hashes from leaf `index` to the root, bottom-up (promoted levels contribute none).
    public static func siblings(leaves: [[UInt8]], index: Int) -> [[UInt8]] {
        guard index >= 0, index < leaves.count else { return [] }
        var level = leaves
        var i = index
        var out: [[UInt8]] = []
        while level.count > 1 {
            if i % 2 == 1 { out.append(level[i - 1]) } else if i + 1 < level.count { out.append(level[i + 1]) }
            level = parent(level)
            i /= 2
        }
        return out
    }

    /// The root reached from `leaf` at `index` of `count` leaves with `siblings`, or nil when the
    /// sibling count does not fit the tree shape.
    public static func rootFrom(leaf: [UInt8], index: UInt64, count: UInt64, siblings: [[UInt8]]) -> [UInt8]? {
        guard index < count, leaf.count == 32, siblings.allSatisfy({ $0.count == 32 }) else { return nil }
        var hash = leaf
        var i = index
        var n = count
        var next = 0
        while n > 1 {
            if i % 2 == 1 {
                guard next < siblings.count else { return nil }
                hash = nodeHash(siblings[next], hash)
                next += 1
            } else if i + 1 < n {
                guard next < siblings.count else { return nil }
                hash = nodeHash(hash, siblings[next])
                next += 1
            }
            i /= 2
            n = n / 2 + n % 2  // ⌈n / 2⌉ without overflow at UInt64.max
        }
        return next == siblings.count ? hash : nil
    }

    /// Leaf hashes of a byte stream cut into 64 KiB blocks (in-memory; tests and small fragments).
    public static func blockLeaves(_ stream: [UInt8], blockSize: Int = StoragePricing.blockSize) -> [[UInt8]] {
        stride(from: 0, to: stream.count, by: blockSize).map { leafHash(Array(stream[$0..<min($0 + blockSize, stream.count)])) }
    }

    private static func parent(_ level: [[UInt8]]) -> [[UInt8]] {
        stride(from: 0, to: level.count, by: 2).map { i in i + 1 < level.count ? nodeHash(level[i], level[i + 1]) : level[i] }
    }
}
