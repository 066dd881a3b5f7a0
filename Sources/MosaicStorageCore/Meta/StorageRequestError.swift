import MosaicErrors

/// Why a blobber refused a request, with the HTTP status it is answered with and a message that
/// says what to do. The SDK surfaces these messages unchanged (users want the real reason).
/// `code` is what clients decide on (a stale root is retried, an existing file is reported as such).
public enum StorageRequestError: CodedError, Equatable, Sendable {
    case invalid(String)
    case unauthorized(String)
    case forbidden(String)
    case notFound(String)
    case conflict(String)
    /// The path is taken (upload without replace, a move or copy onto an existing file).
    case alreadyExists(String)
    /// The write marker's previous_root is not this blobber's root: another write landed first.
    case staleRoot(String)
    /// The read marker's counter is behind this blobber's: fetch the counter and sign again.
    case staleReadCounter(String)
    /// The owner revoked the auth ticket.
    case ticketRevoked(String)
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
        case .conflict, .alreadyExists, .staleRoot, .staleReadCounter: return 409
        case .ticketRevoked: return 403
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
        case .alreadyExists: return "already_exists"
        case .staleRoot: return "stale_root"
        case .staleReadCounter: return "stale_read_counter"
        case .ticketRevoked: return "ticket_revoked"
        case .expired: return "allocation_expired"
        case .full: return "allocation_full"
        case .tooMany: return "too_many_requests"
        }
    }

    public var message: String {
        switch self {
        case .invalid(let m), .unauthorized(let m), .forbidden(let m), .notFound(let m), .conflict(let m), .expired(let m), .full(let m),
            .tooMany(let m), .alreadyExists(let m), .staleRoot(let m), .staleReadCounter(let m), .ticketRevoked(let m):
            return m
        }
    }

    public var description: String { message }
}
