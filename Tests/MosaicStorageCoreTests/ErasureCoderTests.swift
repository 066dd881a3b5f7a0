import MosaicCrypto
import MosaicTestSupport
import Testing

@testable import MosaicStorageCore

@Suite struct ErasureCoderTests {
    @Test(arguments: [(2, 2), (4, 2), (10, 4), (3, 0), (1, 3)])
    func decodesFromEveryChoiceOfSurvivors(d: Int, p: Int) throws {
        let coder = try ErasureCoder(dataShards: d, parityShards: p)
        let fs = 192
        let data = testBytes(d * fs, seed: UInt64(d * 100 + p))
        let fragments = try coder.encode(data, fragmentSize: fs)
        #expect(fragments.count == d + p)
        for i in 0..<d {
            #expect(fragments[i] == Array(data[(i * fs)..<((i + 1) * fs)]), "systematic: data fragment \(i) is the data slice")
        }
        for lost in combinations(d + p, p) {
            var survivors: [Int: [UInt8]] = [:]
            for i in 0..<(d + p) where !lost.contains(i) { survivors[i] = fragments[i] }
            #expect(try coder.decode(survivors, fragmentSize: fs) == data, "lost \(lost)")
        }
        // Repair rebuilds every fragment, parity included, from the last d.
        var last: [Int: [UInt8]] = [:]
        for i in p..<(d + p) { last[i] = fragments[i] }
        #expect(try coder.reconstruct(last, fragmentSize: fs) == fragments)
    }

    /// Vectors from docs/STORAGE.md, computed independently in Python (GF(2^8), polynomial 0x11d,
    /// parity row i, column j = 1 / (i XOR j)).
    @Test func parityMatchesDocumentedVectors() throws {
        let a = try ErasureCoder(dataShards: 2, parityShards: 2).encode(Array(0..<8), fragmentSize: 4)
        #expect(a.map { Hex.encode($0) } == ["00010203", "04050607", "f78d0379", "0278f68c"])
        let b = try ErasureCoder(dataShards: 4, parityShards: 2).encode((0..<16).map { UInt8($0 * 17) }, fragmentSize: 4)
        #expect(b.map { Hex.encode($0) } == ["00112233", "44556677", "8899aabb", "ccddeeff", "bda78993", "d5cfe1fb"])
    }

    @Test func layoutArithmetic() throws {
        let one = try FileLayout(fileSize: 1, dataShards: 4, parityShards: 2, cipherOverhead: 16)
        #expect(one.segmentCount == 1 && one.chunkCount == 1 && one.fragmentLength == 64)
        let l = try FileLayout(fileSize: 4 * 65520 + 1, dataShards: 4, parityShards: 2, cipherOverhead: 16)
        #expect(l.segmentCount == 5 && l.sealedSize == 4 * 65520 + 1 + 80 && l.chunkCount == 2)
        #expect(l.sealedLength(ofChunk: 1) == 17 && l.fragmentSize(ofChunk: 1) == 64 && l.fragmentLength == 65536 + 64)
        #expect(l.chunks(covering: 0..<1) == 0..<1 && l.chunks(covering: 262_080..<262_081) == 1..<2)
        let empty = try FileLayout(fileSize: 0, dataShards: 2, parityShards: 1, cipherOverhead: 0)
        #expect(empty.chunkCount == 0 && empty.fragmentLength == 0 && empty.chunks(covering: 0..<10).isEmpty)
        let full = try FileLayout(fileSize: 2 * 65536, dataShards: 2, parityShards: 1, cipherOverhead: 0)
        #expect(full.chunkCount == 1 && full.fragmentLength == 65536)
    }

    @Test func oddFragmentSizesWork() throws {
        let coder = try ErasureCoder(dataShards: 4, parityShards: 2)
        for fs in [1, 7, 63, 65, 4097] {
            let data = testBytes(4 * fs, seed: UInt64(fs))
            let f = try coder.encode(data, fragmentSize: fs)
            #expect(try coder.decode([1: f[1], 3: f[3], 4: f[4], 5: f[5]], fragmentSize: fs) == data)
        }
    }

    @Test func rejectsBadInput() throws {
        #expect(throws: StorageError.invalidShardCounts(data: 0, parity: 2)) { try ErasureCoder(dataShards: 0, parityShards: 2) }
        #expect(throws: StorageError.invalidShardCounts(data: 60, parity: 10)) { try ErasureCoder(dataShards: 60, parityShards: 10) }
        let coder = try ErasureCoder(dataShards: 2, parityShards: 2)
        let f = try coder.encode(testBytes(128), fragmentSize: 64)
        #expect(throws: StorageError.notEnoughFragments(needed: 2, available: 1)) { try coder.decode([3: f[3]], fragmentSize: 64) }
        #expect(throws: StorageError.fragmentLengthMismatch(index: 1, expected: 64, got: 63)) {
            try coder.decode([0: f[0], 1: Array(f[1].prefix(63))], fragmentSize: 64)
        }
        #expect(throws: StorageError.invalidFragmentIndex(7)) { try coder.decode([0: f[0], 7: f[1]], fragmentSize: 64) }
    }
}
