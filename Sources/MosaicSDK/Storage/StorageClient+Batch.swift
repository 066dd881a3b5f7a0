import Foundation
import MosaicCrypto
import MosaicStorageCore
import Synchronization

/// One small file of a folder transfer, sent in a batch with others.
struct BatchFile: Sendable {
    let local: URL
    let remotePath: String
    /// The remote entry the plan saw (nil: none); replacing it frees its space.
    let existing: FileMeta?
    let replace: Bool
    /// The source as planned; it must still be so when its bytes have been read.
    let stamp: SourceStamp
}

/// What became of one file of a batch.
enum BatchOutcome: Sendable {
    case sent(degraded: Bool)
    /// Nothing was committed for it and the caller sends it alone: it changed while it was read,
    /// or some blobber holds another file at its path (maybe this one, from a run a kill cut
    /// short, which the single upload recognises by content and completes).
    case alone
    case failed(StorageClientError)
}

extension StorageClient {
    /// Files up to this size travel in batches: for them the round trips of a commit (a state
    /// read, a signed marker, an fsync'd transaction on each blobber, a marker on the ledger)
    /// cost more than their bytes.
    public static let batchFileBytes: Int64 = 256 << 10
    /// A batch closes at this many files or bytes (the commit body stays far below the
    /// blobbers' 16 MiB and 20,000 changes, and a kill loses at most one batch of work).
    public static let batchMaxFiles = 128
    public static let batchMaxBytes: Int64 = 8 << 20

    /// Sends small files with one commit (one write marker) per blobber for all of them, instead
    /// of one per file: each file's fragments go up `concurrency` files at a time over the
    /// kept-alive connections, then every blobber applies the whole batch in one transaction.
    /// A file counts as written when d blobbers committed it, as for `upload`; a file that
    /// another writer put in the way, or that changed while it was read, is left out without
    /// failing the rest.
    ///
    /// The random upload ids are noted in `journal` before any byte goes out, so uploads that a
    /// kill leaves uncommitted are dropped by the next run (`discardLeftoverUploads`) instead of
    /// holding blobber space for a week.
    func uploadBatch(
        _ files: [BatchFile], allocation a: StorageAllocation, concurrency: Int, journal: FolderJournal,
        moved: @escaping @Sendable (Int, Int64) -> Void
    ) async -> (outcomes: [BatchOutcome], commits: Int) {
        let conns = connections(a)
        var needed: Int64 = 0
        var freed: Int64 = 0
        for f in files {
            guard
                let layout = try? FileLayout(
                    fileSize: f.stamp.size, dataShards: a.dataShards, parityShards: a.parityShards, cipherOverhead: AES256GCM.tagCount)
            else { return (files.map { _ in .failed(.invalidPath("a file of the batch has an impossible size")) }, 0) }
            needed = needed.addingReportingOverflow(layout.fragmentLength).partialValue
            freed = freed.addingReportingOverflow(f.existing?.fragmentLength ?? 0).partialValue
        }
        // One state read per blobber for the whole batch: room for all of it, and who answers.
        let down: [Int: SinkFailure]
        do {
            down = try await checkRoom(
                conns, allocation: a, needed: needed, freed: freed, what: "a batch of \(files.count) files",
                path: files.first?.remotePath ?? "/")
        } catch let e as StorageClientError {
            return (files.map { _ in .failed(e) }, 0)
        } catch {
            return (files.map { _ in .failed(.unreadable(path: files.first?.remotePath ?? "/", reason: "\(error)")) }, 0)
        }

        let bases = files.map { _ in Hex.encode(Random.bytes(16)) }
        journal.beginBatch(bases)
        let wrapping = ContentKeyWrapping.owner(key)
        let sent = await Self.bounded(Array(files.enumerated()), width: concurrency) { item -> Result<Prepared, BatchFailure> in
            let (k, f) = item
            return await self.prepare(f, base: bases[k], allocation: a, conns: conns, down: down, wrapping: wrapping) { moved(k, $0) }
        }

        // Parent folders once for the batch, shallowest first.
        var dirs = Set<String>()
        for case .success(let p) in sent { dirs.formUnion(RemotePath.ancestors(p.meta.path)) }
        let parents = dirs.sorted().map { path in
            var m = FileMeta.directory(allocationID: a.id, path: path, time: 0, ownerID: key.publicKey.clientID)
            m.sign(with: key)
            return m
        }
        let taken = Mutex<[Int: [Int]]>([:])
        let refused = Mutex<[Int: [Int: StorageClientError]]>([:])
        let committing = conns.filter { c in down[c.index] == nil && sent.contains { (try? $0.get())?.stored.contains(c.index) == true } }
        let failures = await forEach(committing) { c in
            _ = try await self.commit(c, allocation: a) { remote in
                var changes: [BlobberWire.Change] = parents.filter { remote[$0.path] == nil }.map { .put($0) }
                var took: [Int] = []
                var out: [Int: StorageClientError] = [:]
                for (k, r) in sent.enumerated() {
                    guard case .success(let p) = r, p.stored.contains(c.index) else { continue }
                    var replace = files[k].replace
                    if let old = remote[p.meta.path] {
                        guard old.kind == .file else {
                            out[k] = .notAFile(path: p.meta.path)
                            continue
                        }
                        // A file the plan did not see, with this size and mtime, is this file left
                        // on this blobber by a run a kill cut short: it is replaced.
                        if !replace {
                            guard old.size == p.meta.size, old.modified == p.meta.modified else {
                                out[k] = .alreadyExists(path: p.meta.path)
                                continue
                            }
                            replace = true
                        }
                    }
                    changes.append(.put(p.meta, uploadID: p.meta.fragmentLength > 0 ? p.uploadIDs[c.index] : nil, replace: replace))
                    took.append(k)
                }
                // The build runs again when another write moved the root: keep only its last word.
                taken.withLock { $0[c.index] = took }
                refused.withLock { $0[c.index] = out }
                return changes
            }
        }
        let tookBy = taken.withLock { $0 }
        let refusedBy = refused.withLock { $0 }

        var outcomes: [BatchOutcome] = []
        var repairs: [(path: String, failed: [Int: String])] = []
        var undo: [Int: [String]] = [:]
        var unused: [Int: [String]] = [:]
        for (k, r) in sent.enumerated() {
            let p: Prepared
            switch r {
            case .success(let prepared): p = prepared
            case .failure(let failure):
                // Whatever it sent before it stopped is dropped now, not left open for a week.
                for c in conns where down[c.index] == nil {
                    unused[c.index, default: []].append(BlobberUploadSink.uploadID(bases[k], blobber: c.blobber.id))
                }
                switch failure {
                case .changed: outcomes.append(.alone)
                case .error(let e): outcomes.append(.failed(e))
                }
                continue
            }
            var committedOn: [Int] = []
            var missed: [Int: SinkFailure] = [:]
            for i in 0..<a.totalShards {
                if let why = down[i] {
                    missed[i] = why
                } else if let why = p.failedSinks[i] {
                    missed[i] = SinkFailure(code: "upload_failed", message: why)
                } else if let why = failures[i] {
                    missed[i] = why
                } else if let why = refusedBy[i]?[k] {
                    missed[i] = Self.failure(why)
                } else if tookBy[i]?.contains(k) == true {
                    committedOn.append(i)
                } else {
                    missed[i] = SinkFailure(code: "skipped", message: "skipped (failed earlier)")
                }
                if !committedOn.contains(i), p.stored.contains(i), p.meta.fragmentLength > 0 {
                    unused[i, default: []].append(p.uploadIDs[i])
                }
            }
            let inTheWay = refusedBy.values.contains { r in
                if case .alreadyExists = r[k] { return true }
                return false
            }
            if inTheWay {
                for i in committedOn { undo[i, default: []].append(p.meta.path) }
                outcomes.append(.alone)
            } else if committedOn.count >= a.dataShards {
                outcomes.append(.sent(degraded: committedOn.count < a.writeQuorum))
                if !missed.isEmpty { repairs.append((p.meta.path, missed.mapValues(\.message))) }
            } else {
                for i in committedOn { undo[i, default: []].append(p.meta.path) }
                outcomes.append(
                    .failed(Self.summarize(missed, needed: a.dataShards, reached: committedOn.count, path: p.meta.path, allocation: a)))
            }
        }
        // A file below its quorum comes off the blobbers that did take it (the batch's own
        // version only), and uploads that no commit used are dropped at once.
        if !undo.isEmpty {
            let undo = undo
            let metas = Dictionary(
                sent.compactMap { (try? $0.get()).map { ($0.meta.path, $0.meta.hash) } }, uniquingKeysWith: { a, _ in a })
            _ = await forEach(conns.filter { undo[$0.index] != nil }) { c in
                _ = try await self.commit(c, allocation: a) { remote in
                    (undo[c.index] ?? []).filter { remote[$0]?.hash == metas[$0] }.map { .delete($0) }
                }
            }
        }
        if !unused.isEmpty {
            let unused = unused
            _ = await forEach(conns.filter { unused[$0.index] != nil }) { c in
                for id in unused[c.index] ?? [] { try? await c.discard(id) }
            }
        }
        if !repairs.isEmpty { recordRepairs(a, paths: repairs) }
        journal.endBatch()
        return (outcomes, failures.count < committing.count ? 1 : 0)
    }

    /// A file of a batch encoded and its fragments sent, not yet committed.
    private struct Prepared: Sendable {
        let meta: FileMeta
        let uploadIDs: [String]
        /// Blobbers that hold all of its fragment (its upload finished there).
        let stored: Set<Int>
        let failedSinks: [Int: String]
    }

    private enum BatchFailure: Error {
        case changed
        case error(StorageClientError)
    }

    /// Seals and erasure-codes one file under a new key and sends fragment i to blobber i.
    private func prepare(
        _ f: BatchFile, base: String, allocation a: StorageAllocation, conns: [BlobberConnection], down: [Int: SinkFailure],
        wrapping: ContentKeyWrapping, moved: @escaping @Sendable (Int64) -> Void
    ) async -> Result<Prepared, BatchFailure> {
        do {
            let contentKey = SecretBytes(Random.bytes(AESGCMSegmentCipher.keyCount))
            let noncePrefix = Random.bytes(AESGCMSegmentCipher.noncePrefixCount)
            let cipher = try AESGCMSegmentCipher(key: contentKey, noncePrefix: noncePrefix, fileSize: f.stamp.size)
            let ids = conns.map { BlobberUploadSink.uploadID(base, blobber: $0.blobber.id) }
            let sinks: [any FragmentSink] = conns.map { c in
                if let why = down[c.index] { return UnavailableSink(reason: why.message) }
                return BlobberUploadSink(connection: c, upload: ids[c.index], fresh: true)
            }
            let encoder = try FileEncoder(
                dataShards: a.dataShards, parityShards: a.parityShards, cipher: cipher, chunksPerBatch: configuration.chunksPerBatch)
            let encoded: FileEncoder.Result
            do {
                encoded = try await encoder.encode(
                    fileAt: f.local.path, to: sinks, minimumSinks: a.dataShards, pacer: pacer, progress: moved)
            } catch let StorageError.tooFewSinks(needed, succeeded, failures) {
                return .failure(.error(Self.summarize(failures, needed: needed, reached: succeeded, path: f.remotePath, allocation: a)))
            } catch is CryptoError {
                return .failure(.changed)  // it grew: the cipher is bound to the size at the start
            }
            guard encoded.file.layout.fileSize == f.stamp.size, SourceStamp(path: f.local.path) == f.stamp else {
                return .failure(.changed)
            }
            var meta = FileMeta(
                allocationID: a.id, path: f.remotePath, kind: .file, size: f.stamp.size,
                contentType: Self.guessType(f.remotePath), cipher: wrapping.cipher,
                dataShards: a.dataShards, parityShards: a.parityShards,
                fragmentRoots: encoded.file.fragmentRoots.map { Hex.encode($0) },
                fragmentLength: encoded.file.layout.fragmentLength, wrappedKey: try wrapping.wrap(contentKey),
                noncePrefix: Hex.encode(noncePrefix), created: f.existing?.created ?? now,
                modified: Self.seconds(f.stamp.mtimeNanoseconds), ownerID: key.publicKey.clientID)
            meta.sign(with: key)
            let stored = Set((0..<a.totalShards).filter { encoded.failedSinks[$0] == nil && down[$0] == nil })
            return .success(Prepared(meta: meta, uploadIDs: ids, stored: stored, failedSinks: encoded.failedSinks))
        } catch let e as StorageClientError {
            return .failure(.error(e))
        } catch {
            return .failure(.error(.localFile(path: f.local.path, reason: "\(error)")))
        }
    }

    /// Drops the uploads of a batch that a kill left uncommitted (noted in `journal`).
    func discardLeftoverUploads(allocation a: StorageAllocation, journal: FolderJournal) async {
        let bases = journal.leftoverBatch()
        guard !bases.isEmpty else { return }
        _ = await forEach(connections(a)) { c in
            for b in bases { try? await c.discard(BlobberUploadSink.uploadID(b, blobber: c.blobber.id)) }
        }
        journal.endBatch()
    }
}

/// The sink of a blobber that did not answer before the batch: it fails at once, so no file of
/// the batch waits for it (the file is recorded for repair there).
private struct UnavailableSink: FragmentSink {
    struct Refused: Error, CustomStringConvertible {
        let description: String
    }
    let reason: String

    func write(_ bytes: [UInt8], at offset: Int64) async throws { throw Refused(description: reason) }
    func write(fragment bytes: FragmentBytes, at offset: Int64) async throws { throw Refused(description: reason) }
    func finish(length: Int64, root: [UInt8]) async throws { throw Refused(description: reason) }
}
