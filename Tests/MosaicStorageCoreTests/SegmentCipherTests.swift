import Foundation
import MosaicCrypto
import MosaicProtocol
import MosaicTestSupport
import Testing

@testable import MosaicStorageCore

@Suite struct SegmentCipherTests {
    let P = MerkleRules.blockSize - 16

    func cipher(size: Int64, key: [UInt8] = [UInt8](repeating: 7, count: 32), prefix: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]) throws
        -> AESGCMSegmentCipher
    {
        try AESGCMSegmentCipher(key: SecretBytes(key), noncePrefix: prefix, fileSize: size)
    }

    @Test func roundTripThroughEncoderAndDecoder() async throws {
        let data = testBytes(3 * P + 5)
        let c = try AESGCMSegmentCipher.random(fileSize: Int64(data.count))
        let encoder = try FileEncoder(dataShards: 2, parityShards: 1, cipher: c)
        let sinks = (0..<3).map { _ in MemorySink() }
        let result = try await encoder.encode(bytes: data, to: sinks)
        let decoder = try FileDecoder(file: result.file, cipher: c)
        var sources: [Int: any FragmentSource] = [:]
        for i in 0..<3 { sources[i] = MemorySource(await sinks[i].bytes) }
        var out: [UInt8] = []
        _ = try await decoder.decode(from: sources) { out += $0 }
        #expect(out == data)
        // The ciphertext never contains a 64-byte run of the plaintext.
        let stored = await sinks[0].bytes
        #expect(!contains(stored, Array(data[100..<164])))
    }

    @Test func tamperedSegmentFails() throws {
        let c = try cipher(size: Int64(2 * P))
        var sealed = try c.seal(testBytes(P), segmentIndex: 0)
        sealed[10] ^= 1
        #expect(throws: CryptoError.authenticationFailed) { try c.open(sealed, segmentIndex: 0) }
        var tag = try c.seal(testBytes(P), segmentIndex: 0)
        tag[tag.count - 1] ^= 0x80
        #expect(throws: CryptoError.authenticationFailed) { try c.open(tag, segmentIndex: 0) }
    }

    @Test func reorderedSegmentsFail() throws {
        let c = try cipher(size: Int64(3 * P))
        let s0 = try c.seal(testBytes(P, seed: 1), segmentIndex: 0)
        let s1 = try c.seal(testBytes(P, seed: 2), segmentIndex: 1)
        #expect(try c.open(s1, segmentIndex: 1) == testBytes(P, seed: 2))
        #expect(throws: CryptoError.authenticationFailed) { try c.open(s1, segmentIndex: 0) }
        #expect(throws: CryptoError.authenticationFailed) { try c.open(s0, segmentIndex: 1) }
    }

    @Test func truncationIsDetected() throws {
        // A 3-segment file presented as a 2-segment file: segment 1 was not sealed as final.
        let full = try cipher(size: Int64(3 * P))
        let s1 = try full.seal(testBytes(P), segmentIndex: 1)
        let short = try cipher(size: Int64(2 * P))
        #expect(throws: CryptoError.authenticationFailed) { try short.open(s1, segmentIndex: 1) }
        // Cutting bytes off the final segment fails too.
        let last = try full.seal(testBytes(100), segmentIndex: 2)
        #expect(throws: CryptoError.authenticationFailed) { try full.open(Array(last.dropFirst(1)), segmentIndex: 2) }
        // The total length is bound: the same key and prefix with another size do not open.
        let other = try cipher(size: Int64(3 * P) - 1)
        let s0 = try full.seal(testBytes(P), segmentIndex: 0)
        #expect(throws: CryptoError.authenticationFailed) { try other.open(s0, segmentIndex: 0) }
    }

    @Test func wrongKeyOrPrefixFails() throws {
        let c = try cipher(size: 10)
        let sealed = try c.seal(Array("hello mosai".utf8.prefix(10)), segmentIndex: 0)
        #expect(throws: CryptoError.authenticationFailed) {
            try cipher(size: 10, key: [UInt8](repeating: 8, count: 32)).open(sealed, segmentIndex: 0)
        }
        #expect(throws: CryptoError.authenticationFailed) {
            try cipher(size: 10, prefix: [1, 2, 3, 4, 5, 6, 7, 9]).open(sealed, segmentIndex: 0)
        }
        #expect(throws: (any Error).self) { try c.seal([1], segmentIndex: 1) }
    }

    @Test func knownVector() throws {
        // Fixed key, prefix and size: a regression vector for docs/STORAGE.md §9.
        let c = try cipher(size: 3)
        let sealed = try c.seal([0x61, 0x62, 0x63], segmentIndex: 0)
        #expect(sealed.count == 19)
        #expect(try c.open(sealed, segmentIndex: 0) == [0x61, 0x62, 0x63])
        // Checked independently with Python's `cryptography` AESGCM.
        #expect(Hex.encode(sealed) == "9c93f599f5f63e6313f6de88eb830e3269f3f5")
        #expect(Hex.encode(c.aad(0)) == "6d6f736169632d7365676d656e742d76310000000000000000010000000000000003")
    }
}

func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard needle.count <= haystack.count, let first = needle.first else { return needle.isEmpty }
    var i = 0
    while i + needle.count <= haystack.count {
        if haystack[i] == first && Array(haystack[i..<(i + needle.count)]) == needle { return true }
        i += 1
    }
    return false
}
