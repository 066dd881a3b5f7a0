/// A value bound to or read from SQL. `UInt64` has no native SQLite type, so it travels as an
/// 8-byte big-endian blob: exact for every value, and byte order equals numeric order.
package enum DatabaseValue: Sendable, Equatable {
    case integer(Int64)
    case text(String)
    case blob([UInt8])
    case null

    /// A `UInt64` as its 8-byte big-endian blob.
    public static func uint64(_ value: UInt64) -> DatabaseValue {
        .blob(DatabaseValue.bigEndianBytes(value))
    }

    static func bigEndianBytes(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * UInt64($0))) }
    }

    static func uint64(fromBigEndian bytes: some Collection<UInt8>) -> UInt64? {
        guard bytes.count == 8 else { return nil }
        return bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }
}
