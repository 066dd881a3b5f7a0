/// Builds the canonical byte strings that hashes and signatures cover: fixed-width big-endian
/// integers and length-prefixed byte strings, so no two field sequences encode the same bytes.
public struct CanonicalWriter: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init(domain: String) {
        bytes.reserveCapacity(256)
        append(string: domain)
    }

    /// A writer with no domain prefix, for stored records (contract state) rather than signed strings.
    public init() { bytes.reserveCapacity(256) }

    public mutating func append(uint32 v: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: v >> UInt32(shift))) }
    }

    public mutating func append(uint64 v: UInt64) {
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: v >> UInt64(shift))) }
    }

    public mutating func append(int64 v: Int64) { append(uint64: UInt64(bitPattern: v)) }

    public mutating func append(uint8 v: UInt8) { bytes.append(v) }

    public mutating func append(bool v: Bool) { bytes.append(v ? 1 : 0) }

    /// A 4-byte big-endian length, then the bytes.
    public mutating func append(bytes b: [UInt8]) {
        append(uint32: UInt32(truncatingIfNeeded: b.count))
        bytes.append(contentsOf: b)
    }

    /// The bytes as they are, no length: for fixed-width fields (a 64-byte signature) and for
    /// records already framed (a listing's entries).
    public mutating func append(raw b: [UInt8]) { bytes.append(contentsOf: b) }

    /// Room for `count` bytes in all, so a large record (a listing of a big folder) grows once.
    public mutating func reserveCapacity(_ count: Int) { bytes.reserveCapacity(count) }

    /// UTF-8 bytes with a length prefix.
    public mutating func append(string s: String) {
        append(uint32: UInt32(truncatingIfNeeded: s.utf8.count))
        bytes.append(contentsOf: s.utf8)
    }
}
