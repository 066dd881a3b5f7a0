import Foundation
import Glibc
import MosaicCrypto
import MosaicErrors
import MosaicStorageCore
import Synchronization

extension StorageClient {
    /// Uploads a local folder tree into `remote`: every regular file (nested folders, empty files,
    /// any Unicode name), and the empty folders; symbolic links are not followed (named in
    /// `skipped`). Files go `concurrency` at a time, each with the bounded memory of one upload.
    /// A file that fails is named in `failed` and the rest go on. Each file's signed metadata
    /// records its local mtime, so a later `sync` can tell what changed.
    ///
    /// Resumable: finished files are logged under `$MOSAIC_HOME/folders/`, and a remote file with
    /// the local size and mtime (or, when in doubt, the same content) is not sent again; the file
    /// in flight at a kill continues from its own upload journal.
    /// - Parameters:
    ///   - local: the local folder.
    ///   - remote: the remote folder ("/" for the top); created when missing.
    ///   - a: the allocation.
    ///   - replace: send files that exist remotely with other content (else they are conflicts).
    ///   - concurrency: files in flight at once (1–64).
    ///   - progress: called as files and bytes move.
    /// - Returns: what was sent and what failed.
    /// - Throws: `StorageClientError` for what stops the whole folder: `.localFile` (not a
    ///   folder), `.notAFile` (`remote` is a file), `.expired`, a listing that fails or does not
    ///   check out; `StorageRequestError` for a malformed `remote`.
    public func uploadFolder(
        _ local: URL, to remote: String, allocation a: StorageAllocation, replace: Bool = false, concurrency: Int = 4,
        progress: (@Sendable (FolderProgress) -> Void)? = nil
    ) async throws -> FolderUploadResult {
        try await transferFolder(
            local, to: remote, allocation: a, replace: replace, delete: false, dryRun: false, concurrency: concurrency,
            progress: progress)
    }

    /// Makes `remote` match a local folder: sends new files and changed ones (judged by size and
    /// mtime, then by content hash when the size matches but the mtime does not), creates the
    /// empty folders, and with `delete` removes remote files and folders gone locally. With
    /// nothing changed it writes nothing (no write marker). A file that changes while it is sent
    /// is tried once more, then left out and named in `changedDuringUpload`. `dryRun` returns the
    /// plan and writes nothing. Resumable like `uploadFolder`.
    /// - Parameters:
    ///   - local: the local folder.
    ///   - remote: the remote folder ("/" for the top).
    ///   - a: the allocation.
    ///   - delete: remove remote entries that are not in the local folder.
    ///   - dryRun: only plan.
    ///   - concurrency: files in flight at once (1–64).
    ///   - progress: called as files and bytes move.
    /// - Returns: the plan and what was done.
    /// - Throws: as `uploadFolder`.
    public func syncFolder(
        _ local: URL, to remote: String, allocation a: StorageAllocation, delete: Bool = false, dryRun: Bool = false,
        concurrency: Int = 4, progress: (@Sendable (FolderProgress) -> Void)? = nil
    ) async throws -> FolderUploadResult {
        try await transferFolder(
            local, to: remote, allocation: a, replace: true, delete: delete, dryRun: dryRun, concurrency: concurrency,
            progress: progress)
    }

    /// Downloads every file below `remote` into the local folder `local`, mirroring the tree
    /// (empty folders included), `concurrency` files at a time. Each file is written beside its
    /// target and renamed into place only when complete, and gets the remote mtime; a local file
    /// already complete (same size and mtime, or same content) is not fetched again, so a run
    /// after a kill continues. A local file with other content is a failure unless `replace`.
    /// - Parameters:
    ///   - remote: the remote folder ("/" for the top).
    ///   - local: the local folder (created when missing).
    ///   - a: the allocation.
    ///   - replace: overwrite local files with other content.
    ///   - concurrency: files in flight at once (1–64).
    ///   - progress: called as files and bytes move.
    /// - Returns: what was fetched and what failed.
    /// - Throws: `StorageClientError` — `.notFound` when `remote` does not exist, `.invalidPath`
    ///   when it is a file, `.localFile` when `local` cannot be made a folder, a listing error.
    public func downloadFolder(
        _ remote: String, to local: URL, allocation a: StorageAllocation, replace: Bool = false, concurrency: Int = 4,
        progress: (@Sendable (FolderProgress) -> Void)? = nil
    ) async throws -> FolderDownloadResult {
        guard let index = try await remoteIndex(remote, allocation: a) else { throw StorageClientError.notFound(path: remote) }
        let base = remote == "/" ? "" : remote
        var folders: [String] = []
        var files: [(rel: String, meta: FileMeta)] = []
        for (path, m) in index.sorted(by: { $0.key < $1.key }) where path != remote {
            let rel = String(path.dropFirst(base.count + 1))
            if m.kind == .directory { folders.append(rel) } else { files.append((rel, m)) }
        }
        let root = local.standardizedFileURL
        var created: [String] = []
        if try ensureLocalFolder(root.path) { created.append("") }
        var failed: [FolderIssue] = []
        for f in folders {
            do { if try ensureLocalFolder(root.path + "/" + f) { created.append(f) } } catch {
                failed.append(Self.issue(f, error))
            }
        }
        // Decide what is already complete: size and mtime, else the content hash when sizes match.
        let checked = await Self.bounded(files, width: concurrency) { f -> Bool in
            let path = root.path + "/" + f.rel
            var st = Glibc.stat()
            guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, Int64(st.st_size) == f.meta.size else { return false }
            if Int64(st.st_mtim.tv_sec) == f.meta.modified { return true }
            guard await self.localFile(URL(fileURLWithPath: path), matches: f.meta) else { return false }
            Self.setModified(path, f.meta.modified)
            return true
        }
        var unchanged: [String] = []
        var wanted: [(rel: String, meta: FileMeta)] = []
        for (i, f) in files.enumerated() {
            let path = root.path + "/" + f.rel
            if checked[i] {
                unchanged.append(f.rel)
            } else if !replace, FileManager.default.fileExists(atPath: path) {
                failed.append(
                    FolderIssue(
                        path: f.rel, code: StorageClientError.alreadyExists(path: "").code,
                        message: "\(path) exists with other content; move it away, or download with --replace"))
            } else {
                wanted.append(f)
            }
        }
        let tracker = FolderProgressTracker(files: wanted.count, bytes: wanted.reduce(0) { $0 &+ $1.meta.size }, report: progress)
        let outcomes = await Self.bounded(Array(wanted.enumerated()), width: concurrency) { item -> (Int64, FolderIssue?) in
            let (i, f) = item
            let path = root.path + "/" + f.rel
            do {
                try self.ensureParents(of: f.rel, root: root.path)
                let r = try await self.download(remotePath: f.meta.path, to: URL(fileURLWithPath: path), allocation: a) { p in
                    tracker.moved(i, bytes: p.bytes)
                }
                Self.setModified(path, f.meta.modified)
                tracker.finished(i, bytes: r.bytesWritten)
                return (r.bytesWritten, nil)
            } catch {
                tracker.finished(i, bytes: 0)
                return (0, Self.issue(f.rel, error))
            }
        }
        var downloaded: [String] = []
        var bytes: Int64 = 0
        for (i, o) in outcomes.enumerated() {
            if let e = o.1 { failed.append(e) } else { downloaded.append(wanted[i].rel) }
            bytes &+= o.0
        }
        return FolderDownloadResult(
            downloaded: downloaded, unchanged: unchanged, createdFolders: created, failed: failed.sorted { $0.path < $1.path },
            bytesWritten: bytes)
    }

    /// The checked state root of each blobber that answers (blobber index → hex root): a write
    /// changes it, so equal roots before and after show that nothing was written.
    /// - Parameter a: the allocation.
    /// - Returns: blobber index → root; blobbers that fail or do not check out are left out.
    public func blobberRoots(allocation a: StorageAllocation) async -> [Int: String] {
        let roots = Mutex<[Int: String]>([:])
        _ = await forEach(connections(a)) { c in
            let s = try await self.checkedState(c, allocation: a)
            roots.withLock { $0[c.index] = s.root }
        }
        return roots.withLock { $0 }
    }

    // MARK: The upload side

    private func transferFolder(
        _ local: URL, to remote: String, allocation a: StorageAllocation, replace: Bool, delete: Bool, dryRun: Bool,
        concurrency: Int, progress: (@Sendable (FolderProgress) -> Void)?
    ) async throws -> FolderUploadResult {
        if remote != "/" { try RemotePath.validate(remote) }
        if !dryRun { try checkWritable(a) }
        let root = local.standardizedFileURL
        let tree = try LocalTree(walking: root)
        let journal = FolderJournal(home: home, allocation: a.id, local: root, remote: remote)
        let index = try await remoteIndex(remote, allocation: a) ?? [:]
        let plan = await plan(tree, remote: remote, index: index, journal: journal.finished(), replace: replace, delete: delete)
        if dryRun {
            return FolderUploadResult(
                plan: plan, uploaded: [], createdFolders: [], deleted: [], failed: plan.conflicts, changedDuringUpload: [],
                skipped: tree.skipped, degraded: [], bytesSent: 0, writes: 0, dryRun: true)
        }
        var failed = plan.conflicts
        var writes = 0
        var deleted: [String] = []
        // Every removal in one commit per blobber (the plan holds only the topmost paths).
        if !plan.deletes.isEmpty {
            let gone = plan.deletes
            do {
                let r = try await commitAll(
                    a, indices: Array(0..<a.totalShards), quorum: a.writeQuorum, path: gone[0],
                    build: { _, files in gone.filter { files[$0] != nil }.map { .delete($0) } })
                // A blobber that missed the commit missed every removal (commitAll noted the first).
                if !r.failed.isEmpty { recordRepairs(a, paths: gone.dropFirst().map { ($0, r.failed) }) }
                deleted = gone
                writes += 1
            } catch {
                for path in gone { failed.append(Self.issue(path, error)) }
            }
        }
        var createdFolders: [String] = []
        for path in plan.folders {
            do {
                try await mkdir(path, allocation: a)
                createdFolders.append(path)
                writes += 1
            } catch { failed.append(Self.issue(path, error)) }
        }
        let tracker = FolderProgressTracker(files: plan.uploads.count, bytes: plan.bytes, report: progress)
        // An allocation-wide refusal (full, expired) stops new files: each would fail the same way.
        let stop = Mutex<FolderIssue?>(nil)
        let allocationWide: Set<String> = [
            StorageClientError.full("").code, StorageClientError.expired(allocation: "", at: 0).code,
        ]
        let uploads = plan.uploads
        @Sendable func notSent(_ i: Int, _ why: FolderIssue) -> FileOutcome {
            tracker.finished(i, bytes: 0)
            return .failed(FolderIssue(path: uploads[i].file.relativePath, code: why.code, message: "not sent: \(why.message)"))
        }
        var outcomes = [FileOutcome](repeating: .alreadyThere, count: plan.uploads.count)
        // Small files go in batches (one commit per blobber for each), the others one by one.
        var small: [Int] = []
        var large: [Int] = []
        for (i, u) in plan.uploads.enumerated() {
            if u.file.size <= Self.batchFileBytes { small.append(i) } else { large.append(i) }
        }
        await discardLeftoverUploads(allocation: a, journal: journal)
        var batched = Set<Int>()
        var start = 0
        while start < small.count {
            var end = start
            var bytes: Int64 = 0
            while end < small.count, end - start < Self.batchMaxFiles,
                end == start || bytes + plan.uploads[small[end]].file.size <= Self.batchMaxBytes
            {
                bytes += plan.uploads[small[end]].file.size
                end += 1
            }
            let members = Array(small[start..<end])
            start = end
            if let why = stop.withLock({ $0 }) {
                for i in members { outcomes[i] = notSent(i, why) }
                continue
            }
            var batch: [BatchFile] = []
            var inBatch: [Int] = []
            for i in members {
                let u = plan.uploads[i]
                guard let stamp = SourceStamp(path: root.path + "/" + u.file.relativePath) else {
                    tracker.finished(i, bytes: 0)
                    outcomes[i] = .failed(
                        FolderIssue(path: u.file.relativePath, code: "local_file", message: "it disappeared or cannot be read"))
                    continue
                }
                batch.append(
                    BatchFile(
                        local: URL(fileURLWithPath: root.path + "/" + u.file.relativePath), remotePath: u.remotePath,
                        existing: index[u.remotePath], replace: u.reason == .changed, stamp: stamp))
                inBatch.append(i)
            }
            let sent = inBatch
            let (results, commits) = await uploadBatch(batch, allocation: a, concurrency: concurrency, journal: journal) { k, done in
                tracker.moved(sent[k], bytes: done)
            }
            writes += commits
            var again: [Int] = []
            for (k, r) in results.enumerated() {
                let i = inBatch[k]
                let u = plan.uploads[i]
                switch r {
                case .sent(let degraded):
                    journal.record(
                        .init(path: u.file.relativePath, size: batch[k].stamp.size, mtimeNanoseconds: batch[k].stamp.mtimeNanoseconds))
                    tracker.finished(i, bytes: u.file.size)
                    outcomes[i] = .sent(degraded: degraded)
                    batched.insert(i)
                case .alone:
                    again.append(i)
                case .failed(let e):
                    let issue = Self.folderIssue(u, e)
                    if allocationWide.contains(issue.code) { stop.withLock { $0 = $0 ?? issue } }
                    tracker.finished(i, bytes: 0)
                    outcomes[i] = .failed(issue)
                }
            }
            // What the batch could not take goes alone (a change is tried once more there).
            for i in again {
                let o = await self.uploadOne(plan.uploads[i], root: root, allocation: a, journal: journal) { tracker.moved(i, bytes: $0) }
                if case .sent = o { tracker.finished(i, bytes: plan.uploads[i].file.size) } else { tracker.finished(i, bytes: 0) }
                outcomes[i] = o
            }
        }
        let singles = await Self.bounded(large, width: concurrency) { i -> FileOutcome in
            let u = plan.uploads[i]
            if let why = stop.withLock({ $0 }) { return notSent(i, why) }
            let o = await self.uploadOne(u, root: root, allocation: a, journal: journal) { tracker.moved(i, bytes: $0) }
            if case .failed(let e) = o, allocationWide.contains(e.code) { stop.withLock { $0 = $0 ?? e } }
            if case .sent = o { tracker.finished(i, bytes: u.file.size) } else { tracker.finished(i, bytes: 0) }
            return o
        }
        for (k, i) in large.enumerated() { outcomes[i] = singles[k] }
        var uploaded: [String] = []
        var changed: [String] = []
        var degraded: [String] = []
        var bytes: Int64 = 0
        for (i, o) in outcomes.enumerated() {
            let u = plan.uploads[i]
            switch o {
            case .sent(let wasDegraded):
                uploaded.append(u.file.relativePath)
                if wasDegraded { degraded.append(u.file.relativePath) }
                bytes &+= u.file.size
                if !batched.contains(i) { writes += 1 }
            case .alreadyThere: break
            case .changed:
                changed.append(u.file.relativePath)
                failed.append(
                    FolderIssue(
                        path: u.file.relativePath, code: StorageClientError.changedDuringUpload(path: "").code,
                        message: "changed while it was being sent (twice); nothing was committed for it, run again once it is stable"))
            case .failed(let e): failed.append(e)
            }
        }
        if failed.isEmpty { journal.remove() } else { journal.close() }
        return FolderUploadResult(
            plan: plan, uploaded: uploaded, createdFolders: createdFolders, deleted: deleted, failed: failed.sorted { $0.path < $1.path },
            changedDuringUpload: changed, skipped: tree.skipped, degraded: degraded, bytesSent: bytes, writes: writes, dryRun: false)
    }

    private enum FileOutcome: Sendable {
        case sent(degraded: Bool)
        case alreadyThere
        case changed
        case failed(FolderIssue)
    }

    /// Sends one planned file, with its stamp checked just before the commit; a change during
    /// the send is tried once more. Recorded in the folder journal once committed.
    private func uploadOne(
        _ u: FolderPlan.Upload, root: URL, allocation a: StorageAllocation, journal: FolderJournal,
        moved: @escaping @Sendable (Int64) -> Void
    ) async -> FileOutcome {
        let url = URL(fileURLWithPath: root.path + "/" + u.file.relativePath)
        for attempt in 1...2 {
            guard let stamp = SourceStamp(path: url.path) else {
                return .failed(FolderIssue(path: u.file.relativePath, code: "local_file", message: "it disappeared or cannot be read"))
            }
            do {
                // A file planned as new that a kill left committed on some blobbers only is
                // committed again by `upload` when it is this content (see there).
                let r = try await upload(
                    localFile: url, remotePath: u.remotePath, allocation: a, contentType: nil, replace: u.reason == .changed,
                    keyWrapping: .owner(key), modified: Self.seconds(stamp.mtimeNanoseconds), expectedSource: stamp
                ) { p in moved(p.bytes) }
                journal.record(.init(path: u.file.relativePath, size: stamp.size, mtimeNanoseconds: stamp.mtimeNanoseconds))
                return .sent(degraded: r.degraded)
            } catch StorageClientError.changedDuringUpload {
                if attempt == 2 { return .changed }
            } catch StorageClientError.alreadyExists where u.reason == .new {
                return .failed(
                    FolderIssue(
                        path: u.file.relativePath, code: StorageClientError.alreadyExists(path: "").code,
                        message:
                            "\(u.remotePath) appeared with other content while the folder was sent; upload with --replace, or use 'mosaic sync'"
                    ))
            } catch {
                return .failed(Self.issue(u.file.relativePath, error))
            }
        }
        return .changed
    }

    /// The folder summary's line for a file of a batch that failed (as `uploadOne` words it).
    private static func folderIssue(_ u: FolderPlan.Upload, _ e: StorageClientError) -> FolderIssue {
        if case .alreadyExists = e, u.reason == .new {
            return FolderIssue(
                path: u.file.relativePath, code: e.code,
                message:
                    "\(u.remotePath) appeared with other content while the folder was sent; upload with --replace, or use 'mosaic sync'")
        }
        return issue(u.file.relativePath, e)
    }

    /// Decides what to send, create and delete. Reads only (content hashes of files in doubt).
    private func plan(
        _ tree: LocalTree, remote: String, index: [String: FileMeta], journal: [String: FolderJournal.Entry], replace: Bool,
        delete: Bool
    ) async -> FolderPlan {
        var plan = FolderPlan()
        let base = remote == "/" ? "" : remote
        func remotePath(_ rel: String) -> String { base + "/" + rel }
        var doubt: [(file: LocalTree.File, meta: FileMeta)] = []
        func changed(_ f: LocalTree.File, _ path: String) {
            if replace {
                plan.uploads.append(.init(file: f, remotePath: path, reason: .changed))
            } else {
                plan.conflicts.append(
                    FolderIssue(
                        path: f.relativePath, code: StorageClientError.alreadyExists(path: "").code,
                        message: "\(path) exists with other content; upload with --replace, or use 'mosaic sync'"))
            }
        }
        for f in tree.files {
            let path = remotePath(f.relativePath)
            do { try RemotePath.validate(path) } catch {
                plan.conflicts.append(Self.issue(f.relativePath, error))
                continue
            }
            guard let m = index[path] else {
                plan.uploads.append(.init(file: f, remotePath: path, reason: .new))
                continue
            }
            if m.kind == .directory {
                plan.conflicts.append(
                    FolderIssue(
                        path: f.relativePath, code: StorageClientError.notAFile(path: "").code,
                        message: "\(path) is a folder remotely but a file here; remove one of them"))
            } else if m.size != f.size {
                changed(f, path)
            } else if m.modified == f.modified {
                // Same size and mtime. The journal, when it has the file, knows the nanoseconds:
                // a rewrite within the same second is caught there.
                if let j = journal[f.relativePath] {
                    if let now = SourceStamp(path: tree.root.path + "/" + f.relativePath), now.mtimeNanoseconds == j.mtimeNanoseconds {
                        plan.unchanged.append(f.relativePath)
                        plan.resumed += 1
                    } else {
                        doubt.append((f, m))
                    }
                } else {
                    plan.unchanged.append(f.relativePath)
                }
            } else {
                doubt.append((f, m))
            }
        }
        let root = tree.root.path
        let same = await Self.bounded(doubt, width: 4) { d in
            await self.localFile(URL(fileURLWithPath: root + "/" + d.file.relativePath), matches: d.meta)
        }
        for (i, d) in doubt.enumerated() {
            if same[i] { plan.unchanged.append(d.file.relativePath) } else { changed(d.file, remotePath(d.file.relativePath)) }
        }
        plan.uploads.sort { $0.remotePath < $1.remotePath }
        plan.unchanged.sort()

        // Empty local folders that are missing remotely (uploads create the others' parents).
        var withFiles = Set<String>()
        for f in tree.files {
            var p = f.relativePath
            while let slash = p.lastIndex(of: "/") {
                p = String(p[..<slash])
                if !withFiles.insert(p).inserted { break }
            }
        }
        for dir in tree.folders where !withFiles.contains(dir) {
            let path = remotePath(dir)
            switch index[path]?.kind {
            case nil: plan.folders.append(path)
            case .directory: break
            case .file:
                plan.conflicts.append(
                    FolderIssue(
                        path: dir, code: StorageClientError.alreadyExists(path: "").code,
                        message: "\(path) is a file remotely but a folder here; remove one of them"))
            }
        }
        if remote != "/", index[remote] == nil, tree.files.isEmpty, tree.folders.isEmpty { plan.folders.append(remote) }

        if delete {
            let files = Set(tree.files.map(\.relativePath))
            let folders = Set(tree.folders)
            var gone: [String] = []
            for (path, m) in index.sorted(by: { $0.key < $1.key }) where path != remote {
                let rel = String(path.dropFirst(base.count + 1))
                let present =
                    m.kind == .directory ? folders.contains(rel) || files.contains(rel) : files.contains(rel) || folders.contains(rel)
                if present { continue }
                if let last = gone.last, RemotePath.isWithin(path, folder: last) { continue }
                gone.append(path)
            }
            plan.deletes = gone
        }
        return plan
    }

    /// Every entry at and below `remote` by path (the folder itself included), nil when it does
    /// not exist. A file at `remote` is refused: a folder operation needs a folder.
    func remoteIndex(_ remote: String, allocation a: StorageAllocation) async throws -> [String: FileMeta]? {
        var out: [String: FileMeta] = [:]
        if remote != "/" {
            let top: FileMeta
            do { top = try await resolve(remote, allocation: a).meta } catch StorageClientError.notFound { return nil }
            guard top.kind == .directory else {
                throw StorageClientError.invalidPath("\(remote) is a file, not a folder; name a folder, or use the command without -r")
            }
            out[remote] = top
        }
        let below: [FileMeta]
        do { below = try await listRecursive(remote, allocation: a) } catch StorageClientError.notFound where remote == "/" { below = [] }
        for m in below { out[m.path] = m }
        return out
    }

    /// True when the local file has exactly the content `meta` describes: sealed under the
    /// file's own key and nonce prefix and erasure-coded, it gives the same fragment roots (the
    /// owner-signed content hash). Nothing is sent; false when this wallet cannot open the key.
    func localFile(_ url: URL, matches meta: FileMeta) async -> Bool {
        guard meta.kind == .file, let st = SourceStamp(path: url.path), st.size == meta.size else { return false }
        if meta.size == 0 { return true }
        guard meta.cipher == FileMeta.aesGCMCipher, let wrapped = Hex.decode(meta.wrappedKey), let prefix = Hex.decode(meta.noncePrefix),
            let contentKey = try? SealedBox.open(wrapped, with: key),
            let cipher = try? AESGCMSegmentCipher(key: contentKey, noncePrefix: prefix, fileSize: meta.size),
            let encoder = try? FileEncoder(
                dataShards: meta.dataShards, parityShards: meta.parityShards, cipher: cipher, chunksPerBatch: configuration.chunksPerBatch)
        else { return false }
        let sinks: [any FragmentSink] = (0..<(meta.dataShards + meta.parityShards)).map { _ in DiscardingSink() }
        guard let r = try? await encoder.encode(fileAt: url.path, to: sinks, minimumSinks: sinks.count),
            r.file.layout.fileSize == meta.size
        else { return false }
        return r.file.fragmentRoots.map { Hex.encode($0) } == meta.fragmentRoots
    }

    // MARK: Helpers

    /// Runs `body` over `items`, at most `width` at once; results in the order of `items`.
    static func bounded<T: Sendable, R: Sendable>(
        _ items: [T], width: Int, _ body: @escaping @Sendable (T) async -> R
    ) async -> [R] {
        let width = min(max(1, width), 64)
        var out = [R?](repeating: nil, count: items.count)
        await withTaskGroup(of: (Int, R).self) { group in
            var next = 0
            while next < items.count && next < width {
                let i = next
                group.addTask { (i, await body(items[i])) }
                next += 1
            }
            while let (i, r) = await group.next() {
                out[i] = r
                if next < items.count {
                    let j = next
                    group.addTask { (j, await body(items[j])) }
                    next += 1
                }
            }
        }
        return out.compactMap { $0 }
    }

    static func issue(_ path: String, _ error: any Error) -> FolderIssue {
        FolderIssue(path: path, code: errorCode(of: error), message: "\(error)")
    }

    /// Unix seconds of a nanosecond time, rounded down.
    static func seconds(_ ns: Int64) -> Int64 {
        ns >= 0 ? ns / 1_000_000_000 : -((-(ns + 1)) / 1_000_000_000) - 1
    }

    static func setModified(_ path: String, _ seconds: Int64) {
        var times = [timespec(tv_sec: Int(seconds), tv_nsec: 0), timespec(tv_sec: Int(seconds), tv_nsec: 0)]
        _ = utimensat(AT_FDCWD, path, &times, 0)
    }

    /// Makes `path` a folder; true when it was created. An entry there that is not a folder (a
    /// file, a symbolic link) is refused rather than followed.
    func ensureLocalFolder(_ path: String) throws -> Bool {
        var st = Glibc.stat()
        if lstat(path, &st) == 0 {
            guard (st.st_mode & S_IFMT) == S_IFDIR else {
                throw StorageClientError.localFile(path: path, reason: "it exists and is not a folder (links are not followed)")
            }
            return false
        }
        guard Glibc.mkdir(path, 0o755) == 0 || errno == EEXIST else {
            throw StorageClientError.localFile(path: path, reason: String(cString: strerror(errno)))
        }
        return true
    }

    /// Makes every folder between `root` and the file `rel`.
    func ensureParents(of rel: String, root: String) throws {
        var path = root
        for part in rel.split(separator: "/").dropLast() {
            path += "/" + part
            _ = try ensureLocalFolder(path)
        }
    }
}

/// A fragment sink that keeps nothing: encoding into it gives only the fragment roots.
struct DiscardingSink: FragmentSink {
    func write(_ bytes: [UInt8], at offset: Int64) async throws {}
    func write(fragment bytes: FragmentBytes, at offset: Int64) async throws {}
    func finish(length: Int64, root: [UInt8]) async throws {}
}
