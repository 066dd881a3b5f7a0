import Foundation

/// The upload layout pipeline: plaintext stream → sealed segments → chunks of d × 64 KiB →
/// d + p fragments (ISA-L) → one stream per blobber, with a Merkle tree per stream.
///
/// Memory stays bounded: one batch of `chunksPerBatch` chunks is being coded while the previous
/// batch is being sent, whatever the file size. Sealing, coding and leaf hashing of a batch run
/// on all cores; sending overlaps with coding the next batch.
public struct FileEncoder: Sendable {
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

    /// Encodes the file at `path`; see `encode(read:to:minimumSinks:progress:)`.
    public func encode(fileAt path: String, to sinks: [any FragmentSink], minimumSinks: Int? = nil,
                       progress: (@Sendable (Int64) -> Void)? = nil) async throws -> Result {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw StorageError.io(operation: "open", path: path, errno: errno)
        }
        defer { try? handle.close() }
        return try await encode(read: { n in
            guard let data = try handle.read(upToCount: n) else { return [] }
            return [UInt8](data)
        }, to: sinks, minimumSinks: minimumSinks, progress: progress)
    }

    /// Reads the plaintext through `read(n)` (up to n bytes; empty at end of file), sends fragment i
    /// to `sinks[i]`, and returns the layout with every fragment's root.
    ///
    /// - Parameter minimumSinks: how many sinks must finish for success (default d; the SDK asks
    ///   for d + 1). Failed sinks are reported, not fatal, so one dead blobber does not fail an upload.
    /// - Parameter progress: plaintext bytes delivered to the sinks so far.
    public func encode(read: (Int) throws -> [UInt8], to sinks: [any FragmentSink], minimumSinks: Int? = nil,
                       progress: (@Sendable (Int64) -> Void)? = nil) async throws -> Result {
        let n = dataShards + parityShards
        guard sinks.count == n else { throw StorageError.sinkCountMismatch(expected: n, got: sinks.count) }
        let needed = minimumSinks ?? dataShards
        let plainSegment = FileLayout.blockSize - cipher.overhead
        let batchCapacity = chunksPerBatch * dataShards * plainSegment

        var builders = [MerkleTreeBuilder](repeating: MerkleTreeBuilder(), count: n)
        var failures: [Int: String] = [:]
        var streamOffset: Int64 = 0
        var fileSize: Int64 = 0
        var segmentIndex: Int64 = 0
        var chunkIndex: Int64 = 0
        var inFlight: Task<[Int: String], Never>?
        var delivered: Int64 = 0

        do {
            while true {
                let plain = try readFully(batchCapacity, read)
                if plain.isEmpty { break }
                let batch = try encodeBatch(plain, firstSegment: segmentIndex)
                for i in 0..<n { for leaf in batch.leafHashes[i] { builders[i].append(leafHash: leaf) } }
                if let previous = inFlight {
                    failures.merge(await previous.value) { a, _ in a }
                    progress?(delivered)
                }
                let active = (0..<n).filter { failures[$0] == nil }
                let offset = streamOffset
                let fragments = batch.fragments
                inFlight = Task { await Self.send(fragments, at: offset, to: sinks, active: active) }
                delivered = fileSize + Int64(plain.count)
                fileSize += Int64(plain.count)
                streamOffset += Int64(batch.fragments[0].count)
                segmentIndex += Int64(batch.segmentCount)
                chunkIndex += Int64(batch.chunkCount)
                if plain.count < batchCapacity { break }
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

        let layout = try FileLayout(fileSize: fileSize, dataShards: dataShards, parityShards: parityShards,
                                    cipherOverhead: cipher.overhead)
        precondition(layout.fragmentLength == streamOffset && layout.chunkCount == chunkIndex, "layout arithmetic disagrees with the encoder")
        let roots = builders.map { $0.root }
        let length = streamOffset
        let active = (0..<n).filter { failures[$0] == nil }
        let finishFailures = await withTaskGroup(of: (Int, String?).self) { group in
            for i in active {
                let sink = sinks[i]
                let root = roots[i]
                group.addTask {
                    do { try await sink.finish(length: length, root: root); return (i, nil) } catch { return (i, "\(error)") }
                }
            }
            var out: [Int: String] = [:]
            for await (i, e) in group { if let e { out[i] = e } }
            return out
        }
        failures.merge(finishFailures) { a, _ in a }
        let succeeded = n - failures.count
        guard succeeded >= needed else {
            throw StorageError.tooFewSinks(needed: needed, succeeded: succeeded, failures: failures)
        }
        return Result(file: try EncodedFile(layout: layout, fragmentRoots: roots), failedSinks: failures)
    }

    private func readFully(_ count: Int, _ read: (Int) throws -> [UInt8]) throws -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(count)
        while out.count < count {
            let part = try read(count - out.count)
            if part.isEmpty { break }
            out.append(contentsOf: part.prefix(count - out.count))
        }
        return out
    }

    private static func send(_ fragments: [[UInt8]], at offset: Int64, to sinks: [any FragmentSink], active: [Int]) async -> [Int: String] {
        await withTaskGroup(of: (Int, String?).self) { group in
            for i in active {
                let sink = sinks[i]
                let bytes = fragments[i]
                group.addTask {
                    do { try await sink.write(bytes, at: offset); return (i, nil) } catch { return (i, "\(error)") }
                }
            }
            var out: [Int: String] = [:]
            for await (i, e) in group { if let e { out[i] = e } }
            return out
        }
    }

    struct Batch {
        let fragments: [[UInt8]]
        let leafHashes: [[[UInt8]]]
        let segmentCount: Int
        let chunkCount: Int
    }

    /// Seals, codes and hashes one batch of whole chunks (only the file's last batch may end short).
    func encodeBatch(_ plain: [UInt8], firstSegment: Int64) throws -> Batch {
        let B = FileLayout.blockSize
        let d = dataShards, n = dataShards + parityShards
        let P = B - cipher.overhead
        let segmentCount = (plain.count + P - 1) / P
        let sealed: [[UInt8]] = try parallelMap(segmentCount) { t in
            let part = Array(plain[(t * P)..<min(plain.count, (t + 1) * P)])
            let index = firstSegment + Int64(t)
            let out = try cipher.seal(part, segmentIndex: UInt64(index))
            guard out.count == part.count + cipher.overhead else {
                throw StorageError.cipherSizeMismatch(segment: index, expected: part.count + cipher.overhead, got: out.count)
            }
            return out
        }
        let chunkCount = (segmentCount + d - 1) / d
        let rowStride = chunkCount * B
        let rows = ByteBuffer(count: n * rowStride)
        var sizes = [Int]()
        for k in 0..<chunkCount {
            let segs = (k * d)..<min(segmentCount, (k + 1) * d)
            let length = segs.reduce(0) { $0 + sealed[$1].count }
            let fs = FileLayout.fragmentSize(sealedChunkLength: length, dataShards: d)
            sizes.append(fs)
            // Byte x of the chunk's sealed bytes goes to fragment x / fs at offset x % fs.
            var x = 0
            for s in segs {
                let seg = sealed[s]
                var done = 0
                while done < seg.count {
                    let frag = x / fs, off = x % fs
                    let take = min(seg.count - done, fs - off)
                    seg.withUnsafeBytes { src in
                        UnsafeMutableRawBufferPointer(rebasing: rows.raw[(frag * rowStride + k * B + off)...])
                            .copyMemory(from: UnsafeRawBufferPointer(rebasing: src[done..<(done + take)]))
                    }
                    done += take
                    x += take
                }
            }
        }
        _ = try parallelMap(chunkCount) { k in
            coder.encode(buffer: rows.base + k * B, fragmentSize: sizes[k], stride: rowStride)
        }
        let flatLeaves = try parallelMap(n * chunkCount) { idx in
            let i = idx / chunkCount, k = idx % chunkCount
            return MerkleTree.leafHash(rows.bytes(from: i * rowStride + k * B, count: sizes[k]))
        }
        let fragmentLength = (chunkCount - 1) * B + sizes[chunkCount - 1]
        let fragments = (0..<n).map { rows.array(from: $0 * rowStride, count: fragmentLength) }
        let leaves = (0..<n).map { i in Array(flatLeaves[(i * chunkCount)..<((i + 1) * chunkCount)]) }
        return Batch(fragments: fragments, leafHashes: leaves, segmentCount: segmentCount, chunkCount: chunkCount)
    }
}
