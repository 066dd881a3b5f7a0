import Foundation
import MosaicHTTP

/// An open file handed to the server for a download; closed by the server after sending, or on deinit.
package final class FileBody: @unchecked Sendable {  // the descriptor is handed to exactly one response; state guarded by `lock`
    private let lock = NSLock()
    private var fd: Int32
    /// Size of the whole file.
    public let size: Int64
    var offset: Int64 = 0
    var length: Int64

    init(path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw HTTPError.notFound("file not found") }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw HTTPError.notFound("not a regular file")
        }
        self.fd = fd
        self.size = Int64(st.st_size)
        self.length = Int64(st.st_size)
    }

    /// Gives the descriptor away (MHD then owns and closes it); -1 if already taken.
    func take() -> Int32 {
        lock.lock()
        defer { lock.unlock() }
        let f = fd
        fd = -1
        return f
    }

    deinit { if fd >= 0 { close(fd) } }
}
