/// Reads what `CanonicalWriter` writes: big-endian integers, one-byte bools, and byte strings and
/// UTF-8 strings behind a 4-byte big-endian length. Every read checks the bytes left, so a
/// truncated or forged record throws `Malformed` instead of trapping.
public struct CanonicalReader: Sendable {
    public struct Malformed: Error, Sendable { public init() {} }

    private let input: [UInt8]
    public private(set) var offset: Int

    public init(_ bytes: [UInt8], from offset: Int = 0) {
        self.input = bytes
        self.offset = offset
    }

    public var atEnd: Bool { offset == input.count }

    public mutating func uint8() throws(Malformed) -> UInt8 {
        guard offset < input.count else { throw Malformed() }
        defer { offset += 1 }
        return input[offset]
    }

    public mutating func uint32() throws(Malformed) -> UInt32 { try bigEndian() }

    public mutating func uint64() throws(Malformed) -> UInt64 { try bigEndian() }

    /// The next `T.bitWidth / 8` bytes as a big-endian unsigned integer.
    private mutating func bigEndian<T: FixedWidthInteger & UnsignedInteger>() throws(Malformed) -> T {
        let size = T.bitWidth / 8
        guard input.count - offset >= size else { throw Malformed() }
        var v: T = 0
        for k in 0..<size { v = v << 8 | T(input[offset + k]) }
        offset += size
        return v
    }

    public mutating func int64() throws(Malformed) -> Int64 { Int64(bitPattern: try uint64()) }

    public mutating func bool() throws(Malformed) -> Bool { try uint8() == 1 }

    /// A length-prefixed byte string.
    public mutating func lengthPrefixedBytes() throws(Malformed) -> [UInt8] {
        let n = Int(try uint32())
        guard input.count - offset >= n else { throw Malformed() }
        defer { offset += n }
        return Array(input[offset..<(offset + n)])
    }

    /// Where a length-prefixed byte string sits in the input, skipping it (no copy).
    public mutating func lengthPrefixedRange() throws(Malformed) -> Range<Int> {
        let n = Int(try uint32())
        guard input.count - offset >= n else { throw Malformed() }
        defer { offset += n }
        return offset..<(offset + n)
    }

    /// Skips `n` bytes.
    public mutating func skip(_ n: Int) throws(Malformed) {
        guard n >= 0, input.count - offset >= n else { throw Malformed() }
        offset += n
    }

    /// A length-prefixed UTF-8 string; invalid UTF-8 is malformed.
    public mutating func string() throws(Malformed) -> String {
        var unused = false
        return try string(limit: 0, truncated: &unused)
    }

    /// Like `string()`, but when `limit` > 0 keeps at most `limit` bytes (cut at a character
    /// boundary, `truncated` set) without decoding the rest.
    public mutating func string(limit: Int, truncated: inout Bool) throws(Malformed) -> String {
        let n = Int(try uint32())
        guard input.count - offset >= n else { throw Malformed() }
        defer { offset += n }
        var end = offset + n
        if limit > 0, n > limit {
            end = offset + limit
            // Back up to the start of a UTF-8 sequence so no character is cut in half.
            while end > offset, input[end] & 0xC0 == 0x80 { end -= 1 }
            truncated = true
        }
        guard let s = String(validating: input[offset..<end], as: UTF8.self) else { throw Malformed() }
        return s
    }
}
