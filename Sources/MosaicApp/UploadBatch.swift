import Foundation
import Glibc
import MosaicHTTPServer
import MosaicSDK
import MosaicStorageCore

/// The small files of a dropped folder that the page sends in one request, so that the SDK
/// commits them together (one write marker per blobber for the lot, as `mosaic upload -r` does)
/// instead of one commit per file.
///
/// Body: `u32 BE manifest length ‖ manifest ‖ the files' bytes, in manifest order`, where the
/// manifest is `{"files":[{"path":"photos/2024/a.jpg","size":123,"modified":1733500000}, …]}`:
/// paths relative to the folder the request names, sizes in bytes, `modified` in Unix seconds
/// (kept as the file's time, so a later sync of the same folder sees it unchanged). A page
/// builds it with `new Blob([header, file1, file2, …])`, which streams the files from disk.
struct UploadBatch {
    struct Entry: Decodable {
        let path: String
        let size: Int64
        let modified: Int64
    }

    private struct Manifest: Decodable {
        let files: [Entry]
    }

    /// Every file of a batch is a small one: larger files go alone, through the upload route.
    static let maxFiles = StorageClient.batchMaxFiles
    static let maxFileBytes = StorageClient.batchFileBytes
    static let maxBytes = StorageClient.batchMaxBytes
    static let maxManifestBytes = 256 << 10
    /// The whole body at most: manifest, its length, and the files.
    static let maxBodyBytes = Int(maxBytes) + maxManifestBytes + 4

    let entries: [Entry]
    /// The files' bytes, one after another in `entries` order.
    let bytes: Data
    let offsets: [Int]

    /// Checks the whole body; a malformed one is a 400 or 422 that names what is wrong.
    init(body: Data) throws(HTTPError) {
        guard body.count >= 4 else {
            throw HTTPError.badRequest("the batch is empty: it starts with the manifest's length (4 bytes)", code: "invalid_batch")
        }
        let length = body.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        guard length > 0, length <= Self.maxManifestBytes, body.count - 4 >= length else {
            throw HTTPError.badRequest(
                "the batch's manifest length \(length) is not between 1 and \(Self.maxManifestBytes) bytes within the body",
                code: "invalid_batch")
        }
        let start = body.startIndex
        let manifest: Manifest
        do {
            manifest = try JSONDecoder().decode(Manifest.self, from: body[(start + 4)..<(start + 4 + length)])
        } catch {
            throw HTTPError.badRequest(
                "the batch's manifest is not {\"files\":[{\"path\",\"size\",\"modified\"}…]}: \(error)", code: "invalid_batch")
        }
        guard (1...Self.maxFiles).contains(manifest.files.count) else {
            throw HTTPError.unprocessable(
                "a batch holds 1 to \(Self.maxFiles) files; this one lists \(manifest.files.count). Send the rest in another batch.",
                code: "invalid_batch")
        }
        var total: Int64 = 0
        var seen = Set<String>()
        var offsets: [Int] = []
        for e in manifest.files {
            try Self.check(relative: e.path)
            guard seen.insert(e.path).inserted else {
                throw HTTPError.unprocessable("the batch lists \(e.path) twice; each file goes once", code: "invalid_batch")
            }
            guard (0...Self.maxFileBytes).contains(e.size) else {
                throw HTTPError.unprocessable(
                    "\(e.path) has \(e.size) bytes; files in a batch have 0 to \(Self.maxFileBytes) bytes (upload larger ones alone)",
                    code: "invalid_batch")
            }
            guard (0...Int64(UInt32.max)).contains(e.modified) else {
                throw HTTPError.unprocessable(
                    "\(e.path) has modified time \(e.modified); give Unix seconds between 0 and \(UInt32.max)", code: "invalid_batch")
            }
            offsets.append(Int(total))
            total += e.size
        }
        // A name cannot be a file and a folder of the same batch.
        for e in manifest.files {
            var folder = Substring(e.path)
            while let slash = folder.lastIndex(of: "/") {
                folder = folder[..<slash]
                if seen.contains(String(folder)) {
                    throw HTTPError.unprocessable(
                        "the batch has a file \(folder) and a file inside a folder of that name (\(e.path)); rename one of them",
                        code: "invalid_batch")
                }
            }
        }
        guard total <= Self.maxBytes else {
            throw HTTPError.unprocessable(
                "the batch's files add up to \(total) bytes; a batch carries at most \(Self.maxBytes)", code: "invalid_batch")
        }
        guard Int64(body.count - 4 - length) == total else {
            throw HTTPError.badRequest(
                "the manifest lists \(total) bytes of files but the body carries \(body.count - 4 - length)", code: "invalid_batch")
        }
        entries = manifest.files
        bytes = body.suffix(from: start + 4 + length)
        self.offsets = offsets
    }

    /// A path below the request's folder: "/"-separated names, none empty, "." or "..", no NUL,
    /// each a name this machine's file system can hold (it is spooled here first).
    static func check(relative path: String) throws(HTTPError) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !path.isEmpty, path.utf8.count <= RemotePath.maxBytes,
            parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." && $0.utf8.count <= 255 && !$0.utf8.contains(0) })
        else {
            throw HTTPError.unprocessable(
                "'\(path.prefix(200))' is not a relative path such as photos/2024/cat.jpg (names of 1 to 255 bytes, no '.', '..' or empty parts)",
                code: "invalid_path")
        }
    }

    /// The deepest folder that holds every file ("" for the request's folder itself): the SDK
    /// then compares with the listing of that folder only.
    var commonFolder: String {
        var common: [Substring]? = nil
        for e in entries {
            let folders = e.path.split(separator: "/").dropLast()
            guard let c = common else {
                common = Array(folders)
                continue
            }
            common = Array(zip(c, folders).prefix { $0 == $1 }.map(\.0))
        }
        return (common ?? []).joined(separator: "/")
    }

    /// Writes the files below `root` (made fresh, mode 0700) as the tree the SDK sends, paths
    /// taken relative to `folder` (`commonFolder`), each with its modified time.
    func spool(into root: URL, below folder: String) throws {
        let fm = FileManager.default
        try? fm.removeItem(at: root)
        try fm.createDirectory(at: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let skip = folder.isEmpty ? 0 : folder.utf8.count + 1
        for (i, e) in entries.enumerated() {
            let rel = String(decoding: e.path.utf8.dropFirst(skip), as: UTF8.self)
            let url = root.appendingPathComponent(rel)
            try fm.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let start = bytes.startIndex + offsets[i]
            guard fm.createFile(atPath: url.path, contents: bytes[start..<(start + Int(e.size))], attributes: [.posixPermissions: 0o600])
            else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path]) }
            var times = [timespec(tv_sec: Int(e.modified), tv_nsec: 0), timespec(tv_sec: Int(e.modified), tv_nsec: 0)]
            _ = utimensat(AT_FDCWD, url.path, &times, 0)
        }
    }
}
