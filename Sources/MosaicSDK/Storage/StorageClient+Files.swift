import Foundation
import MosaicCrypto
import MosaicStorageCore

extension StorageClient {
    /// Creates a folder (and missing parents). Creating one that exists is not an error.
    /// - Parameters:
    ///   - path: the folder.
    ///   - allocation: the allocation.
    /// - Throws: `StorageClientError` — `.alreadyExists` when a file has that path, `.expired`,
    ///   `.tooFewBlobbers` below the write quorum; `StorageRequestError` for a malformed path.
    public func mkdir(_ path: String, allocation a: StorageAllocation) async throws {
        try RemotePath.validate(path)
        try checkWritable(a)
        let dirs = folders(for: path + "/x", allocation: a.id)
        _ = try await commitAll(
            a, indices: Array(0..<a.totalShards), quorum: a.writeQuorum, path: path,
            build: { _, files in
                if let f = files[path], f.kind == .file { throw StorageClientError.alreadyExists(path: path) }
                return dirs.filter { files[$0.path] == nil }.map { .put($0) }
            })
    }

    /// Deletes a file, or a folder with everything in it.
    /// - Parameters:
    ///   - path: the file or folder.
    ///   - allocation: the allocation.
    /// - Throws: `StorageClientError` — `.notFound`, `.expired`, `.tooFewBlobbers`;
    ///   `StorageRequestError` for a malformed path.
    public func delete(_ path: String, allocation a: StorageAllocation) async throws {
        try RemotePath.validate(path)
        try checkWritable(a)
        _ = try await resolve(path, allocation: a)
        _ = try await commitAll(
            a, indices: Array(0..<a.totalShards), quorum: a.writeQuorum, path: path,
            build: { _, files in
                files[path] == nil ? [] : [.delete(path)]
            })
    }

    /// Moves (renames) a file or folder; the destination must not exist.
    /// - Parameters:
    ///   - from: the current path.
    ///   - to: the new path.
    ///   - allocation: the allocation.
    /// - Throws: `StorageClientError` — `.notFound`, `.alreadyExists`, `.expired`, `.tooFewBlobbers`;
    ///   `StorageRequestError` for a malformed path.
    public func move(_ from: String, to: String, allocation a: StorageAllocation) async throws {
        try await relocate(from, to: to, allocation: a, keepSource: false)
    }

    /// Copies a file or folder; blobbers share the fragments, so no data is sent.
    /// - Parameters:
    ///   - from: the source path.
    ///   - to: the destination path (must not exist).
    ///   - allocation: the allocation.
    /// - Throws: `StorageClientError` — `.notFound`, `.alreadyExists`, `.expired`, `.tooFewBlobbers`;
    ///   `StorageRequestError` for a malformed path.
    public func copy(_ from: String, to: String, allocation a: StorageAllocation) async throws {
        try await relocate(from, to: to, allocation: a, keepSource: true)
    }

    private func relocate(_ from: String, to: String, allocation a: StorageAllocation, keepSource: Bool) async throws {
        try RemotePath.validate(from)
        try RemotePath.validate(to)
        try checkWritable(a)
        guard !RemotePath.isWithin(to, folder: from) else {
            throw StorageClientError.invalidPath("cannot move or copy \(from) into itself (\(to))")
        }
        let source = try await resolve(from, allocation: a).meta
        if (try? await resolve(to, allocation: a)) != nil { throw StorageClientError.alreadyExists(path: to) }
        // Everything to relocate, re-signed at its new path (same fragments).
        var items: [(old: String, meta: FileMeta)] = []
        let time = now
        var all = [source]
        if source.kind == .directory { all += try await listRecursive(from, allocation: a) }
        for m in all {
            let newPath = to + m.path.dropFirst(from.count)
            var moved =
                m.kind == .directory
                ? FileMeta.directory(allocationID: a.id, path: newPath, time: 0, ownerID: key.publicKey.clientID)
                : m.moved(to: newPath, time: time)
            moved.sign(with: key)
            items.append((m.path, moved))
        }
        let dirs = folders(for: to, allocation: a.id)
        let planned = items
        _ = try await commitAll(
            a, indices: Array(0..<a.totalShards), quorum: a.writeQuorum, path: to,
            build: { _, files in
                guard files[to] == nil else { throw StorageClientError.alreadyExists(path: to) }
                guard files[from] != nil else { throw StorageClientError.notFound(path: from) }
                var changes: [BlobberWire.Change] = dirs.filter { files[$0.path] == nil }.map { .put($0) }
                for (old, meta) in planned where files[old] != nil {
                    changes.append(.put(meta, source: meta.kind == .file && meta.fragmentLength > 0 ? old : nil))
                }
                if !keepSource { changes.append(.delete(from)) }
                return changes
            })
    }

    /// Every entry below a folder (merged over blobbers like `list`).
    func listRecursive(_ path: String, allocation a: StorageAllocation) async throws -> [FileMeta] {
        var out: [FileMeta] = []
        var queue = [path]
        while let next = queue.popLast() {
            for m in try await list(next, allocation: a) {
                out.append(m)
                if m.kind == .directory { queue.append(m.path) }
            }
        }
        return out
    }
}
