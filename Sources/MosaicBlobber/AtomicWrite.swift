import Foundation
import MosaicCrypto
import MosaicStorageCore

/// Crash-safe replacement of a small file: temp file in the same folder, fsync, rename, fsync of
/// the folder. A reader (or a restarted blobber) sees the old or the new bytes, never a mix.
enum AtomicWrite {
    static func replace(_ path: String, with data: Data) throws {
        let dir = (path as NSString).deletingLastPathComponent
        let tmp = dir + "/." + (path as NSString).lastPathComponent + ".tmp-" + Hex.encodeRandom()
        let fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw StorageError.io(operation: "create", path: tmp, errno: errno) }
        do {
            try data.withUnsafeBytes { try FragmentFile.pwriteAll(fd: fd, path: tmp, $0, at: 0) }
            guard fsync(fd) == 0 else { throw StorageError.io(operation: "fsync", path: tmp, errno: errno) }
            close(fd)
        } catch {
            close(fd)
            unlink(tmp)
            throw error
        }
        guard rename(tmp, path) == 0 else {
            let e = errno
            unlink(tmp)
            throw StorageError.io(operation: "rename", path: path, errno: e)
        }
        FragmentFile.syncDirectory(dir)
    }
}
