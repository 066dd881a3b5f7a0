import Foundation
import MosaicTestSupport
import Testing

@testable import MosaicStorageCore

@Suite struct FileCodecTests {
    /// Encodes `plain` into memory sinks; returns the encoded file and the fragment streams.
    static func upload(_ plain: [UInt8], d: Int, p: Int, cipher: any SegmentCipher, batch: Int = 3) async throws -> (EncodedFile, [[UInt8]])
    {
        let encoder = try FileEncoder(dataShards: d, parityShards: p, cipher: cipher, chunksPerBatch: batch)
        let sinks = (0..<(d + p)).map { _ in MemorySink() }
        var offset = 0
        let result = try await encoder.encode(
            read: { n in
                let end = min(plain.count, offset + min(n, 50_000))  // short reads on purpose
                defer { offset = end }
                return Array(plain[offset..<end])
            }, to: sinks)
        #expect(result.failedSinks.isEmpty)
        var streams: [[UInt8]] = []
        for (i, s) in sinks.enumerated() {
            let bytes = await s.bytes
            streams.append(bytes)
            let fin = await s.finished
            #expect(fin?.length == Int64(bytes.count))
            #expect(fin?.root == result.file.fragmentRoots[i])
            #expect(MerkleTree(stream: bytes).root == result.file.fragmentRoots[i])
        }
        #expect(streams.allSatisfy { Int64($0.count) == result.file.layout.fragmentLength })
        return (result.file, streams)
    }

    static func download(
        _ file: EncodedFile, _ sources: [Int: any FragmentSource], cipher: any SegmentCipher,
        range: Range<Int64>? = nil, batch: Int = 2
    ) async throws -> ([UInt8], FileDecoder.Report) {
        let decoder = try FileDecoder(file: file, cipher: cipher, chunksPerBatch: batch)
        var out: [UInt8] = []
        let report = try await decoder.decode(from: sources, range: range) { out += $0 }
        return (out, report)
    }

    @Test(arguments: [(2, 2), (4, 2)])
    func roundTripsEverySizeWithParityLost(d: Int, p: Int) async throws {
        let B = 65536
        for cipher in [IdentityCipher() as any SegmentCipher, TaggedTestCipher()] {
            for size in [0, 1, B - 1, d * B + 1, 3 * 1024 * 1024 + 5] {
                let plain = testBytes(size, seed: UInt64(size + 1))
                let (file, streams) = try await Self.upload(plain, d: d, p: p, cipher: cipher)
                #expect(file.layout.fileSize == Int64(size))
                // Lose the first p fragments (all data-first sources gone: forces a real decode).
                var sources: [Int: any FragmentSource] = [:]
                for i in p..<(d + p) { sources[i] = MemorySource(streams[i]) }
                let (out, report) = try await Self.download(file, sources, cipher: cipher)
                #expect(same(out, plain), "size \(size) \(d)+\(p) overhead \(cipher.overhead)")
                #expect(report.badSources.isEmpty)
            }
        }
    }

    @Test func tenPlusFourRoundTrip() async throws {
        let plain = testBytes(10 * 65536 * 2 + 12345)
        let (file, streams) = try await Self.upload(plain, d: 10, p: 4, cipher: TaggedTestCipher())
        var sources: [Int: any FragmentSource] = [:]
        for i in [0, 2, 3, 5, 6, 7, 9, 10, 12, 13] { sources[i] = MemorySource(streams[i]) }
        #expect(same(try await Self.download(file, sources, cipher: TaggedTestCipher()).0, plain))
    }

    @Test func smallFilesCostLittle() async throws {
        let (file, streams) = try await Self.upload([42], d: 4, p: 2, cipher: IdentityCipher())
        #expect(file.layout.fragmentLength == 64)
        #expect(streams.allSatisfy { $0.count == 64 })
        #expect(Array(streams[0].prefix(2)) == [42, 0])
    }

    @Test func lyingAndFailingSourcesAreRoutedAround() async throws {
        let plain = testBytes(9 * 65536 + 99)
        let (file, streams) = try await Self.upload(plain, d: 2, p: 2, cipher: TaggedTestCipher())
        // Source 0 lies on block 3 (found in the second batch), source 1 is down; 2 and 3 take over.
        let sources: [Int: any FragmentSource] = [
            0: MemorySource(streams[0], corruptBlock: 3),
            1: MemorySource(streams[1], fail: true),
            2: MemorySource(streams[2]),
            3: MemorySource(streams[3]),
        ]
        let (out, report) = try await Self.download(file, sources, cipher: TaggedTestCipher())
        #expect(same(out, plain))
        #expect(Set(report.badSources.keys) == [0, 1])
        #expect(report.badSources[0]?.contains("Merkle root") == true)

        // With only d sources and one of them lying, the download refuses instead of returning bad bytes.
        let tooFew: [Int: any FragmentSource] = [0: MemorySource(streams[0], corruptBlock: 0), 3: MemorySource(streams[3])]
        await #expect(throws: StorageError.notEnoughFragments(needed: 2, available: 1)) {
            _ = try await Self.download(file, tooFew, cipher: TaggedTestCipher())
        }
    }

    @Test func rangeReadsFetchOnlyCoveringChunks() async throws {
        let cipher = TaggedTestCipher()
        let P = Int64(65536 - 16)
        let plain = testBytes(20 * 65536 + 3)
        let (file, streams) = try await Self.upload(plain, d: 2, p: 1, cipher: cipher)
        let ranges: [Range<Int64>] = [
            0..<1, 5..<70_000, P - 1..<P + 1, 2 * P..<4 * P + 1, 1_000_000..<Int64(plain.count),
            Int64(plain.count) - 1..<Int64(plain.count) + 50, 10..<10, 0..<Int64(plain.count),
        ]
        for r in ranges {
            let log = RequestLog()
            let sources: [Int: any FragmentSource] = [1: MemorySource(streams[1], log: log), 2: MemorySource(streams[2], log: log)]
            let (out, _) = try await Self.download(file, sources, cipher: cipher, range: r)
            let clamped = r.clamped(to: 0..<Int64(plain.count))
            #expect(same(out, Array(plain[Int(clamped.lowerBound)..<Int(clamped.upperBound)])), "range \(r)")
            let expected = file.layout.chunks(covering: r)
            let fetched = await log.ranges
            #expect(fetched.allSatisfy { Int64($0.lowerBound) >= expected.lowerBound && Int64($0.upperBound) <= expected.upperBound })
        }
    }

    /// A file of a size known up front: every sink is told its stream's length before the first
    /// write (so a blobber sink can stream it as few requests), and a file found shorter or longer
    /// than that size stops the upload with `sourceSizeChanged` instead of sending other bytes.
    @Test func fileOfAKnownSizeAnnouncesItsStreamsAndRefusesAChangedSize() async throws {
        let path = NSTemporaryDirectory() + "/mosaic-encoder-size-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: path) }
        let plain = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(plain)))
        let cipher = IdentityCipher()
        let encoder = try FileEncoder(dataShards: 2, parityShards: 1, cipher: cipher, chunksPerBatch: 1)
        let sinks = (0..<3).map { _ in AnnouncedSink() }
        let result = try await encoder.encode(fileAt: path, size: Int64(plain.count), to: sinks)
        for s in sinks {
            #expect(s.announced == result.file.layout.fragmentLength)
            #expect(s.written == result.file.layout.fragmentLength)
        }
        for wrong in [Int64(plain.count - 1), Int64(plain.count + 1), 0] {
            do {
                _ = try await encoder.encode(fileAt: path, size: wrong, to: (0..<3).map { _ in AnnouncedSink() })
                Issue.record("a file of \(plain.count) bytes passed as \(wrong)")
            } catch let StorageError.sourceSizeChanged(_, expected, found) {
                #expect(expected == wrong)
                #expect(found == (wrong < plain.count ? wrong + 1 : Int64(plain.count)), "\(wrong)")
            }
        }
    }

    @Test func uploadSurvivesDeadSinksUpToTheMinimum() async throws {
        let plain = testBytes(300_000)
        let encoder = try FileEncoder(dataShards: 2, parityShards: 2, cipher: IdentityCipher())
        let good = [MemorySink(), MemorySink(), MemorySink()]
        let result = try await encoder.encode(read: { _ in [] }, to: [good[0], FailingSink(), good[1], good[2]], minimumSinks: 3)
        #expect(Set(result.failedSinks.keys) == [1])
        var offset = 0
        let r2 = try await encoder.encode(
            read: { n in
                defer { offset = min(plain.count, offset + n) }
                return Array(plain[offset..<min(plain.count, offset + n)])
            }, to: [MemorySink(), FailingSink(), MemorySink(), MemorySink()], minimumSinks: 3)
        #expect(Set(r2.failedSinks.keys) == [1])
        await #expect(throws: StorageError.self) {
            var sent = false
            _ = try await encoder.encode(
                read: { _ in
                    defer { sent = true }
                    return sent ? [] : [1, 2, 3]
                }, to: [MemorySink(), FailingSink(), FailingSink(), MemorySink()], minimumSinks: 3)
        }
    }
}

/// Counts what an encoder announced and wrote.
private final class AnnouncedSink: FragmentSink, @unchecked Sendable {
    // @unchecked: the encoder calls a sink in order, never two calls at once.
    var announced: Int64?
    var written: Int64 = 0
    func expect(length: Int64) { announced = length }
    func write(_ bytes: [UInt8], at offset: Int64) async throws {
        precondition(offset == written, "writes arrive in order")
        written += Int64(bytes.count)
    }
    func finish(length: Int64, root: [UInt8]) async throws {}
}
