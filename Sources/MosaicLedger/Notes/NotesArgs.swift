import MosaicProtocol

/// Typed access to a notes call's or view's arguments. Numbers may come as JSON integers or as
/// decimal strings (the node's GET form passes every query value as a string).
struct NotesArgs {
    let values: [String: JSONValue]

    init(_ values: [String: JSONValue]) { self.values = values }

    func string(_ key: String) throws(ContractError) -> String {
        guard let v = values[key], v != .null else { throw .invalidArguments("missing \"\(key)\"") }
        guard let s = v.stringValue else { throw .invalidArguments("\"\(key)\" must be a string") }
        return s
    }

    func optionalString(_ key: String) throws(ContractError) -> String? {
        guard let v = values[key], v != .null else { return nil }
        return try string(key)
    }

    /// A client id: 64 lowercase hex characters.
    func clientID(_ key: String) throws(ContractError) -> String {
        let s = try string(key)
        guard Transaction.isHexID(s) else { throw .invalidArguments("\"\(key)\" must be a client id (64 lowercase hex characters)") }
        return s
    }

    func optionalUInt64(_ key: String) throws(ContractError) -> UInt64? {
        guard let v = values[key], v != .null else { return nil }
        switch v {
        case .integer(let i) where i >= 0: return UInt64(i)
        case .string(let s): if let u = UInt64(s) { return u }
        default: break
        }
        throw .invalidArguments("\"\(key)\" must be a non-negative integer")
    }

    func uint64(_ key: String) throws(ContractError) -> UInt64 {
        guard let v = try optionalUInt64(key) else { throw .invalidArguments("missing \"\(key)\"") }
        return v
    }

    /// A boolean: JSON true/false, or "true"/"false"/"1"/"0" as a string.
    func bool(_ key: String, default value: Bool = false) throws(ContractError) -> Bool {
        guard let v = values[key], v != .null else { return value }
        switch v {
        case .bool(let b): return b
        case .string("true"), .string("1"): return true
        case .string("false"), .string("0"): return false
        case .integer(1): return true
        case .integer(0): return false
        default: throw .invalidArguments("\"\(key)\" must be true or false")
        }
    }
}
