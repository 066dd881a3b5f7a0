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

    /// The number of bytes `text` decodes to, without decoding it; nil when it is not hex.
    /// For checks of shape (a 32-byte root, an 8-byte prefix) on thousands of listing entries.
    public static func byteCount(_ text: String) -> Int? {
        var text = text
        return text.withUTF8 { utf8 in
            guard utf8.count % 2 == 0 else { return nil }
            return values.withUnsafeBufferPointer { table in
                var bad: UInt8 = 0
                for c in utf8 { bad |= table[Int(c)] }
                return bad & 0xF0 == 0 ? utf8.count / 2 : nil
            }
        }
    }

    /// Each byte's value as a hex digit, 0xFF for bytes that are not one. A table, not branches:
    /// hex digits are random, so a branch between digit and letter mispredicts a third of the
    /// time, and a listing of a large folder checks some hundred million of them.
    private static let values: [UInt8] = (0...255).map { (c: Int) -> UInt8 in
        switch c {
        case 0x30...0x39: return UInt8(c - 0x30)
        case 0x41...0x46: return UInt8(c - 0x41 + 10)
        case 0x61...0x66: return UInt8(c - 0x61 + 10)
        default: return 0xFF
        }
    }

    private static func decode(utf8: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard utf8.count % 2 == 0 else { return nil }
        var bad: UInt8 = 0
        let out = values.withUnsafeBufferPointer { table in
            [UInt8](unsafeUninitializedCapacity: utf8.count / 2) { out, count in
                var i = 0
                var j = 0
                while i < utf8.count {
                    let hi = table[Int(utf8[i])]
                    let lo = table[Int(utf8[i &+ 1])]
                    bad |= hi | lo
                    out[j] = hi << 4 | (lo & 0x0F)
                    j &+= 1
                    i &+= 2
                }
                count = j
            }
        }
        return bad & 0xF0 == 0 ? out : nil
    }
}
