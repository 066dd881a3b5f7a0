import Foundation
import MosaicProtocol

/// Typed access to a storage call's arguments; every failure names the argument.
struct StorageArgs {
    let values: [String: JSONValue]

    init(_ values: [String: JSONValue]) { self.values = values }

    func string(_ key: String) throws(ContractError) -> String {
        guard let v = values[key] else { throw .invalidArguments("missing \"\(key)\"") }
        guard let s = v.stringValue else { throw .invalidArguments("\"\(key)\" must be a string") }
        return s
    }

    func optionalString(_ key: String) throws(ContractError) -> String? {
        guard let v = values[key], v != .null else { return nil }
        return try string(key)
    }

    func id(_ key: String) throws(ContractError) -> String {
        let s = try string(key)
        guard Transaction.isHexID(s) else { throw .invalidArguments("\"\(key)\" must be 64 lowercase hex characters") }
        return s
    }

    /// A non-negative integer, as a JSON integer or a decimal string (for values above 2^63).
    func uint64(_ key: String) throws(ContractError) -> UInt64 {
        guard let v = values[key] else { throw .invalidArguments("missing \"\(key)\"") }
        switch v {
        case .integer(let i) where i >= 0: return UInt64(i)
        case .string(let s): if let u = UInt64(s) { return u }
        default: break
        }
        throw .invalidArguments("\"\(key)\" must be a non-negative integer")
    }

    func optionalUInt64(_ key: String) throws(ContractError) -> UInt64? {
        guard let v = values[key], v != .null else { return nil }
        return try uint64(key)
    }

    func int64(_ key: String) throws(ContractError) -> Int64 {
        guard let v = values[key] else { throw .invalidArguments("missing \"\(key)\"") }
        guard let i = v.integerValue else { throw .invalidArguments("\"\(key)\" must be an integer") }
        return i
    }

    func optionalStringArray(_ key: String) throws(ContractError) -> [String] {
        guard let v = values[key], v != .null else { return [] }
        guard case .array(let items) = v else { throw .invalidArguments("\"\(key)\" must be an array of strings") }
        var out: [String] = []
        for item in items {
            guard let s = item.stringValue else { throw .invalidArguments("\"\(key)\" must be an array of strings") }
            out.append(s)
        }
        return out
    }

    /// Decodes `key` (a JSON object) as `T` through its Codable form.
    func decode<T: Decodable>(_ key: String, as type: T.Type) throws(ContractError) -> T {
        guard let v = values[key] else { throw .invalidArguments("missing \"\(key)\"") }
        return try StorageArgs.decode(v, as: type, name: key)
    }

    /// Decodes `key` (a JSON array of objects) as `[T]`.
    func decodeArray<T: Decodable>(_ key: String, as type: T.Type) throws(ContractError) -> [T] {
        guard let v = values[key] else { throw .invalidArguments("missing \"\(key)\"") }
        guard case .array(let items) = v else { throw .invalidArguments("\"\(key)\" must be an array") }
        var out: [T] = []
        for (i, item) in items.enumerated() { out.append(try StorageArgs.decode(item, as: type, name: "\(key)[\(i)]")) }
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
