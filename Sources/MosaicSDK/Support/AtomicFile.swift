import Foundation
import Glibc
import MosaicCrypto

/// Crash-safe small-file writes: a private temp file in the same folder, fsync, then rename
/// (or link, to refuse replacing), then fsync of the folder so the new name itself is durable.
public enum AtomicFile {
    /// Why a write failed; `exists` only when `replace` is false and the file is there.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case exists(path: String)
        case io(path: String, reason: String)

        /// The message shown to the user.
        public var description: String {
            switch self {
            case .exists(let path): return "\(path) already exists"
            case .io(let path, let reason): return "cannot write \(path): \(reason)"
            }
        }
    }

    /// Writes `bytes` to `url` with mode `mode`; with `replace: false` an existing file is never overwritten.
    /// - Parameters:
    ///   - bytes: the whole new content.
    ///   - url: the file to write.
    ///   - replace: false refuses to overwrite an existing file.
    ///   - mode: the file's permissions.
    /// - Throws: `AtomicFile.Failure.exists` when `replace` is false and the file is there, `.io`
    ///   when a step fails (nothing partial is left at `url`).
    public static func write(_ bytes: [UInt8], to url: URL, replace: Bool = true, mode: mode_t = 0o600) throws(Failure) {
        let dir = url.deletingLastPathComponent().path
        let final = url.path
        let tmp = dir + "/." + url.lastPathComponent + ".tmp-" + Hex.encode(Random.bytes(6))
        let fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw .io(path: tmp, reason: errnoText()) }
        var ok = false
        defer { if !ok { unlink(tmp) } }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, bytes.count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                let reason = errnoText()
                close(fd)
                throw .io(path: tmp, reason: reason)
            }
            written += n
        }
        guard fchmod(fd, mode) == 0, fsync(fd) == 0 else {
            let reason = errnoText()
            close(fd)
            throw .io(path: tmp, reason: reason)
        }
        guard close(fd) == 0 else { throw .io(path: tmp, reason: errnoText()) }
        if replace {
            guard rename(tmp, final) == 0 else { throw .io(path: final, reason: errnoText()) }
        } else {
            // link(2) fails with EEXIST instead of replacing: an atomic "create only".
            guard link(tmp, final) == 0 else {
                if errno == EEXIST { throw .exists(path: final) }
                throw .io(path: final, reason: errnoText())
            }
            unlink(tmp)
        }
        ok = true
        syncDirectory(dir)
    }

    /// Writes `value` as a small JSON document that survives crashes whole: its folder is created
    /// if missing (with `folderMode` when given), then `write` replaces the file, so a crash
    /// leaves the old or the new document, never half of one. `pretty` sorts keys and indents.
    /// - Parameters:
    ///   - value: the document.
    ///   - url: the file.
    ///   - pretty: indented output with sorted keys (files people may read).
    ///   - folderMode: permissions of a folder created on the way; nil keeps the default.
    /// - Throws: the folder's or the encoder's error, or `AtomicFile.Failure`.
    package static func writeJSON<T: Encodable>(_ value: T, to url: URL, pretty: Bool = false, folderMode: Int? = nil) throws {
        let attributes: [FileAttributeKey: Any]? = folderMode.map { [.posixPermissions: $0] }
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true, attributes: attributes)
        let encoder = JSONEncoder()
        if pretty { encoder.outputFormatting = [.prettyPrinted, .sortedKeys] }
        try write(Array(try encoder.encode(value)), to: url)
    }

    /// Reads back a document `writeJSON` wrote. A missing or undecodable file is nil: the
    /// callers' documents are caches and logs that start afresh, and a temp file a crash left
    /// half-written beside it has another name, so it is never read.
    /// - Parameters:
    ///   - type: the document's type.
    ///   - url: the file.
    /// - Returns: the document, or nil.
    package static func readJSON<T: Decodable>(_ type: T.Type, from url: URL) -> T? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        return try? JSONDecoder().decode(type, from: data)
    }

    /// Makes a folder's new or removed names durable (fsync of the folder); errors are ignored.
    /// - Parameter dir: the folder's path.
    public static func syncDirectory(_ dir: String) {
        let dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dfd >= 0 {
            fsync(dfd)
            close(dfd)
        }
    }

    static func errnoText() -> String { String(cString: strerror(errno)) }
}
