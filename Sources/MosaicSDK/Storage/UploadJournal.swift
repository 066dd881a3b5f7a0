import Foundation
import MosaicCrypto

/// What an interrupted upload needs to continue where it stopped: the same upload id (blobbers keep
/// its bytes) and the same content key and nonce prefix (so the fragments come out identical).
/// The key is stored sealed to the owner's key, never in the clear. One file per (allocation,
/// remote path) under `$MOSAIC_HOME/uploads/`, written atomically, removed when the upload ends.
///
/// Resuming seals the file again under the same key and nonces, which is safe only if every byte
/// already sent comes out the same: AES-GCM must never seal two different segments under one nonce.
/// So a journal resumes only when the source looks untouched (`SourceStamp`: same device, inode,
/// size, mtime and ctime, which no ordinary write leaves alone) and its chunk log
/// (`UploadChunkLog`) proves it: each chunk sent before is sealed again and compared before
/// anything of it is sent. Anything else starts afresh with a new key, nonce prefix and upload id.
struct UploadJournal: Codable, Equatable {
    var allocationID: String
    var remotePath: String
    var localPath: String
    var size: Int64
    var modified: Double
    var uploadID: String
    var wrappedKey: String
    var noncePrefix: String
    var created: Int64
    /// The source file when the upload began; nil in journals written before it existed (never resumed).
    var source: SourceStamp?
    /// `UploadChunkLog.format` when the chunk log next to the journal belongs to it.
    var chunkLog: String?

    enum CodingKeys: String, CodingKey {
        case allocationID = "allocation_id"
        case remotePath = "remote_path"
        case localPath = "local_path"
        case size, modified
        case uploadID = "upload_id"
        case wrappedKey = "wrapped_key"
        case noncePrefix = "nonce_prefix"
        case created, source
        case chunkLog = "chunk_log"
    }

    static func url(home: URL, allocation: String, remotePath: String) -> URL {
        let name = Hex.encode(SHA256.hash(Array((allocation + "\n" + remotePath).utf8)).prefix(16))
        return home.appendingPathComponent("uploads").appendingPathComponent(name + ".json")
    }

    static func load(_ url: URL) -> UploadJournal? {
        AtomicFile.readJSON(UploadJournal.self, from: url)
    }

    func save(_ url: URL) throws {
        try AtomicFile.writeJSON(self, to: url)
    }
}

/// Who a local file is, as far as the kernel can tell without reading it: device, inode, size and
/// modification and change times in nanoseconds. Any write changes the ctime, which no user call
/// can set back (unlike the mtime, which `touch -r` restores).
struct SourceStamp: Codable, Equatable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var mtimeNanoseconds: Int64
    var ctimeNanoseconds: Int64

    enum CodingKeys: String, CodingKey {
        case device, inode, size
        case mtimeNanoseconds = "mtime_ns"
        case ctimeNanoseconds = "ctime_ns"
    }

    /// The stamp of the file at `path`, nil when it cannot be read.
    init?(path: String) {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        func nanoseconds(_ t: timespec) -> Int64 {
            let (s, o1) = Int64(t.tv_sec).multipliedReportingOverflow(by: 1_000_000_000)
            let (ns, o2) = s.addingReportingOverflow(Int64(t.tv_nsec))
            return o1 || o2 ? Int64.min : ns
        }
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
        size = Int64(st.st_size)
        mtimeNanoseconds = nanoseconds(st.st_mtim)
        ctimeNanoseconds = nanoseconds(st.st_ctim)
    }
}
