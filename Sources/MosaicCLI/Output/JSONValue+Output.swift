import MosaicProtocol

extension JSONValue {
    /// What `--json` prints for a type the protocol or the SDK already encodes: its own Codable
    /// form (the API's keys, every field, a nil one as null), with the command's own fields
    /// around it: `before` first, `after` last. A key of the type that `after` names again keeps
    /// its place and takes the new value.
    /// - Throws: `EncodingError` from the type, or when `before`/`after` are given for a type
    ///   that does not encode as an object.
    static func output(_ value: some Encodable, before: JSONObject = [:], after: JSONObject = [:]) throws -> JSONValue {
        let encoded = try JSONValue(encoding: value, nilAsNull: true)
        if before.isEmpty && after.isEmpty { return encoded }
        guard case .object(let fields) = encoded else {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: [], debugDescription: "only an object takes fields around it"))
        }
        var out = before
        for (key, v) in fields { out[key] = v }
        for (key, v) in after { out[key] = v }
        return .object(out)
    }
}
