import Foundation

/// The wire form of an error answer, `{"error":{"code":"...","message":"..."}}`: the server
/// writes it and the client reads it, so it lives here, below both.
package struct HTTPErrorBody: Codable, Sendable {
    package struct Detail: Codable, Sendable {
        package var code: String
        package var message: String

        package init(code: String, message: String) {
            self.code = code
            self.message = message
        }
    }

    package var error: Detail

    package init(error: Detail) { self.error = error }
}

extension JSONEncoder {
    /// Sorted keys so requests and responses are byte-for-byte reproducible.
    package static var mosaic: JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }
}

extension DecodingError {
    /// Which field failed and how, without Swift's type dumps: the message both a server (bad
    /// request body) and a client (bad response body) report.
    package var fieldMessage: String {
        func path(_ p: [CodingKey]) -> String {
            p.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().drop { $0 == "." }.description
        }
        switch self {
        case .keyNotFound(let key, let ctx):
            return "missing field '\(path(ctx.codingPath + [key]))'"
        case .typeMismatch(let type, let ctx):
            return "field '\(path(ctx.codingPath))' has the wrong type (expected \(type))"
        case .valueNotFound(let type, let ctx):
            return "field '\(path(ctx.codingPath))' is null (expected \(type))"
        case .dataCorrupted(let ctx):
            if ctx.codingPath.isEmpty { return "malformed JSON" }
            return "invalid value for field '\(path(ctx.codingPath))': \(ctx.debugDescription)"
        @unknown default:
            return "malformed JSON"
        }
    }
}
