/// Failures of the cryptographic primitives, with messages a user can act on.
public enum CryptoError: Error, Equatable, CustomStringConvertible {
    case invalidKeyLength(expected: Int, got: Int)
    case libraryUnavailable(String)
    case authenticationFailed
    case invalidInput(String)

    public var description: String {
        switch self {
        case .invalidKeyLength(let expected, let got): return "key must be \(expected) bytes, got \(got)"
        case .libraryUnavailable(let name): return "\(name) could not be initialised; reinstall it with scripts/setup"
        case .authenticationFailed: return "authentication failed: the data was altered or the key is wrong"
        case .invalidInput(let why): return why
        }
    }
}
