import MosaicCrypto
import Testing

/// Every id, hash and key on the wire is hex: the coder must be exact in both directions and
/// refuse anything that is not hex instead of guessing.
@Suite struct HexTests {
    @Test func encodesLowercaseAndDecodesEitherCase() {
        let bytes: [UInt8] = [0x00, 0x01, 0x7f, 0x80, 0xab, 0xff]
        #expect(Hex.encode(bytes) == "00017f80abff")
        #expect(Hex.encode(bytes[2...]) == "7f80abff", "slices encode too")
        #expect(Hex.encode(AnySequence(bytes)) == "00017f80abff", "non-contiguous sequences encode too")
        #expect(Hex.decode("00017f80abff") == bytes)
        #expect(Hex.decode("00017F80ABFF") == bytes)
        #expect(Hex.encode([UInt8]()) == "")
        #expect(Hex.decode("") == [])
        let random = (0..<1000).map { _ in UInt8.random(in: 0...255) }
        #expect(Hex.decode(Hex.encode(random)) == random)
    }

    @Test func refusesOddLengthsAndNonHexCharacters() {
        #expect(Hex.decode("abc") == nil)
        #expect(Hex.decode("zz") == nil)
        #expect(Hex.decode("0g") == nil)
        #expect(Hex.decode("é0") == nil)
        #expect(Hex.decode(" 00") == nil)
    }
}
