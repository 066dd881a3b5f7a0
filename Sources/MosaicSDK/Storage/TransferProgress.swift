import MosaicStorageCore

/// Bytes of a transfer done so far (plaintext), for progress bars.
public struct TransferProgress: Sendable, Equatable {
    public let bytes: Int64
    public let total: Int64
}
