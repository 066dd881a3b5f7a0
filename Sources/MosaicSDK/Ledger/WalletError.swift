import MosaicErrors
import MosaicProtocol

/// What can go wrong when a wallet sends or waits. The `send` checks run before anything is
/// broadcast; `code` matches the web app's API codes (docs/APP_API.md); a failed transaction's
/// code is its receipt's (docs/PROTOCOL.md §2.6).
public enum WalletError: CodedError, Sendable, Equatable, CustomStringConvertible {
    /// The amount text is not a token amount (the detail quotes what was typed).
    case invalidAmount(String)
    /// The recipient is not a client id (64 hex characters).
    case invalidAddress(String)
    /// A send of nothing.
    case zeroAmount
    /// Amount plus fee exceed the balance.
    case insufficientBalance(balance: UInt64, amount: UInt64, fee: UInt64)
    /// A send to the wallet itself.
    case ownWallet
    /// The transfer's note is too long.
    case invalidDescription(String)
    /// The faucet refuses this account for now; the message says when the next pour is possible.
    case faucetLimited(String, nextPourAt: Int64?)
    /// The transaction was not included in time and was dropped; it can be sent again.
    case expired(hash: String)
    /// Included in a block but execution failed; `error` is the chain's reason, code and message.
    case failed(hash: String, error: ExecutionError)
    /// The wait ended before the status was reached; `status` is where it stands now.
    case timedOut(hash: String, status: TransactionStatus)
    /// The node does not know this hash (never submitted, or lost from its pool by a restart).
    case unknownTransaction(hash: String)
    /// The node refused or could not be reached.
    case node(LedgerClientError)

    /// A stable code to branch on, the same as the web app's API codes.
    public var code: String {
        switch self {
        case .invalidAmount: return "invalid_amount"
        case .invalidAddress: return "invalid_address"
        case .zeroAmount: return "zero_amount"
        case .insufficientBalance: return "insufficient_balance"
        case .ownWallet: return "own_wallet"
        case .invalidDescription: return "invalid_description"
        case .faucetLimited: return "faucet_limited"
        case .expired: return "expired"
        case .failed(_, let error): return error.code
        case .timedOut: return "timed_out"
        case .unknownTransaction: return "unknown_transaction"
        case .node(let e): return e.code
        }
    }

    /// The message shown to the user.
    public var description: String {
        switch self {
        case .invalidAmount(let detail): return detail.hasPrefix("invalid amount") ? detail : "invalid amount: \(detail)"
        case .invalidAddress(let a):
            return "invalid address \"\(a.prefix(80))\": a client id is 64 hex characters (see 'mosaic wallet show')"
        case .zeroAmount: return "amount cannot be zero"
        case .insufficientBalance(let balance, let amount, let fee):
            return
                "amount cannot be greater than balance: sending \(TokenAmount(baseUnits: amount)) + fee \(TokenAmount(baseUnits: fee)) but the balance is \(TokenAmount(baseUnits: balance))"
        case .ownWallet: return "cannot send to own wallet"
        case .invalidDescription(let why): return "invalid description: \(why)"
        case .faucetLimited(let message, _): return message
        case .expired(let hash): return "transaction \(hash) expired: it was not included in time and was dropped; send it again"
        case .failed(let hash, let error): return "transaction \(hash) failed: \(error)"
        case .timedOut(let hash, let status): return "timed out waiting for transaction \(hash); it is still \(status.rawValue)"
        case .unknownTransaction(let hash): return "transaction \(hash) is unknown to the node"
        case .node(let e): return e.description
        }
    }
}
