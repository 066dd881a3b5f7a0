import Foundation
import MosaicTestSupport
import Synchronization
import Testing

@testable import MosaicBlobber
@testable import MosaicStorageCore

@Suite struct FragmentStoreTests {
    static func tempDir() -> String {
        let dir = NSTemporaryDirectory() + "mosaic-store-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    static func tmpCount(_ dir: String) -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir + "/tmp")) ?? []).count
    }

    @Test func uploadIntoStoresThenDownloadFromThem() async throws {
        let dir = Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let stores = try (0..<4).map { try FragmentStore(directory: dir + "/blobber\($0)") }
        let plain = testBytes(5 * 65536 + 1234)
        let encoder = try FileEncoder(dataShards: 2, parityShards: 2, cipher: TaggedTestCipher(), chunksPerBatch: 2)
        let writers = try stores.map { try $0.beginWrite(allocation: "alloc1", file: "f1") }
        var offset = 0
        let result = try await encoder.encode(
            read: { n in
                defer { offset = min(plain.count, offset + n) }
                return Array(plain[offset..<min(plain.count, offset + n)])
            }, to: writers)
        for (i, store) in stores.enumerated() {
            let entry = try store.entry(allocation: "alloc1", file: "f1")
            #expect(entry.root == result.file.fragmentRoots[i])
            #expect(entry.length == result.file.layout.fragmentLength)
            #expect(store.usedBytes(allocation: "alloc1") == entry.length)
            #expect(try store.files(allocation: "alloc1") == ["f1"])
            #expect(Self.tmpCount(dir + "/blobber\(i)") == 0)
            // Proofs served from disk verify against the committed root (what a challenge checks).
            for block in try store.readBlocks(allocation: "alloc1", file: "f1", range: 0..<entry.blockCount) {
                let ok = MerkleTree.verify(root: entry.root, blockIndex: block.proof.leafIndex, blockData: block.data, proof: block.proof)
                #expect(ok)
            }
        }
        var sources: [Int: any FragmentSource] = [:]
        for i in [1, 3] { sources[i] = StoredFragmentSource(store: stores[i], allocation: "alloc1", file: "f1") }
        let decoder = try FileDecoder(file: result.file, cipher: TaggedTestCipher())
        var out: [UInt8] = []
        _ = try await decoder.decode(from: sources) { out += $0 }
        #expect(same(out, plain))

        // Usage survives a reopen; delete releases it.
        let reopened = try FragmentStore(directory: dir + "/blobber0")
        #expect(reopened.usedBytes(allocation: "alloc1") == result.file.layout.fragmentLength)
        try reopened.delete(allocation: "alloc1", file: "f1")
        #expect(reopened.usedBytes(allocation: "alloc1") == 0)
        #expect(!reopened.contains(allocation: "alloc1", file: "f1"))
        #expect(throws: StorageError.notFound(allocation: "alloc1", file: "f1")) {
            try reopened.readBlocks(allocation: "alloc1", file: "f1", range: 0..<1)
        }
    }

    @Test func partialWriteIsInvisibleAfterACrash() throws {
        let dir = Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try FragmentStore(directory: dir)
        let writer = try store.beginWrite(allocation: "a", file: "big")
        try writer.append(testBytes(100_000))
        #expect(Self.tmpCount(dir) == 1)
        #expect(!store.contains(allocation: "a", file: "big"))
        // The process "dies" here: the writer never commits. A restarted blobber opens the directory.
        let restarted = try FragmentStore(directory: dir)
        #expect(Self.tmpCount(dir) == 0)
        #expect(!restarted.contains(allocation: "a", file: "big"))
        #expect(restarted.usedBytes(allocation: "a") == 0)
        withExtendedLifetime(writer) {}
    }

    @Test func rootMismatchIsRejectedAndLeavesNothing() throws {
        let dir = Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try FragmentStore(directory: dir)
        let data = testBytes(70_000)
        let right = MerkleTree(stream: data).root
        var wrong = right
        wrong[0] ^= 1

        let w1 = try store.beginWrite(allocation: "a", file: "x")
        try w1.append(data)
        #expect(throws: StorageError.self) { try w1.commit(expectedRoot: wrong) }
        #expect(throws: StorageError.writerClosed) { try w1.append([1]) }
        #expect(!store.contains(allocation: "a", file: "x"))
        #expect(Self.tmpCount(dir) == 0)
        #expect(store.usedBytes(allocation: "a") == 0)

        // Resent ranges are skipped (idempotent retries), gaps are refused.
        let w2 = try store.beginWrite(allocation: "a", file: "x")
        try w2.receive(Array(data[0..<50_000]), at: 0)
        try w2.receive(Array(data[40_000..<60_000]), at: 40_000)
        #expect(throws: StorageError.self) { try w2.receive([0], at: 70_000) }
        try w2.receive(Array(data[60_000...]), at: 60_000)
        let entry = try w2.commit(expectedRoot: right, expectedLength: 70_000)
        #expect(entry.blockCount == 2)
        #expect(try store.readBytes(allocation: "a", file: "x", offset: 0, count: 100_000) == data)
        #expect(store.usedBytes(allocation: "a") == 70_000)

        // Overwriting replaces atomically and keeps the accounting right.
        let w3 = try store.beginWrite(allocation: "a", file: "x")
        try w3.append([1, 2, 3])
        try w3.commit(expectedRoot: MerkleTree(stream: [1, 2, 3]).root)
        #expect(store.usedBytes(allocation: "a") == 3)
        #expect(store.totalUsedBytes == 3)
    }

    @Test func unsafeNamesAreRefused() throws {
        let dir = Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try FragmentStore(directory: dir)
        for bad in ["", "../etc", "a/b", ".hidden", String(repeating: "x", count: 129), "sp ace"] {
            #expect(throws: StorageError.invalidName(bad)) { try store.beginWrite(allocation: "ok", file: bad) }
        }
    }

    @Test func damagedFileIsReportedNotTrusted() throws {
        let dir = Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try FragmentStore(directory: dir)
        let w = try store.beginWrite(allocation: "a", file: "y")
        try w.append(testBytes(1000))
        try w.commit(expectedRoot: MerkleTree(stream: testBytes(1000)).root)
        let path = dir + "/alloc/a/y.frag"
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.truncate(atOffset: 500)
        try handle.close()
        #expect(throws: StorageError.corruptFragmentFile(path)) { try store.entry(allocation: "a", file: "y") }
    }

    struct ReaderDied: Error {}

    @Test func interruptedUploadResumesIntoTheSameWriters() async throws {
        let dir = Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let stores = try (0..<3).map { try FragmentStore(directory: dir + "/b\($0)") }
        let writers = try stores.map { try $0.beginWrite(allocation: "a", file: "f") }
        let plain = testBytes(10 * 65536 + 5)
        let encoder = try FileEncoder(dataShards: 2, parityShards: 1, cipher: TaggedTestCipher(), chunksPerBatch: 1)
        var offset = 0
        await #expect(throws: ReaderDied.self) {
            _ = try await encoder.encode(
                read: { n in
                    if offset >= 300_000 { throw ReaderDied() }
                    defer { offset = min(plain.count, offset + n) }
                    return Array(plain[offset..<min(plain.count, offset + n)])
                }, to: writers)
        }
        #expect(writers.allSatisfy { $0.length > 0 })
        #expect(!stores[0].contains(allocation: "a", file: "f"))
        offset = 0
        let seen = ProgressLog()
        let result = try await encoder.encode(
            read: { n in
                defer { offset = min(plain.count, offset + n) }
                return Array(plain[offset..<min(plain.count, offset + n)])
            }, to: writers, progress: { seen.add($0) })
        #expect(seen.values.last == Int64(plain.count))
        #expect(seen.values == seen.values.sorted())
        for (i, store) in stores.enumerated() {
            #expect(try store.entry(allocation: "a", file: "f").root == result.file.fragmentRoots[i])
        }
    }

    @Test func repairRebuildsALostBlobberFromTheOthers() async throws {
        let dir = Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/input.bin"
        let plain = testBytes(7 * 65536 + 321)
        #expect(FileManager.default.createFile(atPath: path, contents: Data(plain)))
        let stores = try (0..<6).map { try FragmentStore(directory: dir + "/b\($0)") }
        let encoder = try FileEncoder(dataShards: 3, parityShards: 3, cipher: TaggedTestCipher(), chunksPerBatch: 1)
        let result = try await encoder.encode(fileAt: path, to: try stores.map { try $0.beginWrite(allocation: "a", file: "f") })
        // Blobbers 1 and 4 lose everything; a liar among the rest is routed around.
        try stores[1].delete(allocation: "a", file: "f")
        try stores[4].delete(allocation: "a", file: "f")
        let fresh = try [1, 4].map { try FragmentStore(directory: dir + "/new\($0)") }
        var sources: [Int: any FragmentSource] = [:]
        for i in [2, 3, 5] { sources[i] = StoredFragmentSource(store: stores[i], allocation: "a", file: "f") }
        let zeroBlocks = try stores[0].readBlocks(allocation: "a", file: "f", range: 0..<result.file.layout.blocksPerFragment)
        sources[0] = MemorySource(Array(zeroBlocks.map(\.data).joined()), corruptBlock: 1)
        let decoder = try FileDecoder(file: result.file, cipher: TaggedTestCipher(), chunksPerBatch: 3)
        let report = try await decoder.rebuild(
            [
                1: try fresh[0].beginWrite(allocation: "a", file: "f"),
                4: try fresh[1].beginWrite(allocation: "a", file: "f"),
            ], from: sources)
        #expect(report.failedSinks.isEmpty)
        #expect(Set(report.badSources.keys) == [0])
        #expect(try fresh[0].entry(allocation: "a", file: "f").root == result.file.fragmentRoots[1])
        #expect(try fresh[1].entry(allocation: "a", file: "f").root == result.file.fragmentRoots[4])
        // The rebuilt fragments are enough, with one other, to read the file back.
        let back: [Int: any FragmentSource] = [
            1: StoredFragmentSource(store: fresh[0], allocation: "a", file: "f"),
            4: StoredFragmentSource(store: fresh[1], allocation: "a", file: "f"),
            5: StoredFragmentSource(store: stores[5], allocation: "a", file: "f"),
        ]
        var out: [UInt8] = []
        _ = try await decoder.decode(from: back) { out += $0 }
        #expect(same(out, plain))
    }
}

/// Collects progress callbacks (which may come from any thread).
final class ProgressLog: Sendable {
    private let log = Mutex<[Int64]>([])
    func add(_ v: Int64) { log.withLock { $0.append(v) } }
    var values: [Int64] { log.withLock { $0 } }
}
