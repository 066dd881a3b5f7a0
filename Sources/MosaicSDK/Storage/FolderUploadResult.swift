import MosaicStorageCore

/// The outcome of a folder upload or sync: what it planned, what it did, and every file that
/// failed (the others went on).
public struct FolderUploadResult: Sendable {
    /// The plan it ran (or, with a dry run, would run).
    public let plan: FolderPlan
    /// Files sent in this run (relative paths).
    public let uploaded: [String]
    /// Remote folders created.
    public let createdFolders: [String]
    /// Remote paths deleted.
    public let deleted: [String]
    /// Files or folders that failed, with why and what to do (plan conflicts included).
    public let failed: [FolderIssue]
    /// Files that changed while they were being sent, twice in a row: not committed, named here.
    public let changedDuringUpload: [String]
    /// Local entries left out (symbolic links, special files).
    public let skipped: [FolderIssue]
    /// Files sent on fewer than d + 1 blobbers (readable; run `repair`).
    public let degraded: [String]
    /// Plaintext bytes sent.
    public let bytesSent: Int64
    /// Commits made on the blobbers, each one write marker per blobber (0: nothing was
    /// written). A batch of small files is one commit.
    public let writes: Int
    /// True when nothing was written because the run was a dry run.
    public let dryRun: Bool
}
