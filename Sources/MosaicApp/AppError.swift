import MosaicErrors

/// Failures of the app process itself (not of a request).
enum AppError: CodedError, CustomStringConvertible {
    case startup(String)

    /// Stable code: callers decide on it, never on the message.
    var code: String {
        switch self {
        case .startup: return "startup"
        }
    }

    var description: String {
        switch self {
        case .startup(let m): return m
        }
    }
}
