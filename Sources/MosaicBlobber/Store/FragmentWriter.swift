import Foundation
import MosaicCrypto
import MosaicProtocol
import MosaicStorageCore
import Synchronization

/// One fragment stream being received by a blobber. Bytes go straight to a temp file while the
/// Merkle tree is built on the fly; `commit` publishes the file only if its root is the expected
/// one. Offsets make retries idempotent: bytes the writer already has are skipped, so a client
/// can resend from any earlier point of the stream.
package final class FragmentWriter: Sendable {
    package let allocation: String
    package let file: String
    let tempPath: String
    private let store: FragmentStore
    private let state: Mutex<State>

    struct State {
        var fd: Int32
        var builder = MerkleTreeBuilder()
        var length: Int64 = 0
        var closed = false
    }

    /// Starts flushing what was received to disk every 8 MiB, so that `commit`'s fsync only waits
    /// for the tail: for a 128 MiB fragment it waited ~0.4 s with the whole file still dirty, a
    /// fifth of the upload. Durability is unchanged (commit still fsyncs before publishing).
    private let writeback = BackgroundWriteback()

    init(store: FragmentStore, allocation: String, file: String, tempPath: String, resume: Bool = false) throws {
        let fd = open(tempPath, resume ? (O_RDWR | O_CREAT | O_CLOEXEC) : (O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC), 0o644)
        guard fd >= 0 else { throw StorageError.io(operation: "create", path: tempPath, errno: errno) }
        var initial = State(fd: fd)
        if resume {
            // Rebuild the tree over what an earlier run already received (survives a blobber restart).
            var st = stat()
            guard fstat(fd, &st) == 0 else {
                close(fd)
                throw StorageError.io(operation: "stat", path: tempPath, errno: errno)
            }
            let size = Int64(st.st_size)
            var at: Int64 = 0
            let step = 16 * MerkleRules.blockSize
            while at < size {
                let n = Int(min(Int64(step), size - at))
                let bytes: [UInt8]
                do { bytes = try FragmentFile.pread(fd: fd, path: tempPath, offset: at, count: n) } catch {
                    close(fd)
                    throw error
                }
                initial.builder.append(stream: bytes)
                at += Int64(n)
            }
            initial.length = size
        }
        self.store = store
        self.allocation = allocation
        self.file = file
        self.tempPath = tempPath
        state = Mutex(initial)
    }

    /// Bytes received so far (where a resumed upload continues).
    package var length: Int64 { state.withLock { $0.length } }

    package func append(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { raw in try state.withLock { s in try Self.append(raw, to: &s, path: tempPath) } }
    }

    /// Writes `bytes` at stream `offset`: parts below the current length are skipped, a gap is an error.
    package func receive(_ bytes: [UInt8], at offset: Int64) throws {
        try bytes.withUnsafeBytes { try receive($0, at: offset) }
    }

    /// The same straight from a receive buffer (the blobber's HTTP body chunks), with no array copy.
    package func receive(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws {
        try state.withLock { s in
            guard offset <= s.length else {
                throw StorageError.io(
                    operation: "write at offset \(offset) beyond received length \(s.length) of", path: tempPath, errno: EINVAL)
            }
            let skip = Int(min(Int64(bytes.count), s.length - offset))
            try Self.append(UnsafeRawBufferPointer(rebasing: bytes[skip...]), to: &s, path: tempPath)
            // Under the lock and only while open: the descriptor it duplicates is still this file's.
            if !s.closed { writeback.wrote(s.length, fd: s.fd) }
        }
    }

    private static func append(_ bytes: UnsafeRawBufferPointer, to s: inout State, path: String) throws {
        guard !s.closed else { throw StorageError.writerClosed }
        guard !bytes.isEmpty else { return }
        try FragmentFile.pwriteAll(fd: s.fd, path: path, bytes, at: s.length)
        s.builder.append(stream: bytes)
        s.length += Int64(bytes.count)
    }

    /// Verifies the received stream against `expectedRoot` (and length, if given), then makes it
    /// durable and visible atomically. On a mismatch the temp file is deleted and nothing changes.
    @discardableResult
    package func commit(expectedRoot: [UInt8], expectedLength: Int64? = nil) throws -> FragmentStore.Entry {
        try state.withLock { s in
            guard !s.closed else { throw StorageError.writerClosed }
            s.closed = true
            let tree = s.builder.finish()
            guard tree.root == expectedRoot, expectedLength.map({ $0 == s.length }) ?? true else {
                close(s.fd)
                unlink(tempPath)
                if tree.root != expectedRoot {
                    throw StorageError.rootMismatch(expected: Hex.encode(expectedRoot), computed: Hex.encode(tree.root))
                }
                throw StorageError.fragmentLengthMismatch(index: -1, expected: Int(expectedLength ?? 0), got: Int(s.length))
            }
            do {
                var tail = [UInt8]()
                for level in tree.levels() { for node in level { tail.append(contentsOf: node) } }
                tail.append(contentsOf: FragmentFile.footerBytes(length: s.length, leafCount: tree.leafCount, root: tree.root))
                try tail.withUnsafeBytes { try FragmentFile.pwriteAll(fd: s.fd, path: tempPath, $0, at: s.length) }
                guard fsync(s.fd) == 0 else { throw StorageError.io(operation: "fsync", path: tempPath, errno: errno) }
                close(s.fd)
                try store.publish(tempPath: tempPath, allocation: allocation, file: file, length: s.length)
            } catch {
                close(s.fd)
                unlink(tempPath)
                throw error
            }
            return FragmentStore.Entry(length: s.length, blockCount: tree.leafCount, root: tree.root)
        }
    }

    /// Drops the write; nothing becomes visible.
    package func abort() {
        state.withLock { s in
            guard !s.closed else { return }
            s.closed = true
            close(s.fd)
            unlink(tempPath)
        }
    }

    deinit {
        state.withLock { s in
            if !s.closed { close(s.fd) }
        }
    }
}

extension FragmentWriter: FragmentSink {
    package func write(_ bytes: [UInt8], at offset: Int64) async throws {
        try receive(bytes, at: offset)
    }

    package func write(fragment bytes: FragmentBytes, at offset: Int64) async throws {
        try bytes.withUnsafeBytes { try receive($0, at: offset) }
    }

    package func finish(length: Int64, root: [UInt8]) async throws {
        try commit(expectedRoot: root, expectedLength: length)
    }
}

/// Serves a stored fragment stream to a `FileDecoder` (in-process; the blobber's HTTP handler does the same).
package struct StoredFragmentSource: FragmentSource {
    package let store: FragmentStore
    package let allocation: String
    package let file: String

    package init(store: FragmentStore, allocation: String, file: String) {
        self.store = store
        self.allocation = allocation
        self.file = file
    }

    package func blocks(_ range: Range<Int>) async throws -> [FragmentBlock] {
        try store.readBlocks(allocation: allocation, file: file, range: range)
    }
}
