/// Why a blobber refused a request, with the HTTP status it is answered with and a message that
/// says what to do. The SDK surfaces these messages unchanged (users want the real reason).
public enum StorageRequestError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalid(String)
    case unauthorized(String)
    case forbidden(String)
    case notFound(String)
    case conflict(String)
    case expired(String)
    case full(String)
    /// A bounded resource of the blobber is used up for now (nonces in the replay window, open
    /// uploads, upload file handles): retry later, or commit or drop uploads first.
    case tooMany(String)

    public var status: Int {
        switch self {
        case .invalid: return 400
        case .unauthorized: return 401
        case .forbidden: return 403
        case .notFound: return 404
        case .conflict: return 409
        case .expired: return 410
        case .full: return 507
        case .tooMany: return 429
        }
    }

    public var code: String {
        switch self {
        case .invalid: return "invalid_request"
        case .unauthorized: return "unauthorized"
        case .forbidden: return "forbidden"
        case .notFound: return "not_found"
        case .conflict: return "conflict"
        case .expired: return "allocation_expired"
        case .full: return "allocation_full"
        case .tooMany: return "too_many_requests"
        }
    }

    public var message: String {
        switch self {
        case .invalid(let m), .unauthorized(let m), .forbidden(let m), .notFound(let m), .conflict(let m), .expired(let m), .full(let m),
            .tooMany(let m):
            return m
        }
    }

    public var description: String { message }
}
