import MosaicStorageCore

/// The outcome of an upload that reached enough blobbers.
public struct UploadResult: Sendable {
    /// The file's owner-signed metadata as committed.
    public let meta: FileMeta
    /// Blobber indices that hold the file.
    public let committed: [Int]
    /// Blobbers that missed it (index → reason), recorded for `repair`.
    public let failed: [Int: String]
    /// True when this run continued an interrupted upload of the same file.
    public let resumed: Bool
    /// True when fewer than d + 1 blobbers hold it: readable, but run `repair` soon.
    public let degraded: Bool
}
