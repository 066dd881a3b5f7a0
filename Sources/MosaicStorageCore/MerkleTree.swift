import MosaicCrypto

/// SHA-256 Merkle tree over the 64 KiB blocks of one fragment stream.
///
/// - leaf = SHA-256(0x00 ‖ block), node = SHA-256(0x01 ‖ left ‖ right): the prefixes keep a leaf
///   from ever being passed off as an inner node.
/// - Levels pair neighbours left to right; an odd last node is **promoted** unchanged to the next
///   level (not duplicated, so no two different leaf lists share a root). This is the same shape
///   as RFC 9162's tree: split at the largest power of two below n.
/// - The root of zero blocks is 32 zero bytes (an empty fragment of an empty file).
///
/// The tree keeps only its leaf hashes (32 bytes per 64 KiB block, 0.05 %), enough to answer a
/// proof for any block; inner levels are recomputed on demand.
public struct MerkleTree: Sendable, Equatable {
    public static let blockSize = 65536
    public static let hashSize = 32
    public static let emptyRoot = [UInt8](repeating: 0, count: 32)

    /// Leaf hashes, concatenated (32 bytes each): the persistable form of the tree.
    public let leafHashes: [UInt8]
    public let root: [UInt8]
    public var leafCount: Int { leafHashes.count / Self.hashSize }

    public init(leafHashes: [UInt8]) throws {
        guard leafHashes.count % Self.hashSize == 0 else { throw StorageError.invalidLeafHashes(byteCount: leafHashes.count) }
        self.leafHashes = leafHashes
        root = Self.root(ofLevel: Self.split(leafHashes))
    }

    /// Builds the tree of a whole fragment stream held in memory (tests, small files).
    public init(stream: [UInt8]) {
        var builder = MerkleTreeBuilder()
        builder.append(stream: stream)
        self = builder.finish()
    }

    init(verifiedLeafHashes: [UInt8], root: [UInt8]) {
        leafHashes = verifiedLeafHashes
        self.root = root
    }

    public func leafHash(at index: Int) throws -> [UInt8] {
        guard index >= 0, index < leafCount else { throw StorageError.blockIndexOutOfRange(index: index, count: leafCount) }
        return Array(leafHashes[(index * Self.hashSize)..<((index + 1) * Self.hashSize)])
    }

    /// The sibling path from block `index` up to the root.
    public func proof(forBlock index: Int) throws -> MerkleProof {
        guard index >= 0, index < leafCount else { throw StorageError.blockIndexOutOfRange(index: index, count: leafCount) }
        var level = Self.split(leafHashes)
        var i = index
        var siblings = [[UInt8]]()
        while level.count > 1 {
            if i % 2 == 1 {
                siblings.append(level[i - 1])
            } else if i + 1 < level.count {
                siblings.append(level[i + 1])
            }
            level = Self.parentLevel(level)
            i /= 2
        }
        return MerkleProof(leafIndex: index, leafCount: leafCount, siblings: siblings)
    }

    /// Every level of the tree, leaves first and the root last (2n − 1 nodes at most): what the
    /// fragment store persists so that a proof is a few small reads instead of rehashing the tree.
    public func levels() -> [[[UInt8]]] {
        var level = Self.split(leafHashes)
        guard !level.isEmpty else { return [] }
        var out = [level]
        while level.count > 1 {
            level = Self.parentLevel(level)
            out.append(level)
        }
        return out
    }

    /// Sizes of the levels of a tree with `leafCount` leaves, leaves first.
    public static func levelSizes(leafCount: Int) -> [Int] {
        guard leafCount > 0 else { return [] }
        var sizes = [leafCount]
        var n = leafCount
        while n > 1 {
            n = (n + 1) / 2
            sizes.append(n)
        }
        return sizes
    }

    /// Positions (level, index) of the siblings on block `index`'s path, bottom-up.
    public static func siblingPositions(leafIndex index: Int, leafCount: Int) -> [(level: Int, index: Int)] {
        var out: [(level: Int, index: Int)] = []
        var i = index
        for (level, n) in levelSizes(leafCount: leafCount).enumerated() where n > 1 {
            if i % 2 == 1 { out.append((level, i - 1)) } else if i + 1 < n { out.append((level, i + 1)) }
            i /= 2
        }
        return out
    }

    // MARK: Hashing rules

    public static func leafHash(_ block: UnsafeRawBufferPointer) -> [UInt8] {
        var h = SHA256.Hasher()
        h.update([0x00])
        h.update(block)
        return h.finalize()
    }

    public static func leafHash(_ block: [UInt8]) -> [UInt8] {
        block.withUnsafeBytes { leafHash($0) }
    }

    public static func nodeHash(_ left: [UInt8], _ right: [UInt8]) -> [UInt8] {
        var input = [UInt8]()
        input.reserveCapacity(1 + 2 * hashSize)
        input.append(0x01)
        input.append(contentsOf: left)
        input.append(contentsOf: right)
        return SHA256.hash(input)
    }

    /// Checks that `blockData` is block `blockIndex` of the fragment whose tree has `root`.
    public static func verify(root: [UInt8], blockIndex: Int, blockData: [UInt8], proof: MerkleProof) -> Bool {
        verify(root: root, blockIndex: blockIndex, leafHash: leafHash(blockData), proof: proof)
    }

    public static func verify(root: [UInt8], blockIndex: Int, leafHash: [UInt8], proof: MerkleProof) -> Bool {
        guard proof.leafIndex == blockIndex, blockIndex >= 0, blockIndex < proof.leafCount,
              leafHash.count == hashSize, root.count == hashSize else { return false }
        var hash = leafHash
        var i = blockIndex
        var n = proof.leafCount
        var next = 0
        while n > 1 {
            if i % 2 == 1 {
                guard next < proof.siblings.count else { return false }
                hash = nodeHash(proof.siblings[next], hash)
                next += 1
            } else if i + 1 < n {
                guard next < proof.siblings.count else { return false }
                hash = nodeHash(hash, proof.siblings[next])
                next += 1
            } // else: the last odd node is promoted unchanged
            i /= 2
            n = (n + 1) / 2
        }
        return next == proof.siblings.count && hash == root
    }

    // MARK: Level arithmetic

    static func split(_ flat: [UInt8]) -> [[UInt8]] {
        stride(from: 0, to: flat.count, by: hashSize).map { Array(flat[$0..<($0 + hashSize)]) }
    }

    static func parentLevel(_ level: [[UInt8]]) -> [[UInt8]] {
        stride(from: 0, to: level.count, by: 2).map { i in
            i + 1 < level.count ? nodeHash(level[i], level[i + 1]) : level[i]
        }
    }

    static func root(ofLevel leaves: [[UInt8]]) -> [UInt8] {
        guard !leaves.isEmpty else { return emptyRoot }
        var level = leaves
        while level.count > 1 { level = parentLevel(level) }
        return level[0]
    }
}
