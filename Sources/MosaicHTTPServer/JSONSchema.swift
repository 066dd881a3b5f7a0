import Foundation
import MosaicHTTP

/// The JSON Schema of a request body as `/openapi.json` publishes it: fields, types, bounds and
/// which are required, so a client (or a fuzzer) knows what to send. Handlers still decode and
/// check the body themselves; the schema states what they accept.
package indirect enum JSONSchema: Sendable {
    case string(maxLength: Int? = nil, pattern: String? = nil, choices: [String]? = nil)
    case integer(ClosedRange<Int64>)
    /// An unsigned 64-bit amount (base units), which JSON carries as a number up to 2^64 − 1.
    case unsigned
    case number
    case boolean
    case array(JSONSchema, maxItems: Int? = nil)
    /// Fields in declaration order, with the required ones named.
    case object([(String, JSONSchema)], required: [String], additional: Bool = false)
    /// Any JSON value (e.g. a contract's free-form arguments).
    case any
    /// The first or the second form.
    case either(JSONSchema, JSONSchema)
    /// A schema with a description attached.
    case described(JSONSchema, String)

    /// 64 lowercase hex characters.
    public static let hex64 = JSONSchema.string(maxLength: 64, pattern: "^[0-9a-f]{64}$")

    /// Shorthand for an object whose fields are all required.
    public static func object(_ fields: [(String, JSONSchema)]) -> JSONSchema {
        .object(fields, required: fields.map(\.0))
    }

    var openAPI: [String: Any] {
        switch self {
        case .string(let maxLength, let pattern, let choices):
            var s: [String: Any] = ["type": "string"]
            if let maxLength { s["maxLength"] = maxLength }
            if let pattern { s["pattern"] = pattern }
            if let choices { s["enum"] = choices }
            return s
        case .integer(let r): return ["type": "integer", "format": "int64", "minimum": r.lowerBound, "maximum": r.upperBound]
        case .unsigned: return ["type": "integer", "minimum": 0, "maximum": UInt64.max]
        case .number: return ["type": "number"]
        case .boolean: return ["type": "boolean"]
        case .array(let items, let maxItems):
            var s: [String: Any] = ["type": "array", "items": items.openAPI]
            if let maxItems { s["maxItems"] = maxItems }
            return s
        case .object(let fields, let required, let additional):
            var props: [String: Any] = [:]
            for (name, schema) in fields { props[name] = schema.openAPI }
            var s: [String: Any] = ["type": "object", "properties": props, "additionalProperties": additional]
            if !required.isEmpty { s["required"] = required }
            return s
        case .any: return [:]
        case .either(let a, let b): return ["anyOf": [a.openAPI, b.openAPI]]
        case .described(let s, let text):
            var out = s.openAPI
            out["description"] = text
            return out
        }
    }
}

/// A request body: its schema per content type, and whether it may be left out.
package struct RequestBody: Sendable {
    public var content: [(String, JSONSchema)]
    public var required: Bool
    public var description: String?

    public init(content: [(String, JSONSchema)], required: Bool = true, description: String? = nil) {
        self.content = content
        self.required = required
        self.description = description
    }

    /// A JSON body of the given schema.
    public static func json(_ schema: JSONSchema, required: Bool = true, description: String? = nil) -> RequestBody {
        RequestBody(content: [("application/json", schema)], required: required, description: description)
    }

    /// Raw bytes (uploads, binary batches).
    public static func binary(_ contentType: String = "application/octet-stream", description: String? = nil) -> RequestBody {
        RequestBody(content: [(contentType, .string())], required: true, description: description)
    }

    var openAPI: [String: Any] {
        var content: [String: Any] = [:]
        for (type, schema) in self.content {
            var s = schema.openAPI
            if type != "application/json" && s["type"] as? String == "string" { s["format"] = "binary" }
            content[type] = ["schema": s]
        }
        var out: [String: Any] = ["required": required, "content": content]
        if let description { out["description"] = description }
        return out
    }
}
