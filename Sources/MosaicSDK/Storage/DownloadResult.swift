import MosaicStorageCore

/// The outcome of a download.
public struct DownloadResult: Sendable {
    /// The file's owner-signed metadata.
    public let meta: FileMeta
    /// Plaintext bytes written to the destination.
    public let bytesWritten: Int64
    /// Blobbers dropped during the download (index → why): down, slow or serving bad data.
    public let badBlobbers: [Int: String]
}
