/// A value bound to or read from SQL. Values travel in PostgreSQL's binary format, so bytes and
/// integers round-trip exactly. `UInt64` has no native type; as in the SQLite store it is an
/// 8-byte big-endian `bytea`, exact for every value, and byte order equals numeric order.
/// Unlike SQLite, PostgreSQL `text` cannot hold U+0000: such a value is refused by the server
/// (`PostgresError.execute`, SQLSTATE 22021); text that may hold it belongs in `bytes`.
package enum PostgresValue: Sendable, Equatable {
    case integer(Int64)
    case text(String)
    case bytes([UInt8])
    case boolean(Bool)
    case null

    /// A `UInt64` as its 8-byte big-endian `bytea`.
    package static func uint64(_ value: UInt64) -> PostgresValue {
        .bytes(bigEndian(value, width: 8))
    }

    /// The parameter's type OID (0: let the server infer it, for NULL).
    var typeOID: UInt32 {
        switch self {
        case .integer: return PostgresType.int8
        case .text: return PostgresType.text
        case .bytes: return PostgresType.bytea
        case .boolean: return PostgresType.bool
        case .null: return 0
        }
    }

    /// The binary wire form of a parameter; nil for NULL.
    var wireBytes: [UInt8]? {
        switch self {
        case .integer(let v): return bigEndian(UInt64(bitPattern: v), width: 8)
        case .text(let s): return Array(s.utf8)
        case .bytes(let b): return b
        case .boolean(let b): return [b ? 1 : 0]
        case .null: return nil
        }
    }

    /// Decodes a binary result value of type `oid`.
    static func decode(_ bytes: [UInt8], oid: UInt32, column: Int) throws(PostgresError) -> PostgresValue {
        switch oid {
        case PostgresType.int8, PostgresType.int4, PostgresType.int2:
            let width = oid == PostgresType.int8 ? 8 : oid == PostgresType.int4 ? 4 : 2
            guard bytes.count == width else { throw .typeMismatch(column: column, expected: "a \(width)-byte integer") }
            // Sign-extend from the column's width.
            let raw = bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let shift = UInt64(64 - 8 * width)
            return .integer(Int64(bitPattern: raw << shift) >> Int64(shift))
        case PostgresType.oid:
            guard bytes.count == 4 else { throw .typeMismatch(column: column, expected: "a 4-byte OID") }
            return .integer(Int64(bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }))
        case PostgresType.text, PostgresType.varchar, PostgresType.bpchar, PostgresType.name:
            return .text(String(decoding: bytes, as: UTF8.self))
        case PostgresType.bytea:
            return .bytes(bytes)
        case PostgresType.bool:
            guard bytes.count == 1 else { throw .typeMismatch(column: column, expected: "a boolean") }
            return .boolean(bytes[0] != 0)
        default:
            throw .unsupportedType(column: column, oid: oid)
        }
    }
}

/// The type OIDs this wrapper binds and decodes (from PostgreSQL's `pg_type`, stable since 7.x).
enum PostgresType {
    static let bool: UInt32 = 16
    static let bytea: UInt32 = 17
    static let name: UInt32 = 19
    static let int8: UInt32 = 20
    static let int2: UInt32 = 21
    static let int4: UInt32 = 23
    static let text: UInt32 = 25
    static let oid: UInt32 = 26
    static let bpchar: UInt32 = 1042
    static let varchar: UInt32 = 1043
}

func bigEndian(_ value: UInt64, width: Int) -> [UInt8] {
    (0..<width).map { UInt8(truncatingIfNeeded: value >> UInt64(8 * (width - 1 - $0))) }
}
