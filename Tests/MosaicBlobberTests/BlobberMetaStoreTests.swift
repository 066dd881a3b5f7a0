import Foundation
import MosaicProtocol
import MosaicSDK
import Synchronization
import Testing

@testable import MosaicBlobber
@testable import MosaicStorageCore

/// Blobber metadata lives in `meta.sqlite`; a blobber directory written by the earlier
/// one-JSON-file-per-allocation version must come back with every file readable.
@Suite struct BlobberMetaStoreTests {
    @Test func blobberFromBeforeMetaSQLiteImportsItsJSONRecords() async throws {
        let grid = try await StorageGrid(data: 1, parity: 1)
        defer { Task { await grid.shutdown() } }
        let bytes = randomBytes(200_000)
        _ = try await grid.client.upload(localFile: try grid.localFile(bytes), remotePath: "/a/b.bin", allocation: grid.allocation)
        _ = try await grid.client.upload(localFile: try grid.localFile([1, 2, 3]), remotePath: "/c.txt", allocation: grid.allocation)
        let server0 = try #require(grid.server(0))
        let before = try #require(server0.records.withLock { $0[grid.allocation.id] })
        await grid.stop(0)

        // Rewrite blobber 0's disk the way the JSON-record version left it.
        let dir = grid.root + "/blobber0"
        let store = try BlobberMetaStore(path: dir + "/meta.sqlite")
        let records = try store.loadAll()
        store.close()
        try FileManager.default.createDirectory(atPath: dir + "/meta", withIntermediateDirectories: true)
        for (id, r) in records { try JSONEncoder().encode(r).write(to: URL(fileURLWithPath: dir + "/meta/" + id + ".json")) }
        for suffix in ["", "-wal", "-shm"] { unlink(dir + "/meta.sqlite" + suffix) }

        try await grid.restart(0)
        let restarted = try #require(grid.server(0))
        let after = try #require(restarted.records.withLock { $0[grid.allocation.id] })
        #expect(after.root == before.root)
        #expect(after.size == before.size)
        #expect(Set(after.files.keys) == Set(before.files.keys))
        #expect(after.pendingMarkers.map(\.signature) == before.pendingMarkers.map(\.signature))
        #expect(!FileManager.default.fileExists(atPath: dir + "/meta"), "the JSON records are removed once imported")

        await grid.stop(1)  // blobber 0 alone must serve the file (d = 1)
        let out = grid.outputURL()
        _ = try await grid.client.download(remotePath: "/a/b.bin", to: out, allocation: grid.allocation)
        #expect([UInt8](try Data(contentsOf: out)) == bytes)
    }

    /// Log lines a blobber wrote.
    final class Lines: Sendable {
        let all = Mutex<[String]>([])
        var text: String { all.withLock { $0.joined(separator: "\n") } }
    }

    @Test func aBlobberWhoseEntriesDoNotGiveItsCommittedRootSaysSoAtStart() async throws {
        let lines = Lines()
        let grid = try await StorageGrid(data: 1, parity: 1) { c in c.logger = { line in lines.all.withLock { $0.append(line) } } }
        defer { Task { await grid.shutdown() } }
        _ = try await grid.client.upload(localFile: try grid.localFile([1, 2, 3]), remotePath: "/a.txt", allocation: grid.allocation)
        try await grid.restart(0)
        #expect(!lines.text.contains("not the committed"), "an honest restart raises no alarm: \(lines.text)")

        // As a blobber from before the v2 allocation root left it: its committed root is of another rule.
        await grid.stop(0)
        let store = try BlobberMetaStore(path: grid.root + "/blobber0/meta.sqlite")
        var r = try #require(try store.loadAll()[grid.allocation.id])
        r.root = String(repeating: "1", count: 64)
        try store.saveAllocation(r)
        store.close()
        try await grid.restart(0)
        #expect(lines.text.contains("allocation \(grid.allocation.id): its 1 stored entries give root"), "\(lines.text)")
        #expect(lines.text.contains("not the committed \(r.root)"))
        #expect(lines.text.contains("before the v2 allocation root"))
        await grid.shutdown()  // also at the end: the deferred task may not run before the process exits
    }
}
