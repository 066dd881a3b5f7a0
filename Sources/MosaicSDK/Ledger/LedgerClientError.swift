import MosaicErrors
import MosaicHTTP

/// Why a call to a ledger node failed. `rejected` carries the node's own code (see
/// docs/PROTOCOL.md §2.3, e.g. `stale_nonce`, `insufficient_balance`) and message.
public enum LedgerClientError: CodedError, Sendable, Equatable, CustomStringConvertible {
    /// The node answered with an error; nothing changed on the ledger.
    case rejected(code: String, message: String, status: Int)
    /// No such transaction, block or account on this node.
    case notFound(String)
    /// The node could not be reached (not running, wrong URL, network down).
    case unreachable(url: String, reason: String)
    /// The node answered something this client cannot read (a different version?).
    case invalidResponse(String)

    /// A stable code to branch on: the node's own for `.rejected`, else `not_found`,
    /// `unreachable` or `invalid_response`.
    public var code: String {
        switch self {
        case .rejected(let code, _, _): return code
        case .notFound: return "not_found"
        case .unreachable: return "unreachable"
        case .invalidResponse: return "invalid_response"
        }
    }

    /// The message shown to the user: the node's own words, or what to check.
    public var description: String {
        switch self {
        case .rejected(_, let message, _): return message
        case .notFound(let what): return what
        case .unreachable(let url, let reason):
            return
                "cannot reach the node at \(url) (\(reason)); is it running? Start one with 'mosaic devnet' or pick another with 'mosaic network use NAME'"
        case .invalidResponse(let why): return "unexpected answer from the node: \(why)"
        }
    }

    static func from(_ e: HTTPClientError, url: String) -> LedgerClientError {
        if e.status == 0 {
            if e.code == "invalid_response" { return .invalidResponse(e.message) }
            return .unreachable(url: url, reason: e.message)
        }
        if e.code == "invalid_response" { return .invalidResponse(e.message) }
        if e.status == 404 { return .notFound(e.message) }
        return .rejected(code: e.code, message: e.message, status: e.status)
    }
}
