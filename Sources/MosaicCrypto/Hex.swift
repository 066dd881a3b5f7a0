/// Lowercase hexadecimal, the form every hash, key and id takes on the wire.
///
/// Both directions write straight into the result's storage (no intermediate arrays): hashes,
/// ids and file metadata are hex-coded on every request and every commit.
public enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    public static func encode<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
        if let s = bytes.withContiguousStorageIfAvailable({ encode(buffer: $0) }) { return s }
        return encode(buffer: Array(bytes))
    }

    private static func encode(buffer bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { out in
            digits.withUnsafeBufferPointer { d in
                var j = 0
                for b in bytes {
                    out[j] = d[Int(b >> 4)]
                    out[j + 1] = d[Int(b & 0x0f)]
                    j += 2
                }
                return j
            }
        }
    }

    private static func encode(buffer bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer { encode(buffer: $0) }
    }

    /// Decodes hex (either case); nil when the length is odd or a character is not a hex digit.
    public static func decode(_ text: String) -> [UInt8]? {
        var text = text
        return text.withUTF8 { decode(utf8: $0) }
    }

    private struct NotHex: Error {}

    private static func decode(utf8: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard utf8.count % 2 == 0 else { return nil }
        return try? [UInt8](unsafeUninitializedCapacity: utf8.count / 2) { out, count in
            var i = 0
            while i < utf8.count {
                guard let hi = nibble(utf8[i]), let lo = nibble(utf8[i + 1]) else { throw NotHex() }
                out[count] = hi << 4 | lo
                count += 1
                i += 2
            }
        }
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
