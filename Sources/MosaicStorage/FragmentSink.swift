/// Where one fragment stream goes during an upload: in production an HTTP stream to blobber i,
/// in tests an array or a `FragmentStore` writer.
///
/// Writes come in order with their stream offset, so a sink resuming an interrupted upload can
/// skip ranges it already holds. `finish` hands over the length and Merkle root the blobber must
/// verify before anything becomes visible. A sink that throws is dropped for the rest of the file
/// (the upload goes on while enough others succeed).
public protocol FragmentSink: Sendable {
    func write(_ bytes: [UInt8], at offset: Int64) async throws
    func finish(length: Int64, root: [UInt8]) async throws
}
