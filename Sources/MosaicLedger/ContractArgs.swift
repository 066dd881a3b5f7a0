import Foundation
import MosaicProtocol

/// Typed access to a contract call's or view's arguments; every failure names the argument.
/// Numbers may come as JSON integers or as decimal strings (above 2^63, and the node's GET form of
/// views passes every query value as a string). A JSON null counts as absent.
struct ContractArgs {
    let values: [String: JSONValue]

    init(_ values: [String: JSONValue]) { self.values = values }

    private func present(_ key: String) -> JSONValue? {
        guard let v = values[key], v != .null else { return nil }
        return v
    }

    func string(_ key: String) throws(ContractError) -> String {
        guard let v = present(key) else { throw .invalidArguments("missing \"\(key)\"") }
        guard let s = v.stringValue else { throw .invalidArguments("\"\(key)\" must be a string") }
        return s
    }

    func optionalString(_ key: String) throws(ContractError) -> String? {
        guard present(key) != nil else { return nil }
        return try string(key)
    }

    /// A client id or another 64-hex id (allocation, transaction).
    func id(_ key: String) throws(ContractError) -> String {
        let s = try string(key)
        guard Transaction.isHexID(s) else {
            throw .invalidArguments("\"\(key)\" must be 64 lowercase hex characters, not \"\(s.prefix(80))\"")
        }
        return s
    }

    func clientID(_ key: String) throws(ContractError) -> String {
        let s = try string(key)
        guard Transaction.isHexID(s) else {
            throw .invalidArguments("\"\(key)\" must be a client id (64 lowercase hex characters), not \"\(s.prefix(80))\"")
        }
        return s
    }

    /// Absent, null or "" is nil.
    func optionalClientID(_ key: String) throws(ContractError) -> String? {
        guard let v = present(key), v != .string("") else { return nil }
        return try clientID(key)
    }

    func uint64(_ key: String) throws(ContractError) -> UInt64 {
        guard let v = try optionalUInt64(key) else { throw .invalidArguments("missing \"\(key)\"") }
        return v
    }

    func optionalUInt64(_ key: String) throws(ContractError) -> UInt64? {
        guard let v = present(key) else { return nil }
        switch v {
        case .integer(let i) where i >= 0: return UInt64(i)
        case .string(let s): if let u = UInt64(s) { return u }
        default: break
        }
        throw .invalidArguments("\"\(key)\" must be a non-negative integer")
    }

    func int64(_ key: String) throws(ContractError) -> Int64 {
        guard let v = try optionalInt64(key) else { throw .invalidArguments("missing \"\(key)\"") }
        return v
    }

    /// Absent, null or "" is nil.
    func optionalInt64(_ key: String) throws(ContractError) -> Int64? {
        guard let v = present(key), v != .string("") else { return nil }
        switch v {
        case .integer(let i): return i
        case .string(let s): if let i = Int64(s) { return i }
        default: break
        }
        throw .invalidArguments("\"\(key)\" must be an integer")
    }

    /// JSON true/false, or "true"/"false"/"1"/"0", or 1/0.
    func bool(_ key: String, default value: Bool = false) throws(ContractError) -> Bool {
        guard let v = present(key) else { return value }
        switch v {
        case .bool(let b): return b
        case .string("true"), .string("1"), .integer(1): return true
        case .string("false"), .string("0"), .integer(0): return false
        default: throw .invalidArguments("\"\(key)\" must be true or false")
        }
    }

    /// An array of strings, or (from a query string) one comma-separated string; nil when absent.
    func optionalStrings(_ key: String) throws(ContractError) -> [String]? {
        guard let v = present(key) else { return nil }
        switch v {
        case .array(let items):
            var out: [String] = []
            for item in items {
                guard let s = item.stringValue else { throw .invalidArguments("\"\(key)\" must be an array of strings") }
                out.append(s)
            }
            return out
        case .string(let s): return s.split(separator: ",").map(String.init)
        default: throw .invalidArguments("\"\(key)\" must be an array of strings")
        }
    }

    /// Decodes `key` (a JSON object) as `T` through its Codable form.
    func decode<T: Decodable>(_ key: String, as type: T.Type) throws(ContractError) -> T {
        guard let v = present(key) else { throw .invalidArguments("missing \"\(key)\"") }
        return try ContractArgs.decode(v, as: type, name: key)
    }

    /// Decodes `key` (a JSON array of objects) as `[T]`.
    func decodeArray<T: Decodable>(_ key: String, as type: T.Type) throws(ContractError) -> [T] {
        guard let v = present(key) else { throw .invalidArguments("missing \"\(key)\"") }
        guard case .array(let items) = v else { throw .invalidArguments("\"\(key)\" must be an array") }
        var out: [T] = []
        for (i, item) in items.enumerated() { out.append(try ContractArgs.decode(item, as: type, name: "\(key)[\(i)]")) }
        return out
    }

    static func decode<T: Decodable>(_ value: JSONValue, as type: T.Type, name: String) throws(ContractError) -> T {
        do {
            let data = try JSONEncoder().encode(value)
            return try JSONDecoder().decode(T.self, from: data)
        } catch let DecodingError.keyNotFound(key, _) {
            throw .invalidArguments("\"\(name)\" lacks field \"\(key.stringValue)\"")
        } catch let DecodingError.typeMismatch(_, ctx) {
            throw .invalidArguments("\"\(name)\" field \"\(ctx.codingPath.map(\.stringValue).joined(separator: "."))\" has the wrong type")
        } catch {
            throw .invalidArguments("\"\(name)\" is not a valid \(T.self)")
        }
    }
}
