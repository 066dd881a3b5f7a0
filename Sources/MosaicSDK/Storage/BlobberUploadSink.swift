import Foundation
import MosaicCrypto
import MosaicHTTP
import MosaicProtocol
import MosaicStorageCore
import Synchronization

/// Sends one fragment stream of an upload to a blobber, skipping what the blobber already holds
/// (resume after either side was interrupted). When the stream's length is known (`expect`), its
/// bytes go as PUTs of up to `span` bytes each, streamed batch by batch as the encoder codes them;
/// otherwise one PUT per encoder batch.
final class BlobberUploadSink: FragmentSink, @unchecked Sendable {
    // @unchecked: `received`, `expected`, `streamEnd` and `finished` are guarded by `lock`; the
    // encoder calls a sink in order, never two calls at once.
    let connection: BlobberConnection
    let upload: String
    private let lock = NSLock()
    private var received: Int64?
    private var expected: Int64?
    /// The stream offset where the streamed PUT now open ends (nil: none open).
    private var streamEnd: Int64?
    private(set) var finished: (length: Int64, root: [UInt8])?

    /// The most one streamed PUT carries (`StorageClient.Configuration.uploadRequestBytes`).
    let span: Int64

    /// `fresh`: the upload id was just drawn at random, so the blobber holds nothing of it and
    /// the first PUT need not ask (a batch of small files saves a round trip per file).
    init(connection: BlobberConnection, upload: String, fresh: Bool = false, span: Int64 = 64 << 20) {
        self.connection = connection
        self.upload = upload
        self.span = max(1, span)
        if fresh { received = 0 }
    }

    /// The upload id one blobber gets for an upload whose journal id is `base`: hex of the first
    /// 16 bytes of SHA-256("mosaic-upload-id-v1" ‖ base ‖ blobber id) (CanonicalWriter framing).
    /// Each blobber sees its own id, so an id (or a request naming it) that one blobber saw means
    /// nothing at another; the same journal gives the same ids again, so a resume finds its bytes.
    static func uploadID(_ base: String, blobber: String) -> String {
        var w = CanonicalWriter(domain: "mosaic-upload-id-v1")
        w.append(string: base)
        w.append(string: blobber)
        return Hex.encode(Array(SHA256.hash(w.bytes).prefix(16)))
    }

    /// Bytes the blobber holds of this upload: asked once (a resumed upload starts there), then
    /// what the last PUT answered.
    private func alreadyReceived() async throws -> Int64 {
        if let have = lock.withLock({ received }) { return have }
        let have = try checked(try await connection.uploadStatus(upload))
        lock.withLock { received = have }
        return have
    }

    /// A byte count the blobber reported, refused when it cannot be one.
    private func checked(_ have: Int64) throws -> Int64 {
        guard have >= 0 else {
            throw StorageClientError.untrustedBlobber(
                index: connection.index, reason: "it reports \(have) bytes received of upload \(upload)")
        }
        return have
    }

    /// Bytes of this upload the blobber already holds (asked once, like every write does first).
    func held() async throws -> Int64 { try await alreadyReceived() }

    func write(_ bytes: [UInt8], at offset: Int64) async throws {
        let already = try await alreadyReceived()
        if offset + Int64(bytes.count) <= already { return }
        let skip = Int(max(0, already - offset))
        let now = try checked(try await connection.put(upload, offset: offset + Int64(skip), bytes: Array(bytes[skip...])))
        lock.withLock { received = now }
    }

    func expect(length: Int64) {
        lock.withLock { expected = length }
    }

    /// The upload path: no copy of the fragment bytes on the client (they go from the encoder's
    /// buffer to the socket).
    func write(fragment bytes: FragmentBytes, at offset: Int64) async throws {
        let already = try await alreadyReceived()
        if offset + Int64(bytes.count) <= already { return }
        let skip = Int(max(0, already - offset))
        guard let expected = lock.withLock({ expected }), connection.streamsUploads else {
            let now = try checked(try await connection.put(upload, offset: offset + Int64(skip), fragment: bytes.dropFirst(skip)))
            return lock.withLock { received = now }
        }
        var part = bytes.dropFirst(skip)
        var at = offset + Int64(skip)
        var recovered = false
        while part.count > 0 {
            // What this step sends: after a cut connection the blobber must hold up to here.
            let stepAt = at
            let stepPart = part
            do {
                var end = lock.withLock { streamEnd }
                if end == nil {
                    let to = min(expected, at + span)
                    guard to > at else {
                        throw StorageClientError.unreadable(
                            path: upload, reason: "the encoder wrote past the \(expected) bytes it announced")
                    }
                    try await connection.openUpload(upload, offset: at, length: to - at)
                    lock.withLock { streamEnd = to }
                    end = to
                }
                guard let end else { break }
                let n = Int(min(Int64(part.count), end - at))
                try await connection.sendUpload(part.prefix(n))
                at += Int64(n)
                part = part.dropFirst(n)
                if at == end {
                    lock.withLock { streamEnd = nil }
                    let now = try checked(try await connection.finishUpload())
                    lock.withLock { received = now }
                }
            } catch let e as HTTPClientError where e.code == "connection_failed" && !recovered {
                // The blobber closed the connection in the middle of the PUT (its idle timeout ran
                // out while this upload waited for a slower blobber, or it restarted). It keeps
                // what arrived: when that reaches this write's bytes, go on from there in a new PUT.
                recovered = true
                lock.withLock { streamEnd = nil }
                await connection.abortUpload()
                let held = try checked(try await connection.uploadStatus(upload))
                lock.withLock { received = held }
                guard held >= stepAt, held - stepAt <= Int64(stepPart.count) else { throw e }
                part = stepPart.dropFirst(Int(held - stepAt))
                at = held
            } catch {
                lock.withLock { streamEnd = nil }
                await connection.abortUpload()
                throw error
            }
        }
    }

    func finish(length: Int64, root: [UInt8]) async throws {
        if lock.withLock({ streamEnd }) != nil {
            // The encoder stopped short of the length it announced: what was sent stays, the
            // request is given up, and the check below says what the blobber holds.
            lock.withLock { streamEnd = nil }
            await connection.abortUpload()
            lock.withLock { received = nil }
        }
        if length == 0 { return lock.withLock { finished = (length, root) } }
        // The last PUT's answer already says what the blobber holds; ask only when it did not.
        let last = lock.withLock { received }
        let have = last == length ? length : try await connection.uploadStatus(upload)
        guard have == length else {
            throw StorageClientError.unreadable(path: upload, reason: "blobber \(connection.index) holds \(have) of \(length) bytes")
        }
        lock.withLock { finished = (length, root) }
    }
}
