import Foundation
import MosaicErrors

/// A failed call: the server's `{"error":{code,message}}` when it sent one, so callers can show
/// the server's own message; `status` is 0 for transport failures (code `transport`/`timeout`).
package struct HTTPClientError: CodedError, Sendable, Equatable, CustomStringConvertible {
    public let status: Int
    public let code: String
    public let message: String

    public init(status: Int, code: String, message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    public var description: String { status == 0 ? "\(code): \(message)" : "HTTP \(status) \(code): \(message)" }

    /// Decodes an error body, falling back to the raw text for non-Mosaic servers.
    static func from(status: Int, body: Data) -> HTTPClientError {
        if let e = try? JSONDecoder().decode(HTTPErrorBody.self, from: body) {
            return HTTPClientError(status: status, code: e.error.code, message: e.error.message)
        }
        let text = String(decoding: body.prefix(512), as: UTF8.self)
        return HTTPClientError(status: status, code: "http_\(status)", message: text.isEmpty ? "HTTP status \(status)" : text)
    }
}
