import Foundation
import MosaicErrors
import MosaicHTTP

/// An error a handler throws to answer with a given status; always sent as
/// `{"error":{"code":"...","message":"..."}}` so every client can show the message.
package struct HTTPError: CodedError, Sendable, Equatable, CustomStringConvertible {
    public let status: Int
    public let code: String
    public let message: String
    /// Extra response headers (e.g. `Allow` on 405, `Retry-After` on 429).
    public var headers: [String: String]

    public init(status: Int, code: String, message: String, headers: [String: String] = [:]) {
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
    }

    public var description: String { "\(status) \(code): \(message)" }

    public static func badRequest(_ message: String, code: String = "bad_request") -> HTTPError {
        .init(status: 400, code: code, message: message)
    }
    public static func unauthorized(_ message: String, code: String = "unauthorized") -> HTTPError {
        .init(status: 401, code: code, message: message)
    }
    public static func forbidden(_ message: String, code: String = "forbidden") -> HTTPError {
        .init(status: 403, code: code, message: message)
    }
    public static func notFound(_ message: String = "not found", code: String = "not_found") -> HTTPError {
        .init(status: 404, code: code, message: message)
    }
    public static func methodNotAllowed(allowed: [HTTPMethod]) -> HTTPError {
        let allow = allowed.map(\.rawValue).joined(separator: ", ")
        return .init(status: 405, code: "method_not_allowed", message: "method not allowed; allowed: \(allow)", headers: ["Allow": allow])
    }
    public static func conflict(_ message: String, code: String = "conflict") -> HTTPError {
        .init(status: 409, code: code, message: message)
    }
    public static func payloadTooLarge(limit: Int64) -> HTTPError {
        .init(status: 413, code: "payload_too_large", message: "request body exceeds the limit of \(limit) bytes")
    }
    public static func unprocessable(_ message: String, code: String = "unprocessable") -> HTTPError {
        .init(status: 422, code: code, message: message)
    }
    public static func tooManyRequests(_ message: String = "too many requests", retryAfterSeconds: Int? = nil) -> HTTPError {
        .init(
            status: 429, code: "too_many_requests", message: message, headers: retryAfterSeconds.map { ["Retry-After": String($0)] } ?? [:])
    }
    public static func internalError(_ message: String = "internal error") -> HTTPError {
        .init(status: 500, code: "internal_error", message: message)
    }
    public static func unavailable(_ message: String = "service unavailable") -> HTTPError {
        .init(status: 503, code: "unavailable", message: message)
    }
    /// The request body ended before its declared Content-Length (or chunk terminator).
    public static let bodyTruncated = HTTPError(status: 400, code: "body_truncated", message: "body truncated")

    /// The wire form shared by server and client.
    typealias Body = HTTPErrorBody

    /// The JSON response for this error.
    public var response: HTTPResponse {
        let data = (try? JSONEncoder.mosaic.encode(Body(error: .init(code: code, message: message)))) ?? Data()
        var r = HTTPResponse(status: status, body: data, contentType: "application/json")
        for (k, v) in headers.sorted(by: { $0.key < $1.key }) { r.headers[k] = v }
        return r
    }
}
