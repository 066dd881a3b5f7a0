import MosaicStorageCore

/// The outcome of a download.
public struct DownloadResult: Sendable {
    public let meta: FileMeta
    public let bytesWritten: Int64
    /// Blobbers dropped during the download (index → why): down, slow or serving bad data.
    public let badBlobbers: [Int: String]
}
