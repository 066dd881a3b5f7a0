import Foundation
import MosaicCrypto
import MosaicHTTP
import MosaicProtocol
import MosaicStorage
import Synchronization

/// Sends one fragment stream of an upload to a blobber, one PUT per encoder batch, skipping what
/// the blobber already holds (resume after either side was interrupted).
final class BlobberUploadSink: FragmentSink, @unchecked Sendable {
    // @unchecked: `received` and `finished` are guarded by `lock`; the encoder calls a sink in order.
    let connection: BlobberConnection
    let upload: String
    private let lock = NSLock()
    private var received: Int64?
    private(set) var finished: (length: Int64, root: [UInt8])?

    init(connection: BlobberConnection, upload: String) {
        self.connection = connection
        self.upload = upload
    }

    /// Bytes the blobber holds of this upload: asked once (a resumed upload starts there), then
    /// what the last PUT answered.
    private func alreadyReceived() async throws -> Int64 {
        if let have = lock.withLock({ received }) { return have }
        let have = try await connection.uploadStatus(upload)
        lock.withLock { received = have }
        return have
    }

    /// Bytes of this upload the blobber already holds (asked once, like every write does first).
    func held() async throws -> Int64 { try await alreadyReceived() }

    func write(_ bytes: [UInt8], at offset: Int64) async throws {
        let already = try await alreadyReceived()
        if offset + Int64(bytes.count) <= already { return }
        let skip = Int(max(0, already - offset))
        let now = try await connection.put(upload, offset: offset + Int64(skip), bytes: Array(bytes[skip...]))
        lock.withLock { received = now }
    }

    /// The upload path: no copy of the fragment bytes on the client (they go from the encoder's
    /// buffer to the socket).
    func write(fragment bytes: FragmentBytes, at offset: Int64) async throws {
        let already = try await alreadyReceived()
        if offset + Int64(bytes.count) <= already { return }
        let skip = Int(max(0, already - offset))
        let now = try await connection.put(upload, offset: offset + Int64(skip), fragment: bytes.dropFirst(skip))
        lock.withLock { received = now }
    }

    func finish(length: Int64, root: [UInt8]) async throws {
        if length == 0 { return lock.withLock { finished = (length, root) } }
        let have = try await connection.uploadStatus(upload)
        guard have == length else {
            throw StorageClientError.unreadable(path: upload, reason: "blobber \(connection.index) holds \(have) of \(length) bytes")
        }
        lock.withLock { finished = (length, root) }
    }
}
