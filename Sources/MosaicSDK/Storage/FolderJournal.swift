import Foundation
import Glibc
import MosaicCrypto
import Synchronization

/// The files a folder upload or sync already finished, so a run after a kill sends none of them
/// again. One append-only log per (allocation, local folder, remote folder) under
/// `$MOSAIC_HOME/folders/`: a JSON line per committed file with the local size and mtime
/// (nanoseconds) it was sent with. Appending keeps each record O(1) whatever the file count (a
/// rewritten document would cost O(n) per file); a line cut short by a crash fails to decode and
/// is ignored, and its file is then judged against the remote listing like any other. The log is
/// removed when a run ends with nothing left to do.
final class FolderJournal: Sendable {
    struct Entry: Codable, Equatable {
        var path: String
        var size: Int64
        var mtimeNanoseconds: Int64

        enum CodingKeys: String, CodingKey {
            case path, size
            case mtimeNanoseconds = "mtime_ns"
        }
    }

    let url: URL
    private let fd = Mutex<Int32>(-1)

    init(home: URL, allocation: String, local: URL, remote: String) {
        let key = allocation + "\n" + local.standardizedFileURL.path + "\n" + remote
        let name = Hex.encode(SHA256.hash(Array(key.utf8)).prefix(16))
        url = home.appendingPathComponent("folders").appendingPathComponent(name + ".log")
    }

    /// The finished files by relative path (the last record of a path wins).
    func finished() -> [String: Entry] {
        guard let data = try? Data(contentsOf: url) else { return [:] }
        var out: [String: Entry] = [:]
        let decoder = JSONDecoder()
        for line in data.split(separator: UInt8(ascii: "\n")) {
            if let e = try? decoder.decode(Entry.self, from: Data(line)) { out[e.path] = e }
        }
        return out
    }

    /// Appends one finished file; a failure to record only costs a re-check on the next run.
    func record(_ entry: Entry) {
        guard var line = try? JSONEncoder().encode(entry) else { return }
        line.append(UInt8(ascii: "\n"))
        fd.withLock { fd in
            if fd < 0 {
                try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                fd = open(url.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
                if fd < 0 { return }
            }
            // One write(2) per line with O_APPEND: lines never interleave.
            _ = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        }
    }

    /// Removes the log: the folder is done.
    /// Where a batch's upload ids wait until the batch is committed (see `uploadBatch`).
    private var batchURL: URL { url.deletingPathExtension().appendingPathExtension("uploads") }

    /// Notes the upload ids of a batch before its bytes go out. Not synced: it only lets the
    /// next run free blobber space sooner, which a lost note merely delays (uploads expire).
    func beginBatch(_ bases: [String]) {
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? Data(bases.joined(separator: "\n").utf8).write(to: batchURL)
    }

    func endBatch() { unlink(batchURL.path) }

    /// Upload ids of a batch a kill cut short (only well-formed ones: the file is local but may be damaged).
    func leftoverBatch() -> [String] {
        guard let data = try? Data(contentsOf: batchURL) else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init).filter { id in
            id.count == 32 && id.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
        }
    }

    func remove() {
        close()
        unlink(url.path)
    }

    func close() {
        fd.withLock { fd in
            if fd >= 0 {
                fsync(fd)
                Glibc.close(fd)
                fd = -1
            }
        }
    }

    deinit { close() }
}
