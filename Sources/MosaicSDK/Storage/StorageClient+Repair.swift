import Foundation
import MosaicCrypto
import MosaicStorageCore

extension StorageClient {
    /// Brings every reachable blobber of the allocation to the state that at least d blobbers agree
    /// on: fragments a blobber lacks (a failed upload, a replaced or wiped blobber) are rebuilt from
    /// d verified others and committed there; entries the others deleted are removed. Entries
    /// recorded in `repairs.json` for blobbers that are now consistent are cleared.
    /// - Parameter a: the allocation to repair.
    /// - Returns: what was rebuilt, removed and what failed, by blobber.
    /// - Throws: `StorageClientError` when fewer than d blobbers can be read or the allocation expired.
    @discardableResult
    public func repair(allocation a: StorageAllocation) async throws -> RepairReport {
        try checkWritable(a)
        var report = RepairReport()
        let conns = connections(a)
        // Each blobber's files (signature-checked), or why it cannot be read.
        let views = await withTaskGroup(of: (Int, [String: FileMeta]?, String?).self) { group in
            for c in conns {
                group.addTask {
                    do {
                        var files: [String: FileMeta] = [:]
                        for m in try await c.list("/", recursive: true) where (try? m.verify(owner: a.ownerPublicKey)) != nil {
                            files[m.path] = m
                        }
                        return (c.index, files, nil)
                    } catch {
                        return (c.index, nil, Self.reason(error))
                    }
                }
            }
            var out: [Int: [String: FileMeta]] = [:]
            var failed: [Int: String] = [:]
            for await (i, f, e) in group {
                if let f { out[i] = f } else { failed[i] = e ?? "unreachable" }
            }
            return (out, failed)
        }
        let (files, unreachable) = views
        report.failed = unreachable
        // The agreed state of each path. Blobbers known (repairs.json) to have missed writes do not
        // vote; among the others a path stays when its best version has at least as many holders
        // as there are blobbers without it (a tie keeps data), the newest version breaking ties.
        let missed = Set(pendingRepairs(allocation: a.id).keys)
        var voters = Set(files.keys).subtracting(missed)
        if voters.isEmpty { voters = Set(files.keys) }
        var votes: [String: [String: (meta: FileMeta, holders: [Int])]] = [:]
        for (i, list) in files {
            for m in list.values { votes[m.path, default: [:]][m.hash, default: (m, [])].holders.append(i) }
        }
        var truth: [String: (meta: FileMeta, holders: [Int])] = [:]
        for (path, versions) in votes {
            let counted = versions.values.map { v in (v, v.holders.filter { voters.contains($0) }.count) }
            guard let best = counted.max(by: { ($0.1, $0.0.meta.modified) < ($1.1, $1.0.meta.modified) }), best.1 > 0 else { continue }
            let present = counted.reduce(0) { $0 + $1.1 }
            let absent = voters.count - present
            if best.1 >= absent { truth[path] = best.0 }
        }
        // A folder stays when anything below it stays.
        for path in truth.keys {
            for ancestor in RemotePath.ancestors(path) where truth[ancestor] == nil {
                if let v = votes[ancestor]?.values.first { truth[ancestor] = v }
            }
        }
        // Fragments to rebuild: per path, the blobbers lacking the agreed version.
        var uploads: [Int: [String: String]] = [:]  // blobber → path → upload id
        for (path, t) in truth.sorted(by: { $0.key < $1.key }) where t.meta.kind == .file && t.meta.fragmentLength > 0 {
            let targets = files.keys.filter { files[$0]?[path]?.hash != t.meta.hash }
            guard !targets.isEmpty else { continue }
            guard t.holders.count >= a.dataShards else {
                for i in targets { report.failed[i] = "\(path): only \(t.holders.count) of the \(a.dataShards) blobbers needed hold it" }
                continue
            }
            // Rebuilding re-codes fragments and never decrypts; a locker file's key needs its PIN, so it
            // gets a throwaway key (only the cipher's overhead matters here).
            let lockerKey: SecretBytes? =
                t.meta.cipher == FileMeta.lockerCipher ? SecretBytes(Random.bytes(AESGCMSegmentCipher.keyCount)) : nil
            guard let wrapped = Hex.decode(t.meta.wrappedKey), let prefix = Hex.decode(t.meta.noncePrefix),
                let contentKey = lockerKey ?? (try? SealedBox.open(wrapped, with: key))
            else {
                for i in targets { report.failed[i] = "cannot open the content key of \(path)" }
                continue
            }
            let cipher = try AESGCMSegmentCipher(key: contentKey, noncePrefix: prefix, fileSize: t.meta.size)
            let decoder = try FileDecoder(file: try t.meta.encodedFile(), cipher: cipher, chunksPerBatch: configuration.chunksPerBatch)
            var sinks: [Int: any FragmentSink] = [:]
            var ids: [Int: String] = [:]
            for i in targets {
                let id = Hex.encode(Random.bytes(16))
                ids[i] = id
                sinks[i] = BlobberUploadSink(connection: conns[i], upload: id)
            }
            var sources: [Int: any FragmentSource] = [:]
            for i in t.holders { sources[i] = BlobberFragmentSource(connection: conns[i], path: path) }
            do {
                let r = try await decoder.rebuild(sinks, from: sources)
                for i in targets {
                    if let why = r.failedSinks[i] { report.failed[i] = why } else { uploads[i, default: [:]][path] = ids[i] }
                }
            } catch {
                for i in targets { report.failed[i] = "rebuilding \(path): \(Self.reason(error))" }
            }
            // Commit rebuilt fragments in batches: a blobber keeps a bounded number of uncommitted
            // uploads per allocation (BlobberServer.Configuration.maxOpenUploads, 1024 by default).
            for i in targets where (uploads[i]?.count ?? 0) >= max(1, configuration.repairBatch) {
                let pending = uploads[i] ?? [:]
                uploads[i] = nil
                let agreed = truth
                do {
                    let applied = try await commit(conns[i], allocation: a) { current in
                        Self.rebuiltPuts(current: current, agreed: agreed, rebuilt: pending)
                    }
                    for ch in applied.changes where ch.uploadID != nil { if let m = ch.meta { report.repaired.append((i, m.path)) } }
                } catch {
                    report.failed[i] = "committing rebuilt files: \(Self.reason(error))"
                }
            }
        }
        // One commit per blobber: drop what the others do not have, add what it lacks.
        let agreed = truth
        let rebuilt = uploads
        let results = await withTaskGroup(of: (Int, [(String, Bool)]?, String?).self) { group in
            for i in files.keys {
                let c = conns[i]
                group.addTask {
                    do {
                        let applied = try await self.commit(c, allocation: a) { current in
                            var changes: [BlobberWire.Change] = []
                            var gone = Set<String>()
                            for (path, m) in current.sorted(by: { $0.key < $1.key }) where agreed[path]?.meta.hash != m.hash {
                                if gone.contains(where: { RemotePath.isWithin(path, folder: $0) }) { continue }
                                changes.append(.delete(path))
                                gone.insert(path)
                            }
                            for (path, t) in agreed.sorted(by: { $0.key < $1.key }) {
                                let present =
                                    current[path]?.hash == t.meta.hash && !gone.contains(where: { RemotePath.isWithin(path, folder: $0) })
                                if present { continue }
                                if t.meta.kind == .file && t.meta.fragmentLength > 0 {
                                    guard let id = rebuilt[i]?[path] else { continue }
                                    changes.append(.put(t.meta, uploadID: id))
                                } else {
                                    changes.append(.put(t.meta))
                                }
                            }
                            return changes
                        }
                        let done: [(String, Bool)] = applied.changes.compactMap { ch in
                            if ch.op == .put, let m = ch.meta { return (m.path, true) }
                            if let p = ch.path, agreed[p] == nil { return (p, false) }
                            return nil
                        }
                        return (i, done, nil)
                    } catch {
                        return (i, nil, Self.reason(error))
                    }
                }
            }
            var out: [(Int, [(String, Bool)]?, String?)] = []
            for await r in group { out.append(r) }
            return out
        }
        for (i, done, e) in results {
            if let e {
                report.failed[i] = e
                continue
            }
            for (path, added) in done ?? [] {
                if added { report.repaired.append((i, path)) } else { report.removed.append((i, path)) }
            }
        }
        clearRepairs(a.id, blobbers: Set(files.keys).subtracting(report.failed.keys))
        return report
    }

    /// The puts of a batch of `rebuilt` uploads (path → upload id) on a blobber holding `current`:
    /// each agreed version it lacks, over an older version of the same file, with the agreed
    /// folders above it that are missing. Paths whose place is taken by something else (a folder
    /// where a file goes, a file where a folder goes) are left to the final commit, which deletes first.
    static func rebuiltPuts(
        current: [String: FileMeta], agreed: [String: (meta: FileMeta, holders: [Int])],
        rebuilt: [String: String]
    ) -> [BlobberWire.Change] {
        var changes: [BlobberWire.Change] = []
        var added = Set<String>()
        for (path, id) in rebuilt.sorted(by: { $0.key < $1.key }) {
            guard let t = agreed[path] else { continue }
            if let have = current[path] {
                guard have.hash != t.meta.hash, have.kind == .file else { continue }
            }
            var folders: [FileMeta] = []
            var fits = true
            for ancestor in RemotePath.ancestors(path) where !added.contains(ancestor) {
                if let have = current[ancestor] {
                    if have.kind != .directory { fits = false }
                } else if let f = agreed[ancestor], f.meta.kind == .directory {
                    folders.append(f.meta)
                } else {
                    fits = false
                }
            }
            guard fits else { continue }
            for f in folders {
                changes.append(.put(f))
                added.insert(f.path)
            }
            changes.append(.put(t.meta, uploadID: id, replace: current[path] != nil))
        }
        return changes
    }
}
