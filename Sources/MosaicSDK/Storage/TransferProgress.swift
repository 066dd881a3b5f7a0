import MosaicStorageCore

/// Bytes of a transfer done so far (plaintext), for progress bars.
public struct TransferProgress: Sendable, Equatable {
    /// Bytes done.
    public let bytes: Int64
    /// Bytes of the whole transfer.
    public let total: Int64
}
