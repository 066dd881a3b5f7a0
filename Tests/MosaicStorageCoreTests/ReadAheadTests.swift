import Foundation
import MosaicTestSupport
import Synchronization
import Testing

@testable import MosaicStorageCore

/// A source that logs every request and how many ran at once; each takes a few ms, so requests
/// that overlapped would be seen overlapping.
final class WatchedSource: FragmentSource {
    struct Log {
        var ranges: [Range<Int>] = []
        var running = 0
        var mostAtOnce = 0
    }

    let inner: MemorySource
    let log = Mutex(Log())

    init(_ inner: MemorySource) { self.inner = inner }

    func blocks(_ range: Range<Int>) async throws -> [FragmentBlock] {
        log.withLock {
            $0.ranges.append(range)
            $0.running += 1
            $0.mostAtOnce = max($0.mostAtOnce, $0.running)
        }
        defer { log.withLock { $0.running -= 1 } }
        try await Task.sleep(for: .milliseconds(3))
        return try await inner.blocks(range)
    }

    var ranges: [Range<Int>] { log.withLock { $0.ranges } }
}

@Suite(.timeLimit(.minutes(2)))
struct ReadAheadTests {
    /// Read-ahead must not change what a source is asked for: each batch once, in order, one
    /// request at a time (a blobber's read markers must arrive in counter order), nothing past the end.
    @Test func eachSourceIsAskedForEveryBatchOnceInOrderOneAtATime() async throws {
        let cipher = TaggedTestCipher()
        let plain = testBytes(9 * 2 * 65536 - 100)
        let encoder = try FileEncoder(dataShards: 2, parityShards: 1, cipher: cipher)
        let sinks = (0..<3).map { _ in MemorySink() }
        let result = try await encoder.encode(bytes: plain, to: sinks)
        let chunks = Int(result.file.layout.chunkCount)
        let watched = [WatchedSource(MemorySource(await sinks[0].bytes)), WatchedSource(MemorySource(await sinks[1].bytes))]
        let decoder = try FileDecoder(file: result.file, cipher: cipher, chunksPerBatch: 2)
        var out: [UInt8] = []
        let report = try await decoder.decode(from: [0: watched[0], 1: watched[1]]) { out += $0 }
        #expect(same(out, plain))
        #expect(report.badSources.isEmpty)
        let batches = stride(from: 0, to: chunks, by: 2).map { $0..<min(chunks, $0 + 2) }
        for w in watched {
            #expect(w.ranges == batches)
            #expect(w.log.withLock { $0.mostAtOnce } == 1)
        }
    }

    /// The point of it: once a batch has arrived, the next one is already being fetched before the
    /// decoder asks for it, and the decoder then gets it without a second request.
    @Test func theNextBatchIsFetchedBeforeItIsAskedFor() async throws {
        let stream = testBytes(6 * 65536)
        let watched = WatchedSource(MemorySource(stream))
        let source = ReadAheadSource(watched, limit: 6)
        let first = try await source.blocks(0..<2)
        #expect(first.map(\.proof.leafIndex) == [0, 1])
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(10)
        while watched.ranges.count < 2, clock.now < deadline { try await Task.sleep(for: .milliseconds(1)) }
        #expect(watched.ranges == [0..<2, 2..<4])
        let second = try await source.blocks(2..<4)
        #expect(second.map(\.proof.leafIndex) == [2, 3])
        #expect(Array(second[0].data) == Array(stream[2 * 65536..<3 * 65536]))
        // A jump elsewhere drops the read-ahead and asks for what was wanted.
        let other = try await source.blocks(0..<1)
        #expect(other.map(\.proof.leafIndex) == [0])
        source.stop()
        // The read-ahead never passes the limit.
        let tail = try await source.blocks(4..<6)
        #expect(tail.count == 2)
        try await Task.sleep(for: .milliseconds(50))
        #expect(watched.ranges.allSatisfy { $0.upperBound <= 6 })
    }
}
