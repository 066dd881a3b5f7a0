import Foundation
import MosaicParallel
import MosaicProtocol

/// The download pipeline: fetch blocks from any d fragment sources, verify each block against its
/// fragment's Merkle root, rebuild the chunks, open the sealed segments, write the plaintext.
///
/// A source that throws, returns the wrong number or size of blocks, or serves a block that does
/// not verify is marked bad and replaced by the next unused source for the rest of the download;
/// the batch it was serving is fetched again from the replacement. Byte ranges fetch only the
/// chunks that cover them.
package struct FileDecoder: Sendable {
    public let file: EncodedFile
    public let chunksPerBatch: Int
    /// Shortest wait for a lagging source before a spare is asked instead (see `fetch`).
    public var hedgeDelay: Duration = .milliseconds(500)
    let coder: ErasureCoder
    let cipher: any SegmentCipher

    public struct Report: Sendable {
        public let bytesWritten: Int64
        /// Sources dropped during the download (by fragment index) and why; candidates for penalties or repair.
        public let badSources: [Int: String]
        /// For `rebuild`: sinks that failed (by fragment index) and why.
        public var failedSinks: [Int: String] = [:]
    }

    public init(file: EncodedFile, cipher: any SegmentCipher, chunksPerBatch: Int = 8) throws {
        guard cipher.overhead == file.layout.cipherOverhead else { throw StorageError.invalidCipherOverhead(cipher.overhead) }
        coder = try ErasureCoder(dataShards: file.layout.dataShards, parityShards: file.layout.parityShards)
        self.file = file
        self.cipher = cipher
        self.chunksPerBatch = max(1, chunksPerBatch)
    }

    /// Decodes the whole file (or `range` of its plaintext bytes) and passes the plaintext, in order, to `write`.
    ///
    /// - Parameter sources: fragment index → where to read that fragment stream (at least d of them).
    /// - Parameter preferredOrder: fragment indices to try first (e.g. fastest blobbers); by default
    ///   data fragments come first, which makes decoding a plain copy.
    /// - Parameter pacer: holds the batches to its rate (each reserves its plaintext before it is fetched).
    public func decode(
        from sources: [Int: any FragmentSource], range: Range<Int64>? = nil,
        preferredOrder: [Int]? = nil, pacer: RatePacer? = nil, write: ([UInt8]) throws -> Void
    ) async throws -> Report {
        let layout = file.layout
        let d = layout.dataShards
        for i in sources.keys where i < 0 || i >= layout.totalShards { throw StorageError.invalidFragmentIndex(i) }
        let wanted = (range ?? 0..<layout.fileSize).clamped(to: 0..<layout.fileSize)
        let chunks = layout.chunks(covering: wanted)
        var picker = SourcePicker(sources: sources, preferredOrder: preferredOrder, needed: d, limit: Int(chunks.upperBound))
        defer { picker.stop() }
        var written: Int64 = 0

        // Each batch is rebuilt and opened (on all cores) while the next one is fetched and
        // verified: done one after the other, one core sat idle through most of a download.
        var opening: Task<[[UInt8]], any Error>?
        var batchStart = chunks.lowerBound
        while batchStart < chunks.upperBound {
            let batch = batchStart..<min(chunks.upperBound, batchStart + Int64(chunksPerBatch))
            // The batch's plaintext at most (the file's last batch is shorter).
            await pacer?.take(Int64(batch.count) * Int64(d) * Int64(layout.plainSegmentSize))
            let blocks = try await picker.fetch(batch, using: self)
            let used = picker.active.sorted()
            if let previous = opening {
                for piece in try await previous.value {
                    try write(piece)
                    written += Int64(piece.count)
                }
            }
            opening = Task { [self] in try self.open(batch, blocks: blocks, used: used, wanted: wanted) }
            batchStart = batch.upperBound
        }
        if let last = opening {
            for piece in try await last.value {
                try write(piece)
                written += Int64(piece.count)
            }
        }
        return Report(bytesWritten: written, badSources: picker.bad)
    }

    /// Rebuilds the sealed chunks of `batch` from the verified blocks of the fragments `used`, opens
    /// the segments that overlap `wanted`, and returns their plaintext (cut to `wanted`) in order.
    ///
    /// A full chunk whose data fragments all came is not rebuilt: data fragment j of it is sealed
    /// segment c·d + j unchanged, so each segment is opened where it lies in its fetched block.
    /// Copying every block into a chunk buffer and every segment out of it again cost a download
    /// more CPU than opening the segments.
    func open(_ batch: Range<Int64>, blocks: [Int: [FragmentBlock]], used: [Int], wanted: Range<Int64>) throws -> [[UInt8]] {
        let layout = file.layout
        let d = layout.dataShards
        let B = MerkleRules.blockSize
        let allData = (0..<d).allSatisfy { used.contains($0) }
        let rebuilt: [ByteBuffer?] = try parallelMap(batch.count) { k in
            let c = batch.lowerBound + Int64(k)
            let fs = layout.fragmentSize(ofChunk: c)
            if allData && fs == B { return nil }
            let buffer = ByteBuffer(count: layout.totalShards * fs, zeroed: false)
            for i in used { buffer.write(blocks[i]?[k].data ?? [], at: i * fs) }
            try coder.reconstructData(buffer: buffer.base, stride: fs, fragmentSize: fs, available: used)
            return buffer
        }
        // Segments of this batch that overlap the wanted range, opened on all cores.
        var segments: [(chunk: Int, segment: Int64)] = []
        for k in 0..<batch.count {
            let c = batch.lowerBound + Int64(k)
            let first = c * Int64(d)
            for s in first..<min(layout.segmentCount, first + Int64(d)) {
                let start = s * Int64(layout.plainSegmentSize)
                let end = start + Int64(layout.plainLength(ofSegment: s))
                if start < wanted.upperBound && end > wanted.lowerBound { segments.append((k, s)) }
            }
        }
        return try parallelMap(segments.count) { t in
            let (k, s) = segments[t]
            let c = batch.lowerBound + Int64(k)
            let j = Int(s - c * Int64(d))
            let length = layout.plainLength(ofSegment: s) + layout.cipherOverhead
            let plain: [UInt8]
            if let buffer = rebuilt[k] {
                // The rebuilt chunk's data rows are its sealed bytes in order.
                plain = try cipher.open(buffer.bytes(from: j * B, count: length), segmentIndex: UInt64(s))
            } else {
                guard let block = blocks[j]?[k].data, block.count >= length else {
                    throw StorageError.cipherSizeMismatch(segment: s, expected: length, got: blocks[j]?[k].data.count ?? 0)
                }
                plain = try block.withUnsafeBytes {
                    try cipher.open(UnsafeRawBufferPointer(rebasing: $0[..<length]), segmentIndex: UInt64(s))
                }
            }
            guard plain.count == length - layout.cipherOverhead else {
                throw StorageError.cipherSizeMismatch(segment: s, expected: length - layout.cipherOverhead, got: plain.count)
            }
            let start = s * Int64(layout.plainSegmentSize)
            let lo = Int(max(0, wanted.lowerBound - start))
            let hi = Int(min(Int64(plain.count), wanted.upperBound - start))
            return (lo == 0 && hi == plain.count) ? plain : Array(plain[lo..<hi])
        }
    }

    /// Fetches and verifies one batch from each of `indices` concurrently. With `spares` unused
    /// sources left, a source still busy long after the others answered (`hedgeDelay`, at least 4×
    /// the slowest answer so far) is given up as slow and cancelled, so the caller fetches its
    /// part from a spare instead of waiting for it.
    func fetch(_ indices: [Int], batch: Range<Int64>, sources: [Int: ReadAheadSource], spares: Int = 0) async -> [(
        Int, Swift.Result<[FragmentBlock], VerifyFailure>
    )] {
        let layout = file.layout
        let roots = file.fragmentRoots
        let minimumHedge = hedgeDelay
        enum Event: Sendable {
            case done(Int, Swift.Result<[FragmentBlock], VerifyFailure>, Duration)
            case timer
        }
        return await withTaskGroup(of: Event.self) { group in
            let clock = ContinuousClock()
            let started = clock.now
            var pending = Set<Int>()
            for i in indices {
                guard let source = sources[i] else { continue }
                pending.insert(i)
                group.addTask {
                    let result: Swift.Result<[FragmentBlock], VerifyFailure>
                    do {
                        let got = try await source.blocks(Int(batch.lowerBound)..<Int(batch.upperBound))
                        result = Self.verify(got, batch: batch, layout: layout, root: roots[i])
                    } catch {
                        result = .failure(VerifyFailure(reason: "\(error)"))
                    }
                    return .done(i, result, clock.now - started)
                }
            }
            var out: [(Int, Swift.Result<[FragmentBlock], VerifyFailure>)] = []
            var slowest: Duration = .zero
            var timerSet = false
            while let event = await group.next() {
                switch event {
                case .done(let i, let r, let took):
                    pending.remove(i)
                    out.append((i, r))
                    slowest = max(slowest, took)
                    if pending.isEmpty {
                        group.cancelAll()
                        return out
                    }
                    if !timerSet, spares >= pending.count, pending.count < indices.count {
                        timerSet = true
                        let wait = max(minimumHedge, slowest * 4)
                        group.addTask {
                            try? await Task.sleep(for: wait)
                            return .timer
                        }
                    }
                case .timer:
                    guard !pending.isEmpty else { continue }
                    let waited = clock.now - started
                    for i in pending {
                        out.append(
                            (i, .failure(VerifyFailure(reason: "slow: no answer after \(waited) while the others took at most \(slowest)")))
                        )
                    }
                    group.cancelAll()
                    return out
                }
            }
            return out
        }
    }

    /// Checks the count, sizes and Merkle proofs of a batch against the fragment's root.
    static func verify(_ got: [FragmentBlock], batch: Range<Int64>, layout: FileLayout, root: [UInt8])
        -> Swift.Result<[FragmentBlock], VerifyFailure>
    {
        guard got.count == batch.count else {
            return .failure(VerifyFailure(reason: "returned \(got.count) blocks for \(batch.count) requested"))
        }
        for (k, block) in got.enumerated() {
            let c = batch.lowerBound + Int64(k)
            let fs = layout.fragmentSize(ofChunk: c)
            guard block.data.count == fs else {
                return .failure(VerifyFailure(reason: "block \(c) has \(block.data.count) bytes, expected \(fs)"))
            }
            guard block.proof.leafCount == layout.blocksPerFragment,
                MerkleTree.verify(root: root, blockIndex: Int(c), blockData: block.data, proof: block.proof)
            else {
                return .failure(VerifyFailure(reason: "block \(c) does not match the fragment's Merkle root"))
            }
        }
        return .success(got)
    }

    /// Rebuilds whole fragment streams (`targets`: fragment index → sink, e.g. a replacement blobber)
    /// from any d good sources. Each sink's `finish` carries the signed root of its fragment, so the
    /// receiving blobber verifies what it got. This is repair after a lost blobber or a failed upload.
    public func rebuild(
        _ targets: [Int: any FragmentSink], from sources: [Int: any FragmentSource],
        preferredOrder: [Int]? = nil
    ) async throws -> Report {
        let layout = file.layout
        let n = layout.totalShards
        for i in targets.keys where i < 0 || i >= n { throw StorageError.invalidFragmentIndex(i) }
        for i in sources.keys where i < 0 || i >= n { throw StorageError.invalidFragmentIndex(i) }
        var picker = SourcePicker(
            sources: sources.filter { targets[$0.key] == nil }, preferredOrder: preferredOrder,
            needed: layout.dataShards, limit: Int(layout.chunkCount))
        defer { picker.stop() }
        var failed: [Int: String] = [:]
        var batchStart: Int64 = 0
        while batchStart < layout.chunkCount {
            let batch = batchStart..<min(layout.chunkCount, batchStart + Int64(chunksPerBatch))
            let blocks = try await picker.fetch(batch, using: self)
            let used = picker.active.sorted()
            let perChunk: [[Int: [UInt8]]] = try parallelMap(batch.count) { k in
                let c = batch.lowerBound + Int64(k)
                let fs = layout.fragmentSize(ofChunk: c)
                let buffer = ByteBuffer(count: n * fs)
                for i in used { buffer.write(blocks[i]?[k].data ?? [], at: i * fs) }
                try coder.reconstructData(buffer: buffer.base, stride: fs, fragmentSize: fs, available: used)
                coder.encode(buffer: buffer.base, fragmentSize: fs, stride: fs)
                var out: [Int: [UInt8]] = [:]
                for t in targets.keys { out[t] = buffer.array(from: t * fs, count: fs) }
                return out
            }
            let offset = batch.lowerBound * Int64(MerkleRules.blockSize)
            let live = targets.filter { failed[$0.key] == nil }
            let results = await Fanout.failures(live.map { t, sink in (t, (sink, Array(perChunk.compactMap { $0[t] }.joined()))) }) {
                sink, bytes in
                try await sink.write(bytes, at: offset)
            }
            failed.merge(results.mapValues { "\($0)" }) { a, _ in a }
            batchStart = batch.upperBound
        }
        let length = layout.fragmentLength
        let roots = file.fragmentRoots
        let finishes = await Fanout.failures(targets.filter { failed[$0.key] == nil }.map { t, sink in (t, (sink, roots[t])) }) {
            sink, root in
            try await sink.finish(length: length, root: root)
        }
        failed.merge(finishes.mapValues { "\($0)" }) { a, _ in a }
        return Report(bytesWritten: length * Int64(targets.count - failed.count), badSources: picker.bad, failedSinks: failed)
    }

    /// Keeps d good sources for the current batch, replacing any that fail or lie by the next unused one.
    /// Each source reads one batch ahead of the decoder (`ReadAheadSource`), up to block `limit`.
    struct SourcePicker {
        let sources: [Int: ReadAheadSource]
        let needed: Int
        var pool: [Int]
        var active: [Int] = []
        var bad: [Int: String] = [:]

        init(sources: [Int: any FragmentSource], preferredOrder: [Int]?, needed: Int, limit: Int) {
            self.sources = sources.mapValues { ReadAheadSource($0, limit: limit) }
            self.needed = needed
            var order = (preferredOrder ?? []).filter { sources[$0] != nil }
            order += sources.keys.sorted().filter { !order.contains($0) }
            pool = order
        }

        /// Ends every read-ahead (the transfer is over or failed).
        func stop() {
            for source in sources.values { source.stop() }
        }

        /// Verified blocks of `batch` from d sources, keyed by fragment index.
        mutating func fetch(_ batch: Range<Int64>, using decoder: FileDecoder) async throws -> [Int: [FragmentBlock]] {
            var blocks: [Int: [FragmentBlock]] = [:]
            while true {
                while active.count < needed, !pool.isEmpty { active.append(pool.removeFirst()) }
                guard active.count >= needed else {
                    throw StorageError.notEnoughFragments(needed: needed, available: active.count)
                }
                let missing = active.filter { blocks[$0] == nil }
                if missing.isEmpty { return blocks }
                for (i, result) in await decoder.fetch(missing, batch: batch, sources: sources, spares: pool.count) {
                    switch result {
                    case .success(let b): blocks[i] = b
                    case .failure(let failure):
                        bad[i] = failure.reason
                        active.removeAll { $0 == i }
                        sources[i]?.stop()
                    }
                }
            }
        }
    }

    struct VerifyFailure: Error {
        let reason: String
    }
}
