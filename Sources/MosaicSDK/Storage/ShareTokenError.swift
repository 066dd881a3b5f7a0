import MosaicErrors

/// Why a share string cannot be used.
public enum ShareTokenError: CodedError, Equatable, Sendable, CustomStringConvertible {
    case malformed(String)
    case notForThisWallet(recipient: String)

    /// Stable code: callers decide on it, never on the message.
    public var code: String {
        switch self {
        case .malformed: return "invalid_share"
        case .notForThisWallet: return "not_for_this_wallet"
        }
    }

    public var description: String {
        switch self {
        case .malformed(let why): return why
        case .notForThisWallet(let r):
            return "this ticket was shared with \(r), not with this wallet; download with that wallet (--wallet NAME)"
        }
    }
}
