import Foundation
import MosaicCrypto
import MosaicProtocol
import MosaicStorageCore

extension StorageClient {
    /// Downloads `remotePath` (or the plaintext byte `range` of it) to `destination`: blocks come
    /// from d blobbers, fastest first, each verified against the owner-signed fragment roots; a
    /// blobber that is down, slow or serves bad data is dropped and another one used. The output is
    /// written to a temp file beside `destination` and renamed into place only when complete.
    /// `prefer` puts some blobber indices first (e.g. the ones nearby); the rest follow by speed.
    /// Another wallet reads with the owner's `ticket` and the file's `contentKey` (shared beside the
    /// ticket); every block request is paid with a read marker signed by this wallet.
    /// - Parameters:
    ///   - remotePath: the file to read.
    ///   - destination: the local file to write.
    ///   - allocation: the allocation.
    ///   - range: plaintext bytes to read; nil reads the whole file.
    ///   - prefer: blobber indices to try first (their metadata answers are always waited for).
    ///   - ticket: the owner's auth ticket when this wallet is not the owner.
    ///   - sharedKey: the content key given with the ticket.
    ///   - progress: called as bytes are written.
    /// - Returns: the file's metadata, the bytes written and the blobbers dropped on the way.
    /// - Throws: `StorageClientError` — `.notFound`, `.notAFile`, `.lockerFile` (open it through
    ///   `Locker`), `.unreadable` when fewer than d blobbers serve good data, `.localFile` when
    ///   `destination` cannot be written.
    @discardableResult
    public func download(
        remotePath: String, to destination: URL, allocation a: StorageAllocation, range: Range<Int64>? = nil,
        prefer: [Int] = [], ticket: AuthTicket? = nil, contentKey sharedKey: SecretBytes? = nil,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> DownloadResult {
        let (meta, holders) = try await resolve(remotePath, allocation: a, ticket: ticket, early: true, awaiting: Set(prefer))
        guard meta.kind == .file else { throw StorageClientError.notAFile(path: remotePath) }
        guard let wrapped = Hex.decode(meta.wrappedKey), let prefix = Hex.decode(meta.noncePrefix) else {
            throw StorageClientError.unreadable(path: remotePath, reason: "its metadata has no usable key")
        }
        let contentKey: SecretBytes
        if let sharedKey {
            contentKey = sharedKey
        } else if meta.cipher == FileMeta.lockerCipher {
            throw StorageClientError.lockerFile(path: remotePath)
        } else {
            do { contentKey = try SealedBox.open(wrapped, with: key) } catch {
                throw StorageClientError.unreadable(
                    path: remotePath, reason: "its content key is not sealed to this wallet; ask the owner to share it")
            }
        }
        let cipher = try AESGCMSegmentCipher(key: contentKey, noncePrefix: prefix, fileSize: meta.size)
        let decoder = try FileDecoder(file: try meta.encodedFile(), cipher: cipher, chunksPerBatch: configuration.chunksPerBatch)
        let conns = connections(a, ticket: ticket)
        var sources: [Int: any FragmentSource] = [:]
        for i in holders { sources[i] = BlobberFragmentSource(connection: conns[i], path: remotePath) }

        let dir = destination.deletingLastPathComponent().path
        let temp = dir + "/." + destination.lastPathComponent + ".mosaic-" + Hex.encode(Random.bytes(6))
        guard FileManager.default.createFile(atPath: temp, contents: nil), let out = FileHandle(forWritingAtPath: temp) else {
            throw StorageClientError.localFile(path: destination.path, reason: "cannot create a file in \(dir)")
        }
        var ok = false
        defer {
            try? out.close()
            if !ok { unlink(temp) }
        }
        let wanted = (range ?? 0..<meta.size).clamped(to: 0..<meta.size)
        let total = Int64(wanted.count)
        var written: Int64 = 0
        let writeback = BackgroundWriteback()
        let report: FileDecoder.Report
        do {
            report = try await decoder.decode(
                from: sources, range: wanted,
                preferredOrder: prefer.filter { holders.contains($0) } + holders.filter { !prefer.contains($0) },
                pacer: pacer
            ) { bytes in
                try out.write(contentsOf: bytes)
                written += Int64(bytes.count)
                // Start writing what is here to disk while the rest arrives, so the fsync before
                // the rename waits for the tail only (for 256 MiB it waited ~0.3 s, a third of a
                // loopback download, with every byte still dirty). Durability is unchanged.
                writeback.wrote(written, fd: out.fileDescriptor)
                progress?(TransferProgress(bytes: written, total: total))
            }
        } catch let StorageError.notEnoughFragments(needed, available) {
            throw StorageClientError.unreadable(
                path: remotePath, reason: "only \(available) of the \(needed) blobbers needed served valid data")
        }
        try out.synchronize()
        try out.close()
        guard rename(temp, destination.path) == 0 else {
            throw StorageClientError.localFile(path: destination.path, reason: String(cString: strerror(errno)))
        }
        ok = true
        return DownloadResult(meta: meta, bytesWritten: report.bytesWritten, badBlobbers: report.badSources)
    }
}
