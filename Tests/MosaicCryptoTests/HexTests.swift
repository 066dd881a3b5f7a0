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

    /// Every byte value, in either nibble, against the definition: only 0-9, a-f and A-F decode.
    @Test func everyByteValueDecodesExactlyWhenItIsAHexDigit() {
        let digits = Set("0123456789abcdefABCDEF".utf8)
        for c in UInt8.min...UInt8.max {
            for text in [[c, UInt8(ascii: "0")], [UInt8(ascii: "0"), c]] {
                let string = String(decoding: text, as: UTF8.self)
                let valid = digits.contains(c)
                // A byte that is not UTF-8 on its own becomes U+FFFD, three bytes: never hex.
                #expect((Hex.decode(string) != nil) == valid, "byte \(c)")
                #expect(Hex.byteCount(string) == (valid ? 1 : nil), "byte \(c)")
                if valid, let value = Hex.decode(string)?.first {
                    let n = UInt8(String(decoding: [c], as: UTF8.self), radix: 16) ?? 0xFF
                    #expect(value == (text[0] == c ? n << 4 : n))
                }
            }
        }
        #expect(Hex.byteCount(String(repeating: "ab", count: 32)) == 32)
        #expect(Hex.byteCount("abc") == nil)
        #expect(Hex.byteCount("") == 0)
    }
}
