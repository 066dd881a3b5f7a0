import MosaicErrors

/// Why a file cannot be shared, checked the same way for every client before a ticket is signed.
public enum ShareError: CodedError, Equatable, Sendable, CustomStringConvertible {
    /// The recipient is not a client id (64 hex characters).
    case invalidRecipient(String)
    /// The recipient never signed a transaction, so its public key (to seal the file's key to) is unknown.
    case unknownRecipient(String)
    /// The path is a folder: each file has its own key, so files are shared one at a time.
    case notAFile(path: String)
    /// The file is PIN-locked: its key opens only with its PIN and the owner's wallet.
    case lockerFile(path: String)
    /// This wallet cannot open the file's content key (it is not the owner's file).
    case notOwner(path: String)

    /// Stable code: callers decide on it, never on the message.
    public var code: String {
        switch self {
        case .invalidRecipient: return "invalid_address"
        case .unknownRecipient: return "unknown_key"
        case .notAFile: return "not_a_file"
        case .lockerFile: return "locker_file"
        case .notOwner: return "not_owner"
        }
    }

    /// The message shown to the user.
    public var description: String {
        switch self {
        case .invalidRecipient(let id): return "invalid address \(id.prefix(80)): a client id is 64 hex characters"
        case .unknownRecipient(let id):
            return
                "wallet \(id) has never sent a transaction, so its public key is unknown; ask its owner to get tokens from the faucet (or send anything) once"
        case .notAFile(let p): return "\(p) is a folder; share its files one at a time (each file has its own key)"
        case .lockerFile(let p): return "\(p) is a locker file; it cannot be shared (its key opens only with its PIN and this wallet)"
        case .notOwner(let p): return "cannot open the content key of \(p) with this wallet"
        }
    }
}
