import MosaicErrors
import MosaicStorageCore

/// Why a storage operation failed, each with what to do. Blobbers' own messages are kept
/// (users want the real reason, not "consensus not met").
public enum StorageClientError: CodedError, Equatable, Sendable {
    /// The allocation record does not check out (key, shards, URLs).
    case invalidAllocation(String)
    /// The allocation expired; writes are refused until it is extended.
    case expired(allocation: String, at: Int64)
    /// A blobber or the allocation has no room left; the blobber's words.
    case full(String)
    /// Fewer blobbers than needed answered or applied a write (index → reason).
    case tooFewBlobbers(needed: Int, reached: Int, failures: [Int: String])
    /// No file or folder at that path.
    case notFound(path: String)
    /// Something is already at that path.
    case alreadyExists(path: String)
    /// The path is a folder where a file is needed.
    case notAFile(path: String)
    /// A local file cannot be read or written.
    case localFile(path: String, reason: String)
    /// The local file changed while it was being sent.
    case changedDuringUpload(path: String)
    /// Not enough blobbers served good data for the file.
    case unreadable(path: String, reason: String)
    /// The path is not allowed here.
    case invalidPath(String)
    /// The file is PIN-locked; read it through `Locker`.
    case lockerFile(path: String)
    /// A blobber answered something that does not check out against the owner's signatures or the
    /// ledger (a listing that is not its signed root, a stale root, an unproven read counter):
    /// nothing is signed over it.
    case untrustedBlobber(index: Int, reason: String)
    /// The owner revoked the auth ticket this read was made with.
    case ticketRevoked(path: String)

    public var code: String {
        switch self {
        case .invalidAllocation: return "invalid_allocation"
        case .expired: return "allocation_expired"
        case .full: return "allocation_full"
        case .tooFewBlobbers: return "too_few_blobbers"
        case .notFound: return "not_found"
        case .alreadyExists: return "already_exists"
        case .notAFile: return "not_a_file"
        case .localFile: return "local_file"
        case .changedDuringUpload: return "changed_during_upload"
        case .unreadable: return "unreadable"
        case .invalidPath: return "invalid_path"
        case .lockerFile: return "locker_file"
        case .untrustedBlobber: return "untrusted_blobber"
        case .ticketRevoked: return "ticket_revoked"
        }
    }

    /// The message shown to the user, with what to do.
    public var description: String {
        switch self {
        case .invalidAllocation(let why): return "invalid allocation: \(why)"
        case .expired(let id, let at):
            return "allocation \(id) expired at \(at) (unix time); extend it with 'mosaic alloc update \(id) --extend 30d' before writing"
        case .full(let why): return "\(why)"
        case .tooFewBlobbers(let n, let r, let f):
            let reasons = f.sorted { $0.key < $1.key }.map { "blobber \($0.key): \($0.value)" }.joined(separator: "; ")
            return "only \(r) blobbers succeeded, \(n) needed; \(reasons.isEmpty ? "bring more blobbers online" : reasons)"
        case .notFound(let p): return "\(p) does not exist; list the folder with 'mosaic ls' to check the name"
        case .alreadyExists(let p): return "\(p) already exists; delete it first, or upload with --replace"
        case .notAFile(let p): return "\(p) is a folder, not a file"
        case .localFile(let p, let why): return "cannot use local file \(p): \(why)"
        case .changedDuringUpload(let p): return "\(p) changed while it was being uploaded; upload it again"
        case .unreadable(let p, let why): return "cannot read \(p) from enough blobbers: \(why); run 'mosaic repair' or try later"
        case .invalidPath(let why): return why
        case .untrustedBlobber(let i, let why):
            return "blobber \(i) answered something that does not check out: \(why); nothing was signed over it"
        case .ticketRevoked(let p): return "the owner revoked the auth ticket for \(p); ask them to share it again"
        case .lockerFile(let p):
            return "\(p) is a locker file, locked with a PIN; open it with 'mosaic locker get \(RemotePath.name(p))' or on the Locker page"
        }
    }
}
