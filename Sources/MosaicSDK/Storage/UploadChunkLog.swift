import Foundation
import Glibc
import MosaicCrypto
import MosaicProtocol
import MosaicStorageCore

/// The chunks an upload has handed to its blobbers: one 32-byte digest per chunk (SHA-256 of the
/// chunk's d + p Merkle leaf hashes, which the encoder computes anyway), appended to
/// `upload-chunks/NAME.chunks` before the chunk's batch is sent. A resumed upload seals the file again
/// under the same key and nonces and compares each chunk with the log before sending any of it: a
/// chunk that differs means the source changed, and the upload starts afresh under a new key and
/// nonce prefix, so AES-GCM never seals two different plaintexts under one nonce.
///
/// Appends are not fsynced (one per batch would cost more than the upload); a log cut short by a
/// power loss is caught by comparing it with what the blobbers hold (`covers(heldFragmentBytes:)`).
/// `@unchecked Sendable`: used by one upload at a time, from the encoder's loop only.
final class UploadChunkLog: @unchecked Sendable {
    static let format = "sha256-chunk-leaves-v1"
    static let digestLength = 32

    /// A chunk sealed now differs from the one sent before under the same key and nonces.
    struct Mismatch: Error {
        let chunk: Int64
    }

    let url: URL
    /// Digests of the chunks sent by earlier runs.
    private(set) var recorded: [[UInt8]]
    private var fd: Int32

    /// `$MOSAIC_HOME/upload-chunks/NAME.chunks` for the journal `$MOSAIC_HOME/uploads/NAME.json`
    /// (a folder of its own, so `uploads/` keeps one file per interrupted upload).
    static func url(journal: URL) -> URL {
        journal.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("upload-chunks")
            .appendingPathComponent(journal.deletingPathExtension().lastPathComponent + ".chunks")
    }

    /// Opens the log: `resume` reads what earlier runs recorded, otherwise it starts empty.
    init(url: URL, resume: Bool) throws {
        self.url = url
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        var digests: [[UInt8]] = []
        if resume {
            guard let data = FileManager.default.contents(atPath: url.path) else { throw Mismatch(chunk: 0) }
            let bytes = [UInt8](data)
            // A torn last append is dropped: that chunk counts as never recorded.
            let whole = bytes.count / Self.digestLength
            digests = (0..<whole).map { Array(bytes[($0 * Self.digestLength)..<(($0 + 1) * Self.digestLength)]) }
            if bytes.count % Self.digestLength != 0 { truncate(url.path, off_t(whole * Self.digestLength)) }
        }
        recorded = digests
        fd = open(url.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | (resume ? 0 : O_TRUNC), 0o600)
        guard fd >= 0 else {
            throw StorageClientError.localFile(
                path: url.lastPathComponent, reason: "cannot open the upload's chunk log: \(String(cString: strerror(errno)))")
        }
    }

    deinit { if fd >= 0 { close(fd) } }

    /// False when a blobber holds bytes of chunks this log never recorded (the log was cut short):
    /// then what was sealed for them is unknown and the upload must not resume.
    func covers(heldFragmentBytes held: Int64) -> Bool {
        let block = Int64(MerkleRules.blockSize)
        let (sum, overflow) = held.addingReportingOverflow(block - 1)
        guard held >= 0, !overflow else { return false }
        return sum / block <= Int64(recorded.count)
    }

    /// The encoder's check before a batch is sent: chunks an earlier run sent must come out the
    /// same; the others are recorded now, before they go.
    func admit(firstChunk: Int64, leafHashes: [[[UInt8]]]) throws {
        guard let chunks = leafHashes.first?.count, firstChunk >= 0 else { return }
        var fresh: [UInt8] = []
        for k in 0..<chunks {
            var all: [UInt8] = []
            for fragment in leafHashes { all += fragment[k] }
            let digest = SHA256.hash(all)
            let index = firstChunk + Int64(k)
            if index < Int64(recorded.count) {
                guard recorded[Int(index)] == digest else { throw Mismatch(chunk: index) }
            } else {
                // Chunks come in order; a gap would leave a chunk unrecorded, so it is refused.
                guard index == Int64(recorded.count) else { throw Mismatch(chunk: index) }
                fresh += digest
                recorded.append(digest)
            }
        }
        var written = 0
        while written < fresh.count {
            let n = fresh.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, fresh.count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                // Without the record the chunk must not go: a later resume could not check it.
                throw StorageClientError.localFile(
                    path: url.lastPathComponent, reason: "cannot write the upload's chunk log: \(String(cString: strerror(errno)))")
            }
            written += n
        }
    }

    /// Removes the log (the upload finished, or starts afresh).
    static func remove(journal: URL) {
        try? FileManager.default.removeItem(at: url(journal: journal))
    }
}
