import MosaicErrors

/// Why a share string cannot be used.
public enum ShareTokenError: CodedError, Equatable, Sendable, CustomStringConvertible {
    /// The text is not a share string, or it is damaged; the detail says which.
    case malformed(String)
    /// The key is sealed to another wallet.
    case notForThisWallet(recipient: String)

    /// Stable code: callers decide on it, never on the message.
    public var code: String {
        switch self {
        case .malformed: return "invalid_share"
        case .notForThisWallet: return "not_for_this_wallet"
        }
    }

    /// The message shown to the user.
    public var description: String {
        switch self {
        case .malformed(let why): return why
        case .notForThisWallet(let r):
            return "this ticket was shared with \(r), not with this wallet; download with that wallet (--wallet NAME)"
        }
    }
}
