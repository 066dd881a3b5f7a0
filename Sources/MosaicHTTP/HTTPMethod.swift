/// The HTTP methods Mosaic's servers route on; anything else is answered with 405.
package enum HTTPMethod: String, Sendable, CaseIterable, Codable {
    case get = "GET"
    case head = "HEAD"
    case post = "POST"
    case put = "PUT"
    case patch = "PATCH"
    case delete = "DELETE"
    case options = "OPTIONS"

    /// Methods that may be retried after a connection failure without changing the outcome.
    public var isIdempotent: Bool {
        switch self {
        case .get, .head, .put, .delete, .options: return true
        case .post, .patch: return false
        }
    }
}
