import Foundation
import MosaicCrypto
import MosaicProtocol
import MosaicStorageCore

extension StorageClient {
    /// Uploads `localFile` to `remotePath`: encrypts it (AES-256-GCM, a new key per file sealed to
    /// the owner), erasure-codes it and streams fragment i to blobber i in parallel, with bounded
    /// memory. It starts only when d + 1 blobbers answer, and succeeds when at least d of them
    /// committed (then `degraded` is set if fewer than d + 1 did); blobbers that missed it are
    /// recorded for `repair`.
    /// Missing parent folders are created. If an earlier run of the same upload was interrupted,
    /// this continues it: blobbers keep what they received and only the rest is sent.
    /// - Parameters:
    ///   - localFile: the file to send.
    ///   - remotePath: where it goes in the allocation.
    ///   - a: the allocation.
    ///   - contentType: the MIME type to record; nil guesses it from the path's extension.
    ///   - replace: overwrite a file already at `remotePath`. Without it, a file there that some
    ///     blobbers lack and that has exactly this content (a commit a kill cut short) is committed
    ///     again on all of them.
    ///   - progress: called as bytes are sent.
    /// - Returns: the signed metadata and which blobbers hold the file.
    /// - Throws: `StorageClientError` — `.localFile` when the file cannot be read, `.alreadyExists`
    ///   without `replace` (other content, or already on every blobber), `.full`, `.expired`, `.changedDuringUpload`, `.tooFewBlobbers` below the
    ///   write quorum; `StorageRequestError` for a malformed path.
    @discardableResult
    public func upload(
        localFile: URL, remotePath: String, allocation a: StorageAllocation, contentType: String? = nil,
        replace: Bool = false, progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> UploadResult {
        try await upload(
            localFile: localFile, remotePath: remotePath, allocation: a, contentType: contentType, replace: replace,
            keyWrapping: .owner(key), progress: progress)
    }

    /// `upload` with the content key kept as `keyWrapping` says (the Locker wraps it under a PIN).
    /// `modified` is recorded in the signed metadata instead of the upload time (folder uploads and
    /// sync record the local mtime, which sync compares). With `expectedSource`, the source must
    /// still have that stamp just before the commit, else nothing is committed and
    /// `.changedDuringUpload` is thrown (a same-size rewrite during the upload is caught too).
    func upload(
        localFile: URL, remotePath: String, allocation a: StorageAllocation, contentType: String?, replace: Bool,
        keyWrapping: ContentKeyWrapping, modified recorded: Int64? = nil, expectedSource: SourceStamp? = nil,
        progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws -> UploadResult {
        try RemotePath.validate(remotePath)
        try checkWritable(a)
        let attrs: [FileAttributeKey: Any]
        do { attrs = try FileManager.default.attributesOfItem(atPath: localFile.path) } catch {
            throw StorageClientError.localFile(path: localFile.path, reason: "it does not exist or is not readable")
        }
        guard (attrs[.type] as? FileAttributeType) == .typeRegular else {
            throw StorageClientError.localFile(path: localFile.path, reason: "not a regular file")
        }
        let size = (attrs[.size] as? NSNumber)?.int64Value ?? 0
        let modified = (attrs[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0

        // Refuse early (before sending bytes) when the path exists and may not be replaced. A file
        // that some blobbers hold and others do not, with exactly this content, is a commit a kill
        // cut short: it is committed again on every blobber (as a replace) instead of refused.
        let existing: FileMeta?
        var holders: [Int] = []
        do { (existing, holders) = try await resolve(remotePath, allocation: a) } catch StorageClientError.notFound { existing = nil }
        var replacing = replace
        if let existing {
            guard existing.kind == .file else { throw StorageClientError.notAFile(path: remotePath) }
            if !replace {
                guard holders.count < a.totalShards, await self.localFile(localFile, matches: existing) else {
                    throw StorageClientError.alreadyExists(path: remotePath)
                }
                replacing = true
            }
        }
        let replace = replacing

        // Start only with d + 1 blobbers answering; a blobber lost during the transfer no longer
        // fails it while d remain (the data is readable from d; repair restores the rest).
        // Also refuse early, before any byte is sent, when the file cannot fit.
        let conns = connections(a)
        let needed = try FileLayout(
            fileSize: size, dataShards: a.dataShards, parityShards: a.parityShards,
            cipherOverhead: AES256GCM.tagCount
        ).fragmentLength
        let freed = existing?.fragmentLength ?? 0
        _ = try await checkRoom(conns, allocation: a, needed: needed, freed: freed, what: "this file", path: remotePath)

        // Resume or start the journal. A resume seals under the same key and nonces as before, so
        // it happens only when every chunk already sent is proven to come out the same (docs in
        // UploadJournal); when in doubt, the upload starts afresh with a new key and nonce prefix.
        let journalURL = UploadJournal.url(home: home, allocation: a.id, remotePath: remotePath)
        let stamp = SourceStamp(path: localFile.path)
        var mayResume = true
        var journal: UploadJournal
        var resumed: Bool
        var encoded: FileEncoder.Result
        while true {
            var contentKey: SecretBytes
            var log: UploadChunkLog?
            if mayResume, let j = UploadJournal.load(journalURL), j.localPath == localFile.path, j.size == size, j.modified == modified,
                stamp != nil, j.source == stamp, j.chunkLog == UploadChunkLog.format, let key = keyWrapping.unwrap(j.wrappedKey),
                let l = try? UploadChunkLog(url: UploadChunkLog.url(journal: journalURL), resume: true)
            {
                journal = j
                contentKey = key
                log = l
                resumed = true
            } else {
                contentKey = SecretBytes(Random.bytes(AESGCMSegmentCipher.keyCount))
                journal = UploadJournal(
                    allocationID: a.id, remotePath: remotePath, localPath: localFile.path, size: size, modified: modified,
                    uploadID: Hex.encode(Random.bytes(16)), wrappedKey: try keyWrapping.wrap(contentKey),
                    noncePrefix: Hex.encode(Random.bytes(AESGCMSegmentCipher.noncePrefixCount)), created: now,
                    source: stamp, chunkLog: UploadChunkLog.format)
                UploadChunkLog.remove(journal: journalURL)
                try journal.save(journalURL)
                resumed = false
            }
            let chunks = try log ?? UploadChunkLog(url: UploadChunkLog.url(journal: journalURL), resume: false)
            let cipher = try AESGCMSegmentCipher(key: contentKey, noncePrefix: Hex.decode(journal.noncePrefix) ?? [], fileSize: size)

            let sinks = conns.map {
                BlobberUploadSink(
                    connection: $0, upload: BlobberUploadSink.uploadID(journal.uploadID, blobber: $0.blobber.id), fresh: !resumed,
                    span: configuration.uploadRequestBytes)
            }
            // A blobber holding chunks the log never recorded (a log cut short by a power loss)
            // may hold them sealed from other bytes: do not resume then.
            if resumed {
                var covered = true
                for sink in sinks {
                    guard let held = try? await sink.held(), chunks.covers(heldFragmentBytes: held) else {
                        covered = false
                        break
                    }
                }
                if !covered {
                    mayResume = false
                    continue
                }
            }
            let encoder = try FileEncoder(
                dataShards: a.dataShards, parityShards: a.parityShards, cipher: cipher,
                chunksPerBatch: configuration.chunksPerBatch)
            let total = size
            do {
                encoded = try await encoder.encode(
                    fileAt: localFile.path, size: size, to: sinks, minimumSinks: a.dataShards,
                    beforeSend: { first, leaves in try chunks.admit(firstChunk: first, leafHashes: leaves) },
                    pacer: pacer
                ) { done in
                    progress?(TransferProgress(bytes: done, total: total))
                }
            } catch is UploadChunkLog.Mismatch where resumed {
                // The source changed since the bytes already sent: start afresh under a new key.
                mayResume = false
                continue
            } catch let StorageError.tooFewSinks(needed, succeeded, failures) {
                throw Self.summarize(failures, needed: needed, reached: succeeded, path: remotePath, allocation: a)
            } catch StorageError.sourceSizeChanged {
                Self.forgetJournal(journalURL)
                throw StorageClientError.changedDuringUpload(path: localFile.path)
            } catch is CryptoError {
                // The cipher is bound to the size at the start: a file that grew has more segments.
                Self.forgetJournal(journalURL)
                throw StorageClientError.changedDuringUpload(path: localFile.path)
            } catch is UploadChunkLog.Mismatch {
                Self.forgetJournal(journalURL)
                throw StorageClientError.changedDuringUpload(path: localFile.path)
            }
            break
        }
        guard encoded.file.layout.fileSize == size, expectedSource == nil || SourceStamp(path: localFile.path) == expectedSource else {
            Self.forgetJournal(journalURL)
            throw StorageClientError.changedDuringUpload(path: localFile.path)
        }

        var meta = FileMeta(
            allocationID: a.id, path: remotePath, kind: .file, size: size,
            contentType: contentType ?? Self.guessType(remotePath), cipher: keyWrapping.cipher,
            dataShards: a.dataShards, parityShards: a.parityShards,
            fragmentRoots: encoded.file.fragmentRoots.map { Hex.encode($0) },
            fragmentLength: encoded.file.layout.fragmentLength, wrappedKey: journal.wrappedKey,
            noncePrefix: journal.noncePrefix, created: existing?.created ?? journal.created, modified: recorded ?? now,
            ownerID: key.publicKey.clientID)
        meta.sign(with: key)
        let signed = meta
        let dirs = folders(for: remotePath, allocation: a.id)
        let uploadIDs = conns.map { BlobberUploadSink.uploadID(journal.uploadID, blobber: $0.blobber.id) }
        let finished = (0..<a.totalShards).filter { encoded.failedSinks[$0] == nil }
        let result = try await commitAll(
            a, indices: finished, quorum: a.dataShards, path: remotePath,
            build: { i, files in
                var changes: [BlobberWire.Change] = dirs.filter { files[$0.path] == nil }.map { .put($0) }
                if let old = files[remotePath], !replace || old.kind != .file { throw StorageClientError.alreadyExists(path: remotePath) }
                changes.append(.put(signed, uploadID: signed.fragmentLength > 0 ? uploadIDs[i] : nil, replace: replace))
                return changes
            },
            undo: { _, files in
                files[remotePath]?.hash == signed.hash ? [.delete(remotePath)] : []
            })
        var failed = encoded.failedSinks
        failed.merge(result.failed) { a, _ in a }
        Self.forgetJournal(journalURL)
        return UploadResult(
            meta: signed, committed: result.ok, failed: failed, resumed: resumed,
            degraded: result.ok.count < a.writeQuorum)
    }

    /// Reads every blobber's state before any byte is sent: throws `.full` when `needed` fragment
    /// bytes (less `freed`, what the write replaces) do not fit on some blobber, and the quorum
    /// error when fewer than d + 1 answer. The blobber's numbers are checked before any arithmetic
    /// (it may lie). Returns the blobbers that did not answer.
    func checkRoom(
        _ conns: [BlobberConnection], allocation a: StorageAllocation, needed: Int64, freed: Int64, what: String, path: String
    ) async throws -> [Int: SinkFailure] {
        let down = await forEach(conns) { c in
            let state = try await c.state()
            guard let held = Int64(exactly: state.size), state.capacity >= 0 else {
                throw StorageClientError.untrustedBlobber(
                    index: c.index, reason: "it reports \(state.size) bytes held of \(state.capacity)")
            }
            let free = state.capacity - min(held, state.capacity)
            if needed > free + min(freed, held) {
                throw StorageClientError.full(
                    "allocation \(a.id) is full: \(what) needs \(needed) bytes on each blobber, \(free) are free; grow the allocation or delete files"
                )
            }
        }
        if let full = down.sorted(by: { $0.key < $1.key }).first(where: { $0.value.code == StorageClientError.full("").code }) {
            throw StorageClientError.full(full.value.message)
        }
        if a.totalShards - down.count < a.writeQuorum {
            throw Self.summarize(down, needed: a.writeQuorum, reached: a.totalShards - down.count, path: path, allocation: a)
        }
        return down
    }

    /// Removes an upload's journal and chunk log: it finished, or its bytes can never be resumed.
    static func forgetJournal(_ url: URL) {
        try? FileManager.default.removeItem(at: url)
        UploadChunkLog.remove(journal: url)
    }

    /// Signed folder entries for every ancestor of `path` (blobbers add the ones they lack).
    func folders(for path: String, allocation: String) -> [FileMeta] {
        RemotePath.ancestors(path).map { p in
            var m = FileMeta.directory(allocationID: allocation, path: p, time: 0, ownerID: key.publicKey.clientID)
            m.sign(with: key)
            return m
        }
    }

    static func guessType(_ path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "txt", "md": return "text/plain"
        case "html", "htm": return "text/html"
        case "json": return "application/json"
        case "jpg", "jpeg": return "image/jpeg"
        case "png": return "image/png"
        case "gif": return "image/gif"
        case "pdf": return "application/pdf"
        case "mp4": return "video/mp4"
        case "mp3": return "audio/mpeg"
        case "zip": return "application/zip"
        default: return "application/octet-stream"
        }
    }
}
