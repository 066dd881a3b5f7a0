import MosaicCrypto
import MosaicProtocol
import MosaicTestSupport
import Testing

@testable import MosaicStorageCore

@Suite struct MerkleTreeTests {
    static func pattern(_ n: Int) -> [UInt8] { (0..<n).map { UInt8($0 % 251) } }

    /// Vectors from docs/STORAGE.md (computed independently with Python's hashlib).
    @Test func rootsMatchDocumentedVectors() throws {
        #expect(
            Hex.encode(MerkleTree(stream: Array("abc".utf8)).root) == "609f6e36d2405585188d5cfd761f407c7cc46a7d3f314c88270469dde315fcd1")
        #expect(
            Hex.encode(MerkleTree(stream: Self.pattern(2 * 65536 + 1)).root)
                == "ab2382bf1625e5d9a48a6c52a540d0029aa8f56bcc0d363e8ad4935cac5d2d0d")
        let five = MerkleTree(stream: Self.pattern(4 * 65536 + 100))
        #expect(five.leafCount == 5)
        #expect(Hex.encode(try five.leafHash(at: 4)) == "3350a5930ee3ac3986ede0f9c3b22feae0a9b0d78378ca66b4a11ebf03e4c1fb")
        #expect(Hex.encode(five.root) == "46ceb35e68b66d0761c8765fbe65cede94a2768908a4df436c0afdc510cdcfca")
        #expect(MerkleTree(stream: []).root == MerkleRules.emptyRoot)
    }

    @Test func incrementalBuilderAgreesAndEveryProofVerifies() throws {
        for n in 1...40 {
            let leaves = (0..<n).map { MerkleRules.leafHash([UInt8(n), UInt8($0)]) }
            var builder = MerkleTreeBuilder()
            for l in leaves { builder.append(leafHash: l) }
            let tree = try MerkleTree(leafHashes: Array(leaves.joined()))
            #expect(builder.root == tree.root, "n = \(n)")
            #expect(MerkleRules.levelSizes(leafCount: n).count == tree.levels().count)
            for i in 0..<n {
                let proof = try tree.proof(forBlock: i)
                #expect(MerkleTree.verify(root: tree.root, blockIndex: i, leafHash: leaves[i], proof: proof))
                #expect(try MerkleProof(encoded: proof.encoded()) == proof)
                #expect(proof.siblings.count == MerkleRules.siblingPositions(leafIndex: i, leafCount: n).count)
                if n > 1 {
                    #expect(!quiet(MerkleTree.verify(root: tree.root, blockIndex: i, leafHash: leaves[(i + 1) % n], proof: proof)))
                }
            }
        }
    }

    @Test func streamCuttingMatchesBlockAppends() {
        let data = testBytes(3 * 65536 + 777)
        var a = MerkleTreeBuilder()
        var offset = 0
        for step in [1, 65535, 70000, 1000, 100_000, 10_000_000] where offset < data.count {
            let end = min(data.count, offset + step)
            a.append(stream: Array(data[offset..<end]))
            offset = end
        }
        var b = MerkleTreeBuilder()
        for s in stride(from: 0, to: data.count, by: 65536) { b.append(block: Array(data[s..<min(data.count, s + 65536)])) }
        #expect(a.finish() == b.finish())
    }

    @Test func tamperedBlockOrProofFails() throws {
        let stream = Self.pattern(5 * 65536 + 3)
        let tree = MerkleTree(stream: stream)
        let block = Array(stream[(2 * 65536)..<(3 * 65536)])
        let proof = try tree.proof(forBlock: 2)
        let good = MerkleTree.verify(root: tree.root, blockIndex: 2, blockData: block, proof: proof)
        #expect(good)
        var flipped = block
        flipped[100] ^= 1
        #expect(!quiet(MerkleTree.verify(root: tree.root, blockIndex: 2, blockData: flipped, proof: proof)))
        var badSiblings = proof.siblings
        badSiblings[1][0] ^= 1
        #expect(
            !quiet(
                MerkleTree.verify(
                    root: tree.root, blockIndex: 2, blockData: block,
                    proof: MerkleProof(leafIndex: 2, leafCount: 6, siblings: badSiblings))))
        #expect(!quiet(MerkleTree.verify(root: tree.root, blockIndex: 3, blockData: block, proof: proof)))
        #expect(
            !quiet(
                MerkleTree.verify(
                    root: tree.root, blockIndex: 2, blockData: block,
                    proof: MerkleProof(leafIndex: 2, leafCount: 4, siblings: proof.siblings))))
        #expect(
            !quiet(
                MerkleTree.verify(
                    root: tree.root, blockIndex: 2, blockData: block,
                    proof: MerkleProof(leafIndex: 2, leafCount: 6, siblings: proof.siblings + [tree.root]))))
        #expect(throws: StorageError.blockIndexOutOfRange(index: 6, count: 6)) { try tree.proof(forBlock: 6) }
        #expect(throws: StorageError.invalidProofEncoding) { try MerkleProof(encoded: [1, 2, 3]) }
    }

    @Test func levelSizesOfAHostileLeafCountDoNotOverflow() {
        let sizes = MerkleRules.levelSizes(leafCount: Int.max)
        #expect(sizes.first == Int.max)
        #expect(sizes.last == 1)
        #expect(sizes.count == 64)
        #expect(MerkleRules.siblingPositions(leafIndex: 0, leafCount: Int.max).count == 63)
    }

    @Test func blockTransactionRootsFollowTheSameRules() {
        let hashes = (0..<5).map { i in Hex.encode(SHA256.hash([UInt8(i)])) }
        let leaves = hashes.map { MerkleRules.leafHash(Hex.decode($0) ?? []) }
        #expect(Block.merkleRoot(hashes) == Hex.encode(MerkleRules.root(leaves: leaves)))
        #expect(Block.merkleRoot([]) == String(repeating: "0", count: 64))
    }
}

/// Keeps failure messages short (the arguments are 64 KiB blocks).
private func quiet(_ b: Bool) -> Bool { b }
