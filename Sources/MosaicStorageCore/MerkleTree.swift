import MosaicCrypto
import MosaicProtocol

/// The Merkle tree over the 64 KiB blocks of one fragment stream, built by `MerkleRules`.
///
/// The tree keeps only its leaf hashes (32 bytes per 64 KiB block, 0.05 %), enough to answer a
/// proof for any block; inner levels are recomputed on demand.
package struct MerkleTree: Sendable, Equatable {
    /// Leaf hashes, concatenated (32 bytes each): the persistable form of the tree.
    public let leafHashes: [UInt8]
    public let root: [UInt8]
    public var leafCount: Int { leafHashes.count / MerkleRules.hashSize }

    public init(leafHashes: [UInt8]) throws {
        guard leafHashes.count % MerkleRules.hashSize == 0 else { throw StorageError.invalidLeafHashes(byteCount: leafHashes.count) }
        self.leafHashes = leafHashes
        root = MerkleRules.root(leaves: Self.split(leafHashes))
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
        return Array(leafHashes[(index * MerkleRules.hashSize)..<((index + 1) * MerkleRules.hashSize)])
    }

    /// The sibling path from block `index` up to the root.
    public func proof(forBlock index: Int) throws -> MerkleProof {
        guard index >= 0, index < leafCount else { throw StorageError.blockIndexOutOfRange(index: index, count: leafCount) }
        return MerkleProof(
            leafIndex: index, leafCount: leafCount, siblings: MerkleRules.siblings(leaves: Self.split(leafHashes), index: index))
    }

    /// Every level of the tree, leaves first and the root last (2n − 1 nodes at most): what the
    /// fragment store persists so that a proof is a few small reads instead of rehashing the tree.
    public func levels() -> [[[UInt8]]] {
        var level = Self.split(leafHashes)
        guard !level.isEmpty else { return [] }
        var out = [level]
        while level.count > 1 {
            level = MerkleRules.parent(level)
            out.append(level)
        }
        return out
    }

    /// Checks that `blockData` is block `blockIndex` of the fragment whose tree has `root`.
    public static func verify(root: [UInt8], blockIndex: Int, blockData: [UInt8], proof: MerkleProof) -> Bool {
        verify(root: root, blockIndex: blockIndex, leafHash: MerkleRules.leafHash(blockData), proof: proof)
    }

    public static func verify(root: [UInt8], blockIndex: Int, leafHash: [UInt8], proof: MerkleProof) -> Bool {
        guard proof.leafIndex == blockIndex, blockIndex >= 0, blockIndex < proof.leafCount, root.count == MerkleRules.hashSize,
            let reached = MerkleRules.rootFrom(
                leaf: leafHash, index: UInt64(blockIndex), count: UInt64(proof.leafCount),
                siblings: proof.siblings)
        else { return false }
        return reached == root
    }

    // MARK: Level arithmetic

    static func split(_ flat: [UInt8]) -> [[UInt8]] {
        stride(from: 0, to: flat.count, by: MerkleRules.hashSize).map { Array(flat[$0..<($0 + MerkleRules.hashSize)]) }
    }

}
