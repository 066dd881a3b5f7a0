import Foundation
import MosaicCrypto

/// The `transaction_data` of a contract call: `{"contract":"faucet","method":"pour","args":{…}}`.
public struct ContractCall: Sendable, Hashable, Codable {
    public var contract: String
    public var method: String
    public var args: [String: JSONValue]

    public init(contract: String, method: String, args: [String: JSONValue] = [:]) {
        self.contract = contract
        self.method = method
        self.args = args
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        contract = try c.decode(String.self, forKey: .contract)
        method = try c.decode(String.self, forKey: .method)
        args = try c.decodeIfPresent([String: JSONValue].self, forKey: .args) ?? [:]
    }

    /// Parses `transaction_data`; the error names what is wrong.
    public static func parse(_ data: String) throws(LedgerError) -> ContractCall {
        do {
            return try JSONDecoder().decode(ContractCall.self, from: Data(data.utf8))
        } catch {
            throw .malformed("transaction_data of a contract call must be JSON {\"contract\":…,\"method\":…,\"args\":{…}}")
        }
    }

    /// Compact JSON with sorted keys, ready for `transaction_data`.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// The address a contract call must be sent to: hex SHA-256 of "mosaic-contract:" + name.
    public static func address(of contract: String) -> String {
        Hex.encode(SHA256.hash(Array("mosaic-contract:\(contract)".utf8)))
    }
}

/// A JSON value for contract arguments. Numbers must be integers: no floating point reaches
/// contract code (amounts are base units).
public enum JSONValue: Sendable, Hashable, Codable {
    case null
    case bool(Bool)
    case integer(Int64)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let i = try? c.decode(Int64.self) { self = .integer(i) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([JSONValue].self) { self = .array(a) }
        else if let o = try? c.decode([String: JSONValue].self) { self = .object(o) }
        else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "numbers must be integers (no fractions or exponents)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .integer(let i): try c.encode(i)
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }

    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    public var integerValue: Int64? { if case .integer(let i) = self { return i } else { return nil } }
}
