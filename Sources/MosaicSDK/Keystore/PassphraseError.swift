import MosaicErrors

/// Why no passphrase could be obtained, with the ways to provide one.
public enum PassphraseError: CodedError, Equatable, Sendable, CustomStringConvertible {
    case environmentNotSet(variable: String)
    case fileUnreadable(path: String, reason: String)
    case empty(source: String)
    case notATerminal
    case mismatch
    case terminal(reason: String)

    /// Stable code: callers decide on it, never on the message.
    public var code: String {
        switch self {
        case .environmentNotSet: return "passphrase_not_set"
        case .fileUnreadable: return "passphrase_file_unreadable"
        case .empty: return "empty_passphrase"
        case .notATerminal: return "not_a_terminal"
        case .mismatch: return "passphrase_mismatch"
        case .terminal: return "terminal"
        }
    }

    /// The message shown to the user, naming the ways to give a passphrase.
    public var description: String {
        switch self {
        case .environmentNotSet(let variable):
            return "\(variable) is not set; set it, pass --passphrase-file FILE, or run in a terminal to be asked"
        case .fileUnreadable(let path, let reason):
            return "could not read the passphrase file \(path): \(reason)"
        case .empty(let source):
            return "the passphrase from \(source) is empty; a wallet passphrase must not be empty"
        case .notATerminal:
            return
                "a passphrase is needed but stdin is not a terminal, so it cannot be asked for; set MOSAIC_PASSPHRASE or pass --passphrase-file FILE"
        case .mismatch:
            return "the two passphrases differ; run the command again"
        case .terminal(let reason):
            return "could not read the passphrase from the terminal: \(reason)"
        }
    }
}
