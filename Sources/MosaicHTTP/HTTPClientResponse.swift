import Foundation

/// A response as the client received it.
package struct HTTPClientResponse: Sendable {
    public let status: Int
    public let headers: HTTPHeaders
    public let body: Data

    /// Decodes the JSON body; a mismatch is reported as code `invalid_response`.
    public func decode<T: Decodable>(_ type: T.Type = T.self, decoder: JSONDecoder = JSONDecoder()) throws -> T {
        do {
            return try decoder.decode(T.self, from: body)
        } catch let e as DecodingError {
            throw HTTPClientError(status: status, code: "invalid_response", message: e.fieldMessage)
        }
    }
}
