import Foundation
import MosaicParallel
import MosaicProtocol

/// The upload layout pipeline: plaintext stream → sealed segments → chunks of d × 64 KiB →
/// d + p fragments (ISA-L) → one stream per blobber, with a Merkle tree per stream.
///
/// Memory stays bounded: one batch of `chunksPerBatch` chunks is being coded while the previous
/// batch is being sent, whatever the file size. Sealing, coding and leaf hashing of a batch run
/// on all cores; sending overlaps with coding the next batch.
package struct FileEncoder: Sendable {
    public let dataShards: Int
    public let parityShards: Int
    public let chunksPerBatch: Int
    let coder: ErasureCoder
    let cipher: any SegmentCipher

    public struct Result: Sendable {
        public let file: EncodedFile
        /// Sinks that failed (by fragment index) and why; these blobbers need repair.
        public let failedSinks: [Int: String]
    }

    public init(dataShards: Int, parityShards: Int, cipher: any SegmentCipher, chunksPerBatch: Int = 8) throws {
        coder = try ErasureCoder(dataShards: dataShards, parityShards: parityShards)
        guard cipher.overhead >= 0, cipher.overhead <= 1024 else { throw StorageError.invalidCipherOverhead(cipher.overhead) }
        self.dataShards = dataShards
        self.parityShards = parityShards
        self.cipher = cipher
        self.chunksPerBatch = max(1, chunksPerBatch)
    }

    /// Called with each batch once it is sealed and coded, before any of it is sent: the index of
    /// its first chunk and its leaf hashes by fragment index, then chunk (`leafHashes[i][k]`).
    /// Throwing stops the upload with nothing of this batch sent (a resumed upload checks here that
    /// it seals the same bytes it sent before under the same key and nonces).
    public typealias BatchCheck = (_ firstChunk: Int64, _ leafHashes: [[[UInt8]]]) throws -> Void

    /// Encodes the file at `path`; see `encode(read:to:minimumSinks:progress:)`. Reads go straight
    /// into the batch buffer (no `Data` or array per read).
    ///
    /// - Parameter size: the file's size when the caller knows it (it sized the cipher by it). The
    ///   sinks are told their streams' lengths up front (`FragmentSink.expect`), and a file found
    ///   longer or shorter than `size` throws `StorageError.sourceSizeChanged`.
    /// - Parameter pacer: holds the file's batches to its rate (the whole pipeline follows).
    public func encode(
        fileAt path: String, size: Int64? = nil, to sinks: [any FragmentSink], minimumSinks: Int? = nil,
        beforeSend: BatchCheck? = nil, pacer: RatePacer? = nil,
        progress: (@Sendable (Int64) -> Void)? = nil
    ) async throws -> Result {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw StorageError.io(operation: "open", path: path, errno: errno) }
        defer { close(fd) }
        func readAll(_ buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            var filled = 0
            while filled < buffer.count {
                let got = read(fd, buffer.baseAddress.map { $0 + filled }, buffer.count - filled)
                if got < 0 {
                    if errno == EINTR { continue }
                    throw StorageError.io(operation: "read", path: path, errno: errno)
                }
                if got == 0 { break }
                filled += got
            }
            return filled
        }
        guard let size else {
            return try await encode(
                fill: readAll, to: sinks, minimumSinks: minimumSinks, beforeSend: beforeSend, pacer: pacer, progress: progress)
        }
        let layout = try FileLayout(fileSize: size, dataShards: dataShards, parityShards: parityShards, cipherOverhead: cipher.overhead)
        for sink in sinks { sink.expect(length: layout.fragmentLength) }
        var total: Int64 = 0
        return try await encode(
            fill: { buffer in
                // Never past `size`: the sinks were promised exactly its fragments.
                let want = Int(min(Int64(buffer.count), size - total))
                let got = try readAll(UnsafeMutableRawBufferPointer(rebasing: buffer[..<want]))
                total += Int64(got)
                if got < want { throw StorageError.sourceSizeChanged(path: path, expected: size, found: total) }
                if total == size {
                    var probe: UInt8 = 0
                    if try withUnsafeMutableBytes(of: &probe, { try readAll($0) }) > 0 {
                        throw StorageError.sourceSizeChanged(path: path, expected: size, found: size + 1)
                    }
                }
                return got
            }, to: sinks, minimumSinks: minimumSinks, beforeSend: beforeSend, pacer: pacer, progress: progress)
    }

    /// Reads the plaintext through `read(n)` (up to n bytes; empty at end of file), sends fragment i
    /// to `sinks[i]`, and returns the layout with every fragment's root.
    ///
    /// - Parameter minimumSinks: how many sinks must finish for success (default d; the SDK asks
    ///   for d + 1). Failed sinks are reported, not fatal, so one dead blobber does not fail an upload.
    /// - Parameter progress: plaintext bytes delivered to the sinks so far.
    public func encode(
        read: (Int) throws -> [UInt8], to sinks: [any FragmentSink], minimumSinks: Int? = nil,
        progress: (@Sendable (Int64) -> Void)? = nil
    ) async throws -> Result {
        try await encode(
            fill: { buffer in
                var filled = 0
                while filled < buffer.count {
                    let part = try read(buffer.count - filled)
                    if part.isEmpty { break }
                    let take = min(part.count, buffer.count - filled)
                    part.withUnsafeBytes { src in
                        UnsafeMutableRawBufferPointer(rebasing: buffer[filled..<(filled + take)])
                            .copyMemory(from: UnsafeRawBufferPointer(rebasing: src[..<take]))
                    }
                    filled += take
                }
                return filled
            }, to: sinks, minimumSinks: minimumSinks, beforeSend: nil, progress: progress)
    }

    /// The pipeline. `fill` fills as much of the buffer as the input still has and returns the count
    /// (less than the buffer only at the end). Two fragment buffers alternate: one is being sent while
    /// the next batch is sealed, coded and hashed into the other, so the client's memory is
    /// 1 plaintext batch + 2 × (d + p) × `chunksPerBatch` × 64 KiB whatever the file size.
    func encode(
        fill: (UnsafeMutableRawBufferPointer) throws -> Int, to sinks: [any FragmentSink], minimumSinks: Int?,
        beforeSend: BatchCheck?, pacer: RatePacer? = nil, progress: (@Sendable (Int64) -> Void)?
    ) async throws -> Result {
        let n = dataShards + parityShards
        guard sinks.count == n else { throw StorageError.sinkCountMismatch(expected: n, got: sinks.count) }
        let needed = minimumSinks ?? dataShards
        let plainSegment = MerkleRules.blockSize - cipher.overhead
        let batchCapacity = chunksPerBatch * dataShards * plainSegment
        let plain = ByteBuffer(count: batchCapacity, zeroed: false)
        let rowsSize = n * chunksPerBatch * MerkleRules.blockSize

        var builders = [MerkleTreeBuilder](repeating: MerkleTreeBuilder(), count: n)
        var failures: [Int: SinkFailure] = [:]
        var streamOffset: Int64 = 0
        var fileSize: Int64 = 0
        var segmentIndex: Int64 = 0
        var chunkIndex: Int64 = 0
        var inFlight: Task<[Int: SinkFailure], Never>?
        var sending: ByteBuffer?
        var spare: ByteBuffer?
        var delivered: Int64 = 0

        do {
            while true {
                let count = try fill(plain.raw)
                if count == 0 { break }
                await pacer?.take(Int64(count))
                let rows = spare ?? ByteBuffer(count: rowsSize, zeroed: false)
                spare = nil
                let batch = try encodeBatch(plain.bytes(from: 0, count: count), firstSegment: segmentIndex, into: rows)
                try beforeSend?(chunkIndex, batch.leafHashes)
                for i in 0..<n { for leaf in batch.leafHashes[i] { builders[i].append(leafHash: leaf) } }
                if let previous = inFlight {
                    failures.merge(await previous.value) { a, _ in a }
                    progress?(delivered)
                }
                inFlight = nil
                // Reuse the sent buffer unless something (a sink keeping a view) still refers to it.
                if var done = sending {
                    sending = nil
                    if isKnownUniquelyReferenced(&done) { spare = done }
                }
                let active = (0..<n).filter { failures[$0] == nil }
                let offset = streamOffset
                let stride = rows.count / n
                let fragments = (0..<n).map { FragmentBytes(storage: rows, offset: $0 * stride, count: batch.fragmentLength) }
                inFlight = Task { await Self.send(fragments, at: offset, to: sinks, active: active) }
                sending = rows
                delivered = fileSize + Int64(count)
                fileSize += Int64(count)
                streamOffset += Int64(batch.fragmentLength)
                segmentIndex += Int64(batch.segmentCount)
                chunkIndex += Int64(batch.chunkCount)
                if count < batchCapacity { break }
            }
        } catch {
            // Let the batch already on its way land before reporting, so a retry never races with it.
            _ = await inFlight?.value
            throw error
        }
        if let previous = inFlight {
            failures.merge(await previous.value) { a, _ in a }
            progress?(delivered)
        }
        sending = nil
        spare = nil

        let layout = try FileLayout(
            fileSize: fileSize, dataShards: dataShards, parityShards: parityShards,
            cipherOverhead: cipher.overhead)
        precondition(
            layout.fragmentLength == streamOffset && layout.chunkCount == chunkIndex, "layout arithmetic disagrees with the encoder")
        let roots = builders.map { $0.root }
        let length = streamOffset
        let active = (0..<n).filter { failures[$0] == nil }
        let finishFailures = await Fanout.failures(active.map { ($0, (sinks[$0], roots[$0])) }) { sink, root in
            try await sink.finish(length: length, root: root)
        }
        failures.merge(finishFailures.mapValues(SinkFailure.init)) { a, _ in a }
        let succeeded = n - failures.count
        guard succeeded >= needed else {
            throw StorageError.tooFewSinks(needed: needed, succeeded: succeeded, failures: failures)
        }
        return Result(file: try EncodedFile(layout: layout, fragmentRoots: roots), failedSinks: failures.mapValues(\.message))
    }

    private static func send(_ fragments: [FragmentBytes], at offset: Int64, to sinks: [any FragmentSink], active: [Int]) async -> [Int:
        SinkFailure]
    {
        await Fanout.failures(active.map { ($0, (sinks[$0], fragments[$0])) }) { sink, bytes in
            try await sink.write(fragment: bytes, at: offset)
        }.mapValues(SinkFailure.init)
    }

    struct Batch {
        /// Leaf hashes by fragment index, one per chunk of the batch.
        let leafHashes: [[[UInt8]]]
        let segmentCount: Int
        let chunkCount: Int
        /// Bytes of each fragment stream in this batch (the same for all d + p).
        let fragmentLength: Int
    }

    /// Seals, codes and hashes one batch of whole chunks (only the file's last batch may end short)
    /// into `rows`: fragment i of the batch is `rows[i · stride ..< i · stride + fragmentLength]`,
    /// stride = `rows.count / (d + p)`. One task per chunk seals its d segments straight into their
    /// fragment rows, runs ISA-L in place and hashes the d + p blocks while they are still in cache.
    func encodeBatch(_ plain: UnsafeRawBufferPointer, firstSegment: Int64, into rows: ByteBuffer) throws -> Batch {
        let B = MerkleRules.blockSize
        let o = cipher.overhead
        let P = B - o
        let d = dataShards
        let n = dataShards + parityShards
        let stride = rows.count / n
        let segmentCount = (plain.count + P - 1) / P
        let chunkCount = (segmentCount + d - 1) / d
        precondition(chunkCount * B <= stride, "batch larger than its fragment buffer")
        let perChunk: [(leaves: [[UInt8]], size: Int)] = try parallelMap(chunkCount) { k in
            let segs = (k * d)..<min(segmentCount, (k + 1) * d)
            let sealedLength = segs.reduce(0) { $0 + min(P, plain.count - $1 * P) + o }
            let fs = FileLayout.fragmentSize(sealedChunkLength: sealedLength, dataShards: d)
            if sealedLength == d * B {
                // A full chunk: data fragment j is sealed segment k·d + j, sealed in place.
                for (j, s) in segs.enumerated() {
                    try cipher.seal(
                        UnsafeRawBufferPointer(rebasing: plain[(s * P)..<((s + 1) * P)]),
                        into: rows.mutableBytes(from: j * stride + k * B, count: B),
                        segmentIndex: UInt64(firstSegment + Int64(s)))
                }
            } else {
                // The file's last chunk: its sealed bytes are laid out contiguously over d fragments
                // of fs bytes and zero-padded (docs/STORAGE.md §1.3).
                var sealed = [UInt8](repeating: 0, count: d * fs)
                var x = 0
                for s in segs {
                    let len = min(P, plain.count - s * P)
                    try sealed.withUnsafeMutableBytes { out in
                        try cipher.seal(
                            UnsafeRawBufferPointer(rebasing: plain[(s * P)..<(s * P + len)]),
                            into: UnsafeMutableRawBufferPointer(rebasing: out[x..<(x + len + o)]),
                            segmentIndex: UInt64(firstSegment + Int64(s)))
                    }
                    x += len + o
                }
                sealed.withUnsafeBytes { src in
                    for j in 0..<d {
                        rows.mutableBytes(from: j * stride + k * B, count: fs)
                            .copyMemory(from: UnsafeRawBufferPointer(rebasing: src[(j * fs)..<((j + 1) * fs)]))
                    }
                }
            }
            coder.encode(buffer: rows.base + k * B, fragmentSize: fs, stride: stride)
            let leaves = (0..<n).map { i in MerkleRules.leafHash(rows.bytes(from: i * stride + k * B, count: fs)) }
            return (leaves, fs)
        }
        let fragmentLength = (chunkCount - 1) * B + perChunk[chunkCount - 1].size
        let leaves = (0..<n).map { i in perChunk.map { $0.leaves[i] } }
        return Batch(leafHashes: leaves, segmentCount: segmentCount, chunkCount: chunkCount, fragmentLength: fragmentLength)
    }
}
