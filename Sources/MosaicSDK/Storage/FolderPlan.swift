import MosaicStorageCore

/// What a folder upload or sync will do, decided before anything is written (and all that
/// `--dry-run` does): files to send (new, or changed by size, mtime and then content hash),
/// empty folders to create, remote entries to delete, files already up to date, and conflicts
/// it will not resolve by itself.
public struct FolderPlan: Sendable {
    /// Why a file is sent.
    public enum Reason: String, Sendable {
        /// Not on the remote side.
        case new
        /// On the remote side with other content.
        case changed
    }

    /// One file to send.
    public struct Upload: Sendable {
        /// The local file.
        public let file: LocalTree.File
        /// Where it goes.
        public let remotePath: String
        /// New or changed.
        public let reason: Reason
    }

    /// Files to send, in path order.
    public internal(set) var uploads: [Upload] = []
    /// Remote folders to create (local folders with no file below them).
    public internal(set) var folders: [String] = []
    /// Remote files and folders to delete (sync `--delete`: gone locally), topmost only.
    public internal(set) var deletes: [String] = []
    /// Files already up to date (relative paths).
    public internal(set) var unchanged: [String] = []
    /// Of `unchanged`, the ones an interrupted earlier run recorded as finished.
    public internal(set) var resumed = 0
    /// Files that will not be sent, with why and what to do (e.g. exists with other content and
    /// no `replace`; a folder on one side and a file on the other).
    public internal(set) var conflicts: [FolderIssue] = []

    /// Plaintext bytes of the files to send.
    public var bytes: Int64 { uploads.reduce(0) { $0 &+ $1.file.size } }
    /// True when running the plan writes nothing.
    public var isEmpty: Bool { uploads.isEmpty && folders.isEmpty && deletes.isEmpty }
}
