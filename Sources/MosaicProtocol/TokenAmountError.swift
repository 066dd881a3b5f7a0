import MosaicErrors

/// Why a token string was not accepted; the messages quote what the user typed.
public enum TokenAmountError: CodedError, Sendable, Equatable, CustomStringConvertible {
    case invalid(String)
    case negative(String)
    case tooManyDecimals(String)
    case overflow(String)

    /// Stable code: callers decide on it, never on the message.
    public var code: String {
        switch self {
        case .invalid, .negative, .tooManyDecimals, .overflow: return "invalid_amount"
        }
    }

    public var description: String {
        switch self {
        case .invalid(let s): return "invalid amount \"\(s)\": use digits with at most one decimal point, e.g. 1.5"
        case .negative(let s): return "invalid amount \"\(s)\": amounts cannot be negative"
        case .tooManyDecimals(let s): return "invalid amount \"\(s)\": at most \(TokenAmount.decimals) decimal places"
        case .overflow(let s): return "invalid amount \"\(s)\": larger than the maximum \(TokenAmount(baseUnits: .max))"
        }
    }
}
