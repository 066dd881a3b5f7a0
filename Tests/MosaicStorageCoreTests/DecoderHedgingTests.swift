import Foundation
import MosaicTestSupport
import Testing

@testable import MosaicStorageCore

/// A source that answers, but far too slowly (until cancelled): later than the suite's time limit,
/// so only hedging can finish the download in time.
struct SlowSource: FragmentSource {
    let inner: MemorySource
    func blocks(_ range: Range<Int>) async throws -> [FragmentBlock] {
        try await Task.sleep(for: .seconds(600))
        return try await inner.blocks(range)
    }
}

// The hedge waits 4× the slowest answer so far; on a loaded box that alone can take tens of seconds.
@Suite(.timeLimit(.minutes(3)))
struct DecoderHedgingTests {
    @Test func slowSourceIsReplacedBySpare() async throws {
        let data = testBytes(5 * 65536 + 17)
        let encoder = try FileEncoder(dataShards: 2, parityShards: 2, cipher: TaggedTestCipher())
        let sinks = (0..<4).map { _ in MemorySink() }
        let result = try await encoder.encode(bytes: data, to: sinks)
        var sources: [Int: any FragmentSource] = [:]
        for i in 0..<4 { sources[i] = MemorySource(await sinks[i].bytes) }
        sources[0] = SlowSource(inner: MemorySource(await sinks[0].bytes))
        var decoder = try FileDecoder(file: result.file, cipher: TaggedTestCipher(), chunksPerBatch: 2)
        decoder.hedgeDelay = .milliseconds(100)
        var out: [UInt8] = []
        let report = try await decoder.decode(from: sources, preferredOrder: [0, 1, 2, 3]) { out += $0 }
        #expect(same(out, data))
        #expect(report.badSources[0]?.hasPrefix("slow") == true)

        // Without a spare there is nothing to switch to: the decoder waits (here: fails fast instead).
        var failing = sources
        failing[0] = MemorySource(await sinks[0].bytes, fail: true)
        failing[2] = nil
        failing[3] = nil
        await #expect(throws: StorageError.self) { try await decoder.decode(from: failing) { _ in } }
    }
}
