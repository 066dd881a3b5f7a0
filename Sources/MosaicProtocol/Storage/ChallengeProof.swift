import Foundation
import MosaicCrypto

/// A blobber's answer to a `Challenge`: a two-level proof that `block` is block `block_index` of
/// the fragment of `entry`, and `entry` is entry `entry_index` of `entry_count` (in key order) in
/// the `AllocationTrie` whose allocation root the challenge names.
///
/// 1. entry_index = u64(id[0..<8]) mod entry_count; the entry's leaf (SHA-256(0x00 ‖ key ‖ entry
///    canonical bytes), key from its path) climbed through `entry_steps` gives the trie root, the
///    entry count, the fragment bytes and how many entries lie left of it, which must be
///    entry_index; SHA-256(0x03 ‖ u64 entry_count ‖ u64 bytes ‖ trie root) must equal the
///    allocation root.
/// 2. If the entry's fragment is empty, `block` and `block_siblings` must be empty. Else
///    block_index = u64(id[8..<16]) mod block count; `block` must have that block's length; its leaf
///    hash walked up `block_siblings` must equal the entry's `fragment_root`.
public struct ChallengeProof: Sendable, Hashable, Codable {
    public var entry: AllocationEntry
    public var entryIndex: UInt64
    public var entryCount: UInt64
    /// The trie's inner nodes from the entry's leaf up, bottom-up.
    public var entrySteps: [TrieStep]
    public var blockIndex: UInt64
    /// Base64 (standard alphabet, padded) of the block's bytes.
    public var block: String
    public var blockSiblings: [String]

    enum CodingKeys: String, CodingKey {
        case entry
        case entryIndex = "entry_index"
        case entryCount = "entry_count"
        case entrySteps = "entry_steps"
        case blockIndex = "block_index"
        case block
        case blockSiblings = "block_siblings"
    }

    public init(
        entry: AllocationEntry, entryIndex: UInt64, entryCount: UInt64, entrySteps: [TrieStep],
        blockIndex: UInt64, block: [UInt8], blockSiblings: [String]
    ) {
        self.entry = entry
        self.entryIndex = entryIndex
        self.entryCount = entryCount
        self.entrySteps = entrySteps
        self.blockIndex = blockIndex
        self.block = Data(block).base64EncodedString()
        self.blockSiblings = blockSiblings
    }

    /// Builds the answer to `challengeID` from the blobber's tree. `readBlock(entry, blockIndex)`
    /// returns the block's bytes and its fragment-tree siblings (from `FragmentStore`/`MerkleTree`).
    public static func build(
        challengeID: String, tree: AllocationTree,
        readBlock: (AllocationEntry, UInt64) throws -> (bytes: [UInt8], siblings: [[UInt8]])
    ) throws -> ChallengeProof {
        let count = UInt64(tree.trie.count)
        guard count > 0 else { throw StorageProtocolError.invalidProof("the allocation tree has no entries") }
        let ei = Challenge.entryIndex(challengeID: challengeID, entryCount: count)
        guard let (path, steps) = tree.trie.proof(ofEntry: ei), let entry = tree.entry(at: path) else {
            throw StorageProtocolError.invalidProof("entry \(ei) of the allocation tree is missing")
        }
        var bi: UInt64 = 0
        var bytes: [UInt8] = []
        var siblings: [[UInt8]] = []
        if entry.blockCount > 0 {
            bi = Challenge.blockIndex(challengeID: challengeID, blockCount: entry.blockCount)
            (bytes, siblings) = try readBlock(entry, bi)
        }
        return ChallengeProof(
            entry: entry, entryIndex: ei, entryCount: count, entrySteps: steps,
            blockIndex: bi, block: bytes, blockSiblings: siblings.map { Hex.encode($0) })
    }

    /// Checks the proof for `challengeID` against `allocationRoot` (hex).
    public func verify(challengeID: String, allocationRoot: String) throws(StorageProtocolError) {
        try entry.validate()
        guard entryCount > 0 else { throw .invalidProof("entry_count is 0") }
        let wantEntry = Challenge.entryIndex(challengeID: challengeID, entryCount: entryCount)
        guard entryIndex == wantEntry else { throw .invalidProof("entry_index \(entryIndex) is not the challenged \(wantEntry)") }
        let key = AllocationTrie.key(path: entry.path)
        guard
            let top = AllocationTrie.climb(
                hash: AllocationTrie.leafHash(key: key, entry: entry), count: 1, bytes: entry.fragmentLength, key: key,
                under: AllocationTrie.keyBits, steps: entrySteps),
            top.count == entryCount, top.before == entryIndex,
            AllocationTrie.root(count: top.count, size: top.bytes, trieRoot: top.hash) == allocationRoot
        else {
            throw .invalidProof("entry \(entryIndex) of \(entryCount) does not lead to allocation root \(allocationRoot)")
        }
        guard let data = Data(base64Encoded: block) else { throw .invalidProof("block is not base64") }
        let bytes = [UInt8](data)
        if entry.blockCount == 0 {
            guard bytes.isEmpty, blockSiblings.isEmpty else { throw .invalidProof("the entry's fragment is empty; block must be empty") }
            return
        }
        let wantBlock = Challenge.blockIndex(challengeID: challengeID, blockCount: entry.blockCount)
        guard blockIndex == wantBlock else { throw .invalidProof("block_index \(blockIndex) is not the challenged \(wantBlock)") }
        let length = entry.blockLength(blockIndex)
        guard UInt64(bytes.count) == length else { throw .invalidProof("block is \(bytes.count) bytes; block \(blockIndex) has \(length)") }
        guard let blockSibs = Self.decode(blockSiblings) else { throw .invalidProof("block_siblings must be 64-hex hashes") }
        guard
            let root = MerkleRules.rootFrom(
                leaf: MerkleRules.leafHash(bytes), index: blockIndex, count: entry.blockCount,
                siblings: blockSibs),
            Hex.encode(root) == entry.fragmentRoot
        else {
            throw .invalidProof("block \(blockIndex) does not match fragment root \(entry.fragmentRoot) of \(entry.path)")
        }
    }

    private static func decode(_ hex: [String]) -> [[UInt8]]? {
        var out: [[UInt8]] = []
        for h in hex {
            guard let b = Hex.decode(h), b.count == 32 else { return nil }
            out.append(b)
        }
        return out
    }
}
