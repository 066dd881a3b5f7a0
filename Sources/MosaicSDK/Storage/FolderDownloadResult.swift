/// The outcome of a folder download: files fetched, files already complete locally, and every
/// file that failed (the others went on).
public struct FolderDownloadResult: Sendable {
    /// Files fetched (relative paths).
    public let downloaded: [String]
    /// Files already complete locally (same size and mtime, or same content), not fetched again.
    public let unchanged: [String]
    /// Local folders created.
    public let createdFolders: [String]
    /// Files that failed, with why and what to do.
    public let failed: [FolderIssue]
    /// Plaintext bytes written.
    public let bytesWritten: Int64
}
