/// A JSON value: contract arguments and views, and what the CLI prints with `--json`. Numbers
/// must be integers: no floating point reaches contract code (amounts are base units).
public enum JSONValue: Sendable, Hashable, Codable {
    case null
    case bool(Bool)
    case integer(Int64)
    /// A count or amount above `Int64.max` as clients print it. Decoding never makes one: a
    /// number that does not fit an `Int64` is refused, as contracts only take `integer`.
    case unsigned(UInt64)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? c.decode(Int64.self) {
            self = .integer(i)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([JSONValue].self) {
            self = .array(a)
        } else if let o = try? c.decode(JSONObject.self) {
            self = .object(o)
        } else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "numbers must be integers (no fractions or exponents)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .integer(let i): try c.encode(i)
        case .unsigned(let u): try c.encode(u)
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }

    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    public var integerValue: Int64? {
        switch self {
        case .integer(let i): i
        case .unsigned(let u): Int64(exactly: u)
        default: nil
        }
    }

    /// `.string(s)`, or `.null` when there is none.
    public static func optional(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }
}
