import MosaicCrypto

/// The binary Merkle rules, in one place for every tree Mosaic builds: a fragment's 64 KiB blocks
/// (docs/STORAGE.md §2), an allocation's file entries, and a block's transactions
/// (docs/PROTOCOL.md §2.5). leaf = SHA-256(0x00 ‖ data), node = SHA-256(0x01 ‖ left ‖ right): the
/// prefixes keep a leaf from passing for a node. Levels pair neighbours left to right and an odd
/// last node is promoted unchanged (not paired with itself, so `[a, b, c]` and `[a, b, c, c]` differ;
/// the shape of RFC 9162's tree). Zero leaves give 32 zero bytes. Here in MosaicProtocol so the
/// ledger checks proofs with the same code the blobber and client build them with.
public enum MerkleRules {
    /// Bytes per fragment block: a Merkle leaf, a cipher segment and the unit storage is priced in.
    public static let blockSize = 65536
    public static let hashSize = 32
    public static let emptyRoot = [UInt8](repeating: 0, count: 32)

    public static func leafHash(_ data: UnsafeRawBufferPointer) -> [UInt8] {
        var h = SHA256.Hasher()
        h.update([0x00])
        h.update(data)
        return h.finalize()
    }

    public static func leafHash(_ data: [UInt8]) -> [UInt8] { data.withUnsafeBytes { leafHash($0) } }

    public static func nodeHash(_ left: [UInt8], _ right: [UInt8]) -> [UInt8] {
        var h = SHA256.Hasher()
        h.update([0x01])
        h.update(left)
        h.update(right)
        return h.finalize()
    }

    /// Root over leaf hashes.
    public static func root(leaves: [[UInt8]]) -> [UInt8] {
        guard !leaves.isEmpty else { return emptyRoot }
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

    /// Sizes of the levels of a tree with `leafCount` leaves, leaves first.
    public static func levelSizes(leafCount: Int) -> [Int] {
        guard leafCount > 0 else { return [] }
        var sizes = [leafCount]
        var n = leafCount
        while n > 1 {
            n = n / 2 + n % 2  // ⌈n / 2⌉ without overflow at Int.max
            sizes.append(n)
        }
        return sizes
    }

    /// Positions (level, index) of the siblings on leaf `index`'s path, bottom-up.
    public static func siblingPositions(leafIndex index: Int, leafCount: Int) -> [(level: Int, index: Int)] {
        var out: [(level: Int, index: Int)] = []
        var i = index
        for (level, n) in levelSizes(leafCount: leafCount).enumerated() where n > 1 {
            if i % 2 == 1 { out.append((level, i - 1)) } else if i + 1 < n { out.append((level, i + 1)) }
            i /= 2
        }
        return out
    }

    /// Leaf hashes of a byte stream cut into 64 KiB blocks (in-memory; tests and small fragments).
    public static func blockLeaves(_ stream: [UInt8], blockSize: Int = MerkleRules.blockSize) -> [[UInt8]] {
        stride(from: 0, to: stream.count, by: blockSize).map { leafHash(Array(stream[$0..<min($0 + blockSize, stream.count)])) }
    }

    /// The level above `level`.
    public static func parent(_ level: [[UInt8]]) -> [[UInt8]] {
        stride(from: 0, to: level.count, by: 2).map { i in i + 1 < level.count ? nodeHash(level[i], level[i + 1]) : level[i] }
    }
}
