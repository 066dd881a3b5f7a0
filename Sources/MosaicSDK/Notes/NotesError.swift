import MosaicErrors
import MosaicProtocol

/// Notes failures found before anything is broadcast (so no fee is spent), and reads that
/// found nothing. The chain checks the same limits again and its refusals arrive as
/// `WalletError.failed` with its message.
public enum NotesError: CodedError, Sendable, Equatable, CustomStringConvertible {
    /// A note needs a title.
    case emptyTitle
    /// The title is over `Notepad.maxTitleBytes`.
    case titleTooLong(bytes: Int)
    /// The body is over `Notepad.maxBodyBytes`.
    case bodyTooLong(bytes: Int)
    /// No note has that id.
    case noteNotFound(UInt64)
    /// A private note could not be opened with this wallet's key (another owner's, or altered).
    case cannotDecrypt(UInt64)
    /// The owner is not a client id.
    case invalidOwner(String)
    /// The view answer was not what the notes contract returns.
    case invalidResponse(String)
    /// Sending, waiting or reading failed: the node's refusal, or the chain's error for a call
    /// that failed in execution (`WalletError.failed`), expiry, timeout, unknown transaction.
    case wallet(WalletError)

    /// A stable code for `--json` output and the web API.
    public var code: String {
        switch self {
        case .emptyTitle: return "empty_title"
        case .titleTooLong: return "title_too_long"
        case .bodyTooLong: return "body_too_long"
        case .noteNotFound: return "note_not_found"
        case .cannotDecrypt: return "cannot_decrypt"
        case .invalidOwner: return "invalid_owner"
        case .invalidResponse: return "invalid_response"
        case .wallet(let e): return e.code
        }
    }

    /// The message shown to the user.
    public var description: String {
        switch self {
        case .emptyTitle: return "title is empty; give a title of 1 to \(Notepad.maxTitleBytes) bytes"
        case .titleTooLong(let n): return "title is \(n) bytes; at most \(Notepad.maxTitleBytes) bytes (UTF-8) allowed"
        case .bodyTooLong(let n): return "body is \(n) bytes; at most \(Notepad.maxBodyBytes) bytes (16 KiB, UTF-8) allowed"
        case .noteNotFound(let id): return "note \(id) does not exist (deleted, or never created)"
        case .cannotDecrypt(let id): return "note \(id) is private and this wallet cannot decrypt it"
        case .invalidOwner(let s): return "invalid owner \"\(s.prefix(80))\": a client id is 64 hex characters"
        case .invalidResponse(let why): return "unexpected answer from the notes contract: \(why)"
        case .wallet(let e): return e.description
        }
    }
}
