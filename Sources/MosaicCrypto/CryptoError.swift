import MosaicErrors

/// Failures of the cryptographic primitives, with messages a user can act on.
public enum CryptoError: CodedError, Equatable, CustomStringConvertible {
    case invalidKeyLength(expected: Int, got: Int)
    case libraryUnavailable(String)
    case authenticationFailed
    case invalidInput(String)

    /// Stable code: callers decide on it, never on the message.
    public var code: String {
        switch self {
        case .invalidKeyLength: return "invalid_key_length"
        case .libraryUnavailable: return "crypto_unavailable"
        case .authenticationFailed: return "authentication_failed"
        case .invalidInput: return "invalid_input"
        }
    }

    public var description: String {
        switch self {
        case .invalidKeyLength(let expected, let got): return "key must be \(expected) bytes, got \(got)"
        case .libraryUnavailable(let name): return "\(name) could not be initialised; reinstall it with scripts/setup"
        case .authenticationFailed: return "authentication failed: the data was altered or the key is wrong"
        case .invalidInput(let why): return why
        }
    }
}
