import MosaicProtocol

/// Typed access to a social call's or view's arguments; every failure names the argument.
/// Integers may come as JSON integers or as decimal strings (view query parameters are strings).
struct SocialArgs {
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
        guard Transaction.isHexID(s) else { throw .invalidArguments("\"\(key)\" must be a client id (64 lowercase hex characters), not \"\(s.prefix(80))\"") }
        return s
    }

    func optionalClientID(_ key: String) throws(ContractError) -> String? {
        guard let v = values[key], v != .null, v != .string("") else { return nil }
        return try clientID(key)
    }

    func int(_ key: String) throws(ContractError) -> Int64 {
        guard let v = values[key], v != .null else { throw .invalidArguments("missing \"\(key)\"") }
        switch v {
        case .integer(let i): return i
        case .string(let s): if let i = Int64(s) { return i }
        default: break
        }
        throw .invalidArguments("\"\(key)\" must be an integer")
    }

    func optionalInt(_ key: String) throws(ContractError) -> Int64? {
        guard let v = values[key], v != .null, v != .string("") else { return nil }
        return try int(key)
    }

    /// An array of strings, or (from a query string) one comma-separated string.
    func optionalStrings(_ key: String) throws(ContractError) -> [String]? {
        guard let v = values[key], v != .null else { return nil }
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
}
