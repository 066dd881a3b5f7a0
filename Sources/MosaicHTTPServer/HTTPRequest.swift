import Foundation
import MosaicHTTP

/// One parsed request as a handler sees it. On streaming routes `body` is empty and the
/// bytes arrive through the route's `RequestBodyStream` instead.
package struct HTTPRequest: Sendable {
    public let method: HTTPMethod
    /// The decoded path without the query string, e.g. `/v1/transactions/ab12`.
    public let path: String
    /// Values of `:name` segments in the route pattern.
    public let params: [String: String]
    public let query: [String: String]
    public let headers: HTTPHeaders
    public let body: Data
    /// The route's declared parameters, checked by the server before the handler ran.
    public let values: [String: ParameterValue]
    /// The peer's IP address as text ("127.0.0.1", "::1"); empty when unknown. For limits per
    /// source (the node's free transactions), never for authentication.
    public let remoteAddress: String

    public init(
        method: HTTPMethod, path: String, params: [String: String] = [:], query: [String: String] = [:],
        headers: HTTPHeaders = HTTPHeaders(), body: Data = Data(), values: [String: ParameterValue] = [:],
        remoteAddress: String = ""
    ) {
        self.method = method
        self.path = path
        self.params = params
        self.query = query
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
        self.values = values
    }

    static func key(_ spec: ParameterSpec) -> String { "\(spec.location.rawValue):\(spec.name.lowercased())" }

    /// The unchecked text of a parameter.
    func raw(_ spec: ParameterSpec) -> String? {
        switch spec.location {
        case .path: return params[spec.name]
        case .query: return query[spec.name]
        case .header: return headers[spec.name]
        }
    }

    /// The checked value of a declared parameter. A parameter the route did not declare is
    /// checked here the same way, so a handler never sees an unchecked value.
    public subscript<V>(_ p: Parameter<V>) -> V {
        get throws {
            let spec = p.spec
            let value: ParameterValue?
            if let v = values[Self.key(spec)] {
                value = v
            } else {
                value = try spec.check(raw(spec))
            }
            guard let out = p.convert(value) else {
                throw HTTPError.badRequest(
                    "\(spec.location.rawValue) parameter '\(spec.name)' is required: send \(spec.type.expectation)",
                    code: "invalid_parameter")
            }
            return out
        }
    }

    /// Cookies from the `Cookie` header(s).
    public var cookies: [String: String] {
        var out: [String: String] = [:]
        for line in headers.values("Cookie") {
            for pair in line.split(separator: ";") {
                let kv = pair.split(separator: "=", maxSplits: 1)
                guard let k = kv.first?.trimmingCharacters(in: .whitespaces), !k.isEmpty else { continue }
                out[k] = kv.count > 1 ? kv[1].trimmingCharacters(in: .whitespaces) : ""
            }
        }
        return out
    }

    /// A required path parameter; a missing one is a routing bug, reported as 400 rather than a crash.
    public func param(_ name: String) throws -> String {
        guard let v = params[name] else { throw HTTPError.badRequest("missing path parameter '\(name)'") }
        return v
    }

    /// Decodes the JSON body; malformed input becomes a 400 whose message names the problem.
    public func decodeJSON<T: Decodable>(_ type: T.Type = T.self, decoder: JSONDecoder = JSONDecoder()) throws -> T {
        if body.isEmpty { throw HTTPError.badRequest("request body is empty; expected JSON", code: "invalid_json") }
        do {
            return try decoder.decode(T.self, from: body)
        } catch let e as DecodingError {
            throw HTTPError.badRequest(e.fieldMessage, code: "invalid_json")
        } catch {
            throw HTTPError.badRequest("malformed JSON", code: "invalid_json")
        }
    }
}
