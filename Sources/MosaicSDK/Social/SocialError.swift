import MosaicErrors
import MosaicProtocol

/// What can go wrong with a social operation or read. `invalid` is raised before anything is
/// signed; `refused` carries the chain's own reason (a rule or an authorization link, e.g.
/// "grant lacks scope vote"), ready to show as is.
public enum SocialError: CodedError, Sendable, Equatable, CustomStringConvertible {
    /// Bad input caught before signing (permlink shape, weight range, …).
    case invalid(String)
    /// The operation was included but the social contract refused it: the receipt's code and message.
    case refused(hash: String, error: ExecutionError)
    /// A write was asked of a read-only client (made without a wallet).
    case noWallet
    /// Signing, submitting or waiting failed (expired, timed out, node refused the transaction…).
    case wallet(WalletError)
    /// A read failed: node unreachable, or it refused the view's arguments.
    case node(LedgerClientError)

    /// A stable code for `--json` output and the web API.
    public var code: String {
        switch self {
        case .invalid: return "invalid"
        case .refused(_, let error): return error.code
        case .noWallet: return "no_wallet"
        case .wallet(let e): return e.code
        case .node(let e): return e.code
        }
    }

    /// The message shown to the user.
    public var description: String {
        switch self {
        case .invalid(let m): return m
        case .refused(_, let error): return error.message
        case .noWallet: return "this social client has no wallet; create it with SocialClient(wallet:) to post, vote or grant"
        case .wallet(let e): return e.description
        case .node(let e): return e.description
        }
    }
}
