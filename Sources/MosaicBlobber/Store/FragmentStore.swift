import Foundation
import MosaicCrypto
import MosaicStorageCore
import Synchronization

/// A blobber's disk: one file per fragment stream, per (allocation, file id), under one directory.
///
/// A write goes to `tmp/` and becomes visible only by an atomic rename after its Merkle root has
/// been checked against the one the owner signed; the file and its directory are fsynced first.
/// So a blobber killed mid-write never shows a partial fragment, and stale temp files are removed
/// when the store is opened. Every fragment file carries its whole Merkle tree, so a block and its
/// proof (for downloads and challenges) cost a few reads.
///
/// Layout: `DIR/alloc/<allocation>/<file>.frag`, `DIR/tmp/<random>.part`, resumable uploads in
/// `DIR/uploads/<allocation>/<upload>.part`. File format in
/// docs/STORAGE.md: data ‖ tree nodes (level by level, leaves first) ‖ 64-byte footer.
package final class FragmentStore: Sendable {
    package let directory: String
    private let usage: Mutex<[String: Int64]>

    /// What the store holds for one fragment stream.
    package struct Entry: Sendable, Equatable {
        package let length: Int64
        package let blockCount: Int
        package let root: [UInt8]
    }

    /// Opens (creating if needed) the store at `directory`, removes leftovers of interrupted writes,
    /// and counts the bytes used per allocation.
    package init(directory: String) throws {
        self.directory = directory
        let fm = FileManager.default
        for sub in ["alloc", "tmp", "uploads"] {
            do {
                try fm.createDirectory(atPath: directory + "/" + sub, withIntermediateDirectories: true)
            } catch {
                throw StorageError.io(operation: "create directory", path: directory + "/" + sub, errno: EACCES)
            }
        }
        for name in (try? fm.contentsOfDirectory(atPath: directory + "/tmp")) ?? [] {
            unlink(directory + "/tmp/" + name)
        }
        Self.moveFlatUploads(directory + "/uploads")
        var used: [String: Int64] = [:]
        for alloc in (try? fm.contentsOfDirectory(atPath: directory + "/alloc")) ?? [] {
            var total: Int64 = 0
            for name in (try? fm.contentsOfDirectory(atPath: directory + "/alloc/" + alloc)) ?? [] where name.hasSuffix(".frag") {
                let path = directory + "/alloc/" + alloc + "/" + name
                if let footer = try? FragmentFile.readFooter(path: path) { total += footer.length }
            }
            used[alloc] = total
        }
        usage = Mutex(used)
    }

    // MARK: Writing

    /// Starts writing a fragment stream; nothing is visible until `commit(expectedRoot:)` succeeds.
    package func beginWrite(allocation: String, file: String) throws -> FragmentWriter {
        try Self.validate(allocation)
        try Self.validate(file)
        let temp = directory + "/tmp/" + Hex.encodeRandom() + ".part"
        return try FragmentWriter(store: self, allocation: allocation, file: file, tempPath: temp)
    }

    /// Opens (or continues) the resumable upload `upload` of an allocation. Its bytes live in
    /// `uploads/<allocation>/<upload>.part`, which survives restarts (unlike `tmp/`), so a client can
    /// continue from `length` after either side crashed. `commit(expectedRoot:)` publishes it as
    /// fragment file `file`.
    package func resumableWrite(allocation: String, upload: String, file: String) throws -> FragmentWriter {
        try Self.validate(allocation)
        try Self.validate(upload)
        try Self.validate(file)
        let dir = directory + "/uploads/" + allocation
        if mkdir(dir, 0o755) != 0 && errno != EEXIST { throw StorageError.io(operation: "mkdir", path: dir, errno: errno) }
        return try FragmentWriter(store: self, allocation: allocation, file: file, tempPath: uploadPath(allocation, upload), resume: true)
    }

    /// Bytes already received for a resumable upload, nil when there is none.
    package func uploadLength(allocation: String, upload: String) throws -> Int64? {
        try Self.validate(allocation)
        try Self.validate(upload)
        var st = stat()
        guard stat(uploadPath(allocation, upload), &st) == 0 else { return nil }
        return Int64(st.st_size)
    }

    /// Drops a resumable upload's bytes.
    package func discardUpload(allocation: String, upload: String) throws {
        try Self.validate(allocation)
        try Self.validate(upload)
        unlink(uploadPath(allocation, upload))
        rmdir(directory + "/uploads/" + allocation)  // only when it was the last one
    }

    /// One resumable upload on disk.
    package struct StoredUpload: Sendable, Equatable {
        package let allocation: String
        package let upload: String
        package let length: Int64
        /// Unix seconds of the last write.
        package let modified: Int64
    }

    /// Every resumable upload on disk (what a blobber counts against its limits at start).
    package func uploads() -> [StoredUpload] {
        let root = directory + "/uploads"
        var out: [StoredUpload] = []
        for allocation in (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [] where (try? Self.validate(allocation)) != nil {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: root + "/" + allocation)) ?? [] where name.hasSuffix(".part")
            {
                let upload = String(name.dropLast(5))
                var st = stat()
                guard (try? Self.validate(upload)) != nil, stat(root + "/" + allocation + "/" + name, &st) == 0 else { continue }
                out.append(
                    StoredUpload(allocation: allocation, upload: upload, length: Int64(st.st_size), modified: Int64(st.st_mtim.tv_sec)))
            }
        }
        return out
    }

    /// Resumable uploads older than `age` seconds (abandoned by their clients) are removed.
    package func removeStaleUploads(olderThan age: TimeInterval) {
        let limit = Int64(Date().addingTimeInterval(-age).timeIntervalSince1970)
        for u in uploads() where u.modified < limit { try? discardUpload(allocation: u.allocation, upload: u.upload) }
    }

    /// Uploads of earlier versions lay flat in `uploads/` as `<allocation>.<upload>.part`, which two
    /// allocations could share when an id contains a dot; they move into their allocation's folder
    /// (ledger allocation ids are hex, so the first dot is the separator).
    private static func moveFlatUploads(_ root: String) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [] where name.hasSuffix(".part") {
            let path = root + "/" + name
            let stem = name.dropLast(5)
            guard let dot = stem.firstIndex(of: "."), (try? validate(String(stem[..<dot]))) != nil,
                (try? validate(String(stem[stem.index(after: dot)...]))) != nil
            else {
                unlink(path)
                continue
            }
            let dir = root + "/" + stem[..<dot]
            if mkdir(dir, 0o755) != 0 && errno != EEXIST {
                unlink(path)
                continue
            }
            if rename(path, dir + "/" + stem[stem.index(after: dot)...] + ".part") != 0 { unlink(path) }
        }
    }

    private func uploadPath(_ allocation: String, _ upload: String) -> String {
        directory + "/uploads/" + allocation + "/" + upload + ".part"
    }

    /// Makes stored fragment `to` a second name of fragment `from` (a hard link: a copy costs no
    /// bytes on disk until one of them is deleted; both are charged to the allocation).
    package func link(allocation: String, from: String, to: String) throws {
        let source = try path(allocation, from)
        try Self.validate(to)
        let target = directory + "/alloc/" + allocation + "/" + to + ".frag"
        try usage.withLock { used in
            let footer = try FragmentFile.readFooter(path: source)
            guard Glibc.link(source, target) == 0 else { throw StorageError.io(operation: "link", path: target, errno: errno) }
            used[allocation, default: 0] += footer.length
        }
        FragmentFile.syncDirectory(directory + "/alloc/" + allocation)
    }

    /// Called by a writer once its temp file is complete, verified and synced.
    func publish(tempPath: String, allocation: String, file: String, length: Int64) throws {
        let dir = directory + "/alloc/" + allocation
        if mkdir(dir, 0o755) != 0 && errno != EEXIST {
            throw StorageError.io(operation: "mkdir", path: dir, errno: errno)
        }
        let final = dir + "/" + file + ".frag"
        // Under the lock so that two commits of the same file cannot both count the old length.
        try usage.withLock { used in
            let previous = (try? FragmentFile.readFooter(path: final))?.length ?? 0
            guard rename(tempPath, final) == 0 else { throw StorageError.io(operation: "rename", path: final, errno: errno) }
            used[allocation, default: 0] += length - previous
        }
        FragmentFile.syncDirectory(dir)
    }

    // MARK: Reading

    package func entry(allocation: String, file: String) throws -> Entry {
        let path = try path(allocation, file)
        let footer = try FragmentFile.readFooter(path: path)
        return Entry(length: footer.length, blockCount: footer.leafCount, root: footer.root)
    }

    package func contains(allocation: String, file: String) -> Bool {
        (try? entry(allocation: allocation, file: file)) != nil
    }

    /// Blocks `range` of a stored fragment stream with their Merkle proofs.
    package func readBlocks(allocation: String, file: String, range: Range<Int>) throws -> [FragmentBlock] {
        let path = try path(allocation, file)
        return try FragmentFile.readBlocks(path: path, range: range)
    }

    /// Raw bytes of the stored stream (for repair or a plain transfer).
    package func readBytes(allocation: String, file: String, offset: Int64, count: Int) throws -> [UInt8] {
        let path = try path(allocation, file)
        let footer = try FragmentFile.readFooter(path: path)
        guard offset >= 0, offset <= footer.length, count > 0 else { return [] }
        let end = min(footer.length, offset + min(Int64(count), footer.length - offset))
        return try FragmentFile.read(path: path, offset: offset, count: Int(end - offset))
    }

    // MARK: Deleting and accounting

    package func delete(allocation: String, file: String) throws {
        let path = try path(allocation, file)
        try usage.withLock { used in
            let footer = try FragmentFile.readFooter(path: path)
            guard unlink(path) == 0 else { throw StorageError.io(operation: "unlink", path: path, errno: errno) }
            used[allocation, default: 0] -= footer.length
        }
        FragmentFile.syncDirectory(directory + "/alloc/" + allocation)
    }

    /// Fragment bytes stored for one allocation (what its size limit is charged against).
    package func usedBytes(allocation: String) -> Int64 { usage.withLock { $0[allocation] ?? 0 } }

    package var totalUsedBytes: Int64 { usage.withLock { $0.values.reduce(0, +) } }

    /// File ids stored for an allocation, sorted.
    package func files(allocation: String) throws -> [String] {
        try Self.validate(allocation)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory + "/alloc/" + allocation)) ?? []
        return names.filter { $0.hasSuffix(".frag") }.map { String($0.dropLast(5)) }.sorted()
    }

    private func path(_ allocation: String, _ file: String) throws -> String {
        try Self.validate(allocation)
        try Self.validate(file)
        let p = directory + "/alloc/" + allocation + "/" + file + ".frag"
        guard access(p, F_OK) == 0 else { throw StorageError.notFound(allocation: allocation, file: file) }
        return p
    }

    /// Ids become file names, so only a safe alphabet is allowed (no '/', no leading dot).
    static func validate(_ name: String) throws {
        let ok =
            !name.isEmpty && name.utf8.count <= 128 && !name.hasPrefix(".")
            && name.utf8.allSatisfy {
                ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5a) || ($0 >= 0x61 && $0 <= 0x7a) || $0 == 0x2e || $0 == 0x5f
                    || $0 == 0x2d
            }
        guard ok else { throw StorageError.invalidName(name) }
    }
}

extension Hex {
    static func encodeRandom() -> String { Hex.encode(Random.bytes(16)) }
}
