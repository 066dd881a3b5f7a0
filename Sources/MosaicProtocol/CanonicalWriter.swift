/// Builds the canonical byte strings that hashes and signatures cover: fixed-width big-endian
/// integers and length-prefixed byte strings, so no two field sequences encode the same bytes.
public struct CanonicalWriter: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init(domain: String) {
        bytes.reserveCapacity(256)
        append(string: domain)
    }

    public mutating func append(uint64 v: UInt64) {
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: v >> UInt64(shift))) }
    }

    public mutating func append(int64 v: Int64) { append(uint64: UInt64(bitPattern: v)) }

    public mutating func append(uint8 v: UInt8) { bytes.append(v) }

    /// A 4-byte big-endian length, then the bytes.
    public mutating func append(bytes b: [UInt8]) {
        let n = UInt32(truncatingIfNeeded: b.count)
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: n >> UInt32(shift))) }
        bytes.append(contentsOf: b)
    }

    /// UTF-8 bytes with a length prefix.
    public mutating func append(string s: String) { append(bytes: Array(s.utf8)) }
}
