import Foundation
import MosaicCrypto
import MosaicStorageCore
import MosaicTestSupport
import Testing

@testable import MosaicSDK

/// Small files of a folder travel in batches, one commit (one write marker per blobber) for many
/// files, through real blobbers.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct FolderBatchTests {
    /// `count` files of 1 KiB (every tenth empty) in three folders, one with a Unicode name.
    func smallTree(_ grid: StorageGrid, count: Int) throws -> URL {
        let src = URL(fileURLWithPath: grid.root + "/src-" + Hex.encode(Random.bytes(4)))
        for (i, dir) in ["a", "b/deep", "ç ✓"].enumerated() {
            try FileManager.default.createDirectory(at: src.appendingPathComponent(dir), withIntermediateDirectories: true)
            for j in stride(from: i, to: count, by: 3) {
                try Data(j % 10 == 0 ? [] : randomBytes(1024)).write(to: src.appendingPathComponent("\(dir)/f\(j)"))
            }
        }
        return src
    }

    /// Upload files a blobber holds open (not committed).
    func openUploads(_ grid: StorageGrid, _ i: Int) -> [String] {
        let dir = grid.root + "/blobber\(i)"
        let all = FileManager.default.enumerator(atPath: dir)?.allObjects as? [String] ?? []
        return all.filter { path in
            var isDir: ObjCBool = false
            return path.split(separator: "/").contains("uploads")
                && FileManager.default.fileExists(atPath: dir + "/" + path, isDirectory: &isDir) && !isDir.boolValue
        }
    }

    @Test func aFolderOfSmallFilesIsOneCommitPerBatchAndEveryFileReadsBack() async throws {
        let grid = try await StorageGrid(data: 2, parity: 2)
        defer { Task { await grid.shutdown() } }
        let src = try smallTree(grid, count: 300)
        let before = await grid.client.blobberRoots(allocation: grid.allocation)

        let r = try await grid.client.uploadFolder(src, to: "/photos", allocation: grid.allocation)
        #expect(r.failed.map(\.path) == [])
        #expect(r.uploaded.count == 300)
        #expect(r.degraded == [])
        #expect(r.writes == 3, "300 files in batches of at most \(StorageClient.batchMaxFiles): 3 commits, not 300")
        let after = await grid.client.blobberRoots(allocation: grid.allocation)
        #expect(after.count == 4)
        #expect(after.allSatisfy { before[$0.key] != $0.value })
        for i in 0..<4 { #expect(openUploads(grid, i) == [], "blobber \(i) holds no uncommitted upload") }

        // Every file is on every blobber and reads back byte for byte.
        try FileManager.default.createDirectory(atPath: grid.root + "/local", withIntermediateDirectories: true)
        let listed = try await grid.client.listRecursive("/photos", allocation: grid.allocation).filter { $0.kind == .file }
        #expect(listed.count == 300)
        for rel in ["a/f0", "a/f3", "b/deep/f1", "ç ✓/f299", "ç ✓/f290"] {
            let (_, holders) = try await grid.client.resolve("/photos/" + rel, allocation: grid.allocation)
            #expect(holders.sorted() == [0, 1, 2, 3], "\(rel)")
            let out = grid.outputURL()
            try await grid.client.download(remotePath: "/photos/" + rel, to: out, allocation: grid.allocation)
            #expect(try Data(contentsOf: out) == (try Data(contentsOf: src.appendingPathComponent(rel))), "\(rel)")
        }

        // A second run finds everything in place and commits nothing.
        let again = try await grid.client.syncFolder(src, to: "/photos", allocation: grid.allocation)
        #expect(again.writes == 0)
        #expect(again.plan.unchanged.count == 300)
        #expect(await grid.client.blobberRoots(allocation: grid.allocation) == after)
        await grid.shutdown()  // also at the end: the deferred task may not run before the process exits
    }

    @Test func aBatchWithABlobberDownSendsEveryFileAndRecordsItsRepairs() async throws {
        let grid = try await StorageGrid(data: 2, parity: 2)
        defer { Task { await grid.shutdown() } }
        let src = try smallTree(grid, count: 60)
        await grid.stop(3)

        let r = try await grid.client.uploadFolder(src, to: "/up", allocation: grid.allocation)
        #expect(r.failed.map(\.path) == [])
        #expect(r.uploaded.count == 60)
        #expect(r.degraded == [], "three of four blobbers is the write quorum d + 1")
        #expect(r.writes == 1)
        let missed = grid.client.pendingRepairs(allocation: grid.allocation.id)
        #expect(Set(missed.keys) == [3])
        #expect(missed[3]?.count == 60)
        #expect(try await grid.client.resolve("/up/a/f3", allocation: grid.allocation).holders.sorted() == [0, 1, 2])
        await grid.shutdown()  // also at the end: the deferred task may not run before the process exits
    }

    @Test func uploadsThatAKilledBatchLeftOpenAreDroppedByTheNextRun() async throws {
        let grid = try await StorageGrid(data: 2, parity: 2)
        defer { Task { await grid.shutdown() } }
        let src = try smallTree(grid, count: 9)
        // As if a run was killed after sending a batch's fragments and before its commits.
        let journal = FolderJournal(home: grid.client.home, allocation: grid.allocation.id, local: src, remote: "/k")
        let base = Hex.encode(Random.bytes(16))
        journal.beginBatch([base])
        for i in 0..<4 {
            let c = grid.connection(i)
            _ = try await c.put(BlobberUploadSink.uploadID(base, blobber: c.blobber.id), offset: 0, bytes: randomBytes(512))
            #expect(openUploads(grid, i).count == 1)
        }

        let r = try await grid.client.uploadFolder(src, to: "/k", allocation: grid.allocation)
        #expect(r.failed.map(\.path) == [])
        #expect(r.uploaded.count == 9)
        for i in 0..<4 { #expect(openUploads(grid, i) == [], "blobber \(i) dropped the killed run's upload") }
        #expect(journal.leftoverBatch() == [])
        await grid.shutdown()  // also at the end: the deferred task may not run before the process exits
    }

    @Test func aFileThatChangedSinceItWasPlannedLeavesTheBatchAndTheRestAreCommitted() async throws {
        let grid = try await StorageGrid(data: 2, parity: 2)
        defer { Task { await grid.shutdown() } }
        let src = URL(fileURLWithPath: grid.root + "/changing")
        try FileManager.default.createDirectory(at: src, withIntermediateDirectories: true)
        var files: [BatchFile] = []
        for name in ["a", "b", "c"] {
            let url = src.appendingPathComponent(name)
            try Data(randomBytes(4096)).write(to: url)
            let stamp = try #require(SourceStamp(path: url.path))
            files.append(BatchFile(local: url, remotePath: "/c/" + name, existing: nil, replace: false, stamp: stamp))
        }
        // b is written again after the plan took its stamp: what would be read is not what was planned.
        try Data(randomBytes(5000)).write(to: files[1].local)
        let journal = FolderJournal(home: grid.client.home, allocation: grid.allocation.id, local: src, remote: "/c")
        let (outcomes, commits) = await grid.client.uploadBatch(
            files, allocation: grid.allocation, concurrency: 2, journal: journal, moved: { _, _ in })
        #expect(commits == 1)
        guard case .sent = outcomes[0], case .alone = outcomes[1], case .sent = outcomes[2] else {
            Issue.record("a and c are sent, b goes alone: \(outcomes)")
            return
        }
        await #expect(throws: StorageClientError.notFound(path: "/c/b"), "nothing was committed for the changed file") {
            try await grid.client.resolve("/c/b", allocation: grid.allocation)
        }
        for i in 0..<4 { #expect(openUploads(grid, i) == [], "blobber \(i) holds no upload of the changed file") }
        #expect(try await grid.client.list("/c", allocation: grid.allocation).map(\.path) == ["/c/a", "/c/c"])
        await grid.shutdown()  // also at the end: the deferred task may not run before the process exits
    }
}
