import MosaicStorage

/// Bytes of a transfer done so far (plaintext), for progress bars.
public struct TransferProgress: Sendable, Equatable {
    public let bytes: Int64
    public let total: Int64
}

/// The outcome of an upload that reached enough blobbers.
public struct UploadResult: Sendable {
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

public struct DownloadResult: Sendable {
    public let meta: FileMeta
    public let bytesWritten: Int64
    /// Blobbers dropped during the download (index → why): down, slow or serving bad data.
    public let badBlobbers: [Int: String]
}

public struct RepairReport: Sendable {
    /// (blobber index, path) pairs whose fragment was rebuilt or whose metadata was restored.
    public var repaired: [(blobber: Int, path: String)] = []
    /// Paths removed from blobbers that kept something the others had deleted.
    public var removed: [(blobber: Int, path: String)] = []
    /// What could not be repaired now (blobber index → reason).
    public var failed: [Int: String] = [:]
}
