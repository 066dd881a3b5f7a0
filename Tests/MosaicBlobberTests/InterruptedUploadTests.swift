import Foundation
import MosaicStorageCore
import MosaicTestSupport
import Synchronization
import Testing

@testable import MosaicSDK

/// Uploads that were cut short or whose source changed under them, through real blobbers: a
/// commit a kill left on some blobbers only, and a file rewritten while it is sent.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct InterruptedUploadTests {
    /// Leaves `path` on blobber 0 only, as a kill between the blobbers' commits does: it is
    /// deleted again on the others (the state is the same; a kill cannot be timed to land there).
    func cutShort(_ grid: StorageGrid, _ path: String) async throws {
        for i in 1..<(grid.dataShards + grid.parityShards) {
            try await grid.client.commit(grid.connection(i), allocation: grid.allocation) { _ in [.delete(path)] }
        }
        let holders = try await grid.client.resolve(path, allocation: grid.allocation).holders
        #expect(holders == [0])
        #expect(try await grid.client.list("/docs", allocation: grid.allocation).isEmpty, "fewer than d blobbers: not listed")
    }

    @Test func anUploadWhoseCommitWasCutShortIsCommittedAgainOnEveryBlobberWhenTheContentIsTheSame() async throws {
        let grid = try await StorageGrid(data: 2, parity: 2)
        defer { Task { await grid.shutdown() } }
        let bytes = testBytes(100_000)
        let file = try grid.localFile(bytes)
        try await grid.client.upload(localFile: file, remotePath: "/docs/a.bin", allocation: grid.allocation)
        try await cutShort(grid, "/docs/a.bin")

        // The same upload again, without replace: it completes instead of failing as "exists".
        let again = try await grid.client.upload(localFile: file, remotePath: "/docs/a.bin", allocation: grid.allocation)
        #expect(again.committed == [0, 1, 2, 3])
        #expect(try await grid.client.resolve("/docs/a.bin", allocation: grid.allocation).holders.sorted() == [0, 1, 2, 3])
        let out = grid.outputURL()
        try await grid.client.download(remotePath: "/docs/a.bin", to: out, allocation: grid.allocation)
        #expect([UInt8](try Data(contentsOf: out)) == bytes)

        // Once complete, the same upload is refused as before: it exists.
        await #expect(throws: StorageClientError.alreadyExists(path: "/docs/a.bin")) {
            try await grid.client.upload(localFile: file, remotePath: "/docs/a.bin", allocation: grid.allocation)
        }
        await grid.shutdown()  // also at the end: the deferred task may not run before the process exits
    }

    @Test func aCutShortCommitOfOtherContentIsStillRefusedWithoutReplace() async throws {
        let grid = try await StorageGrid(data: 2, parity: 2)
        defer { Task { await grid.shutdown() } }
        try await grid.client.upload(
            localFile: try grid.localFile(testBytes(5000, seed: 1)), remotePath: "/docs/b.bin", allocation: grid.allocation)
        try await cutShort(grid, "/docs/b.bin")
        let other = try grid.localFile(testBytes(5000, seed: 2))
        await #expect(throws: StorageClientError.alreadyExists(path: "/docs/b.bin")) {
            try await grid.client.upload(localFile: other, remotePath: "/docs/b.bin", allocation: grid.allocation)
        }
        #expect(try await grid.client.resolve("/docs/b.bin", allocation: grid.allocation).holders == [0], "nothing was written")
        await grid.shutdown()  // also at the end: the deferred task may not run before the process exits
    }

    @Test func aFolderUploadCompletesAFileACutShortCommitLeftOnOneBlobber() async throws {
        let grid = try await StorageGrid(data: 2, parity: 2)
        defer { Task { await grid.shutdown() } }
        let src = URL(fileURLWithPath: grid.root + "/src")
        try FileManager.default.createDirectory(at: src, withIntermediateDirectories: true)
        for i in 0..<3 { try Data(testBytes(3000, seed: UInt64(i + 1))).write(to: src.appendingPathComponent("f\(i)")) }
        // As if an earlier folder run was killed while f1 was committed on blobber 0 only.
        try await grid.client.upload(localFile: src.appendingPathComponent("f1"), remotePath: "/docs/f1", allocation: grid.allocation)
        try await cutShort(grid, "/docs/f1")

        let r = try await grid.client.uploadFolder(src, to: "/docs", allocation: grid.allocation)
        #expect(r.failed.map(\.path) == [])
        #expect(r.uploaded.sorted() == ["f0", "f1", "f2"])
        #expect(try await grid.client.resolve("/docs/f1", allocation: grid.allocation).holders.sorted() == [0, 1, 2, 3])
        await grid.shutdown()  // also at the end: the deferred task may not run before the process exits
    }

    /// A folder of `small.txt` and `big.bin` (2 MiB: several encoder batches, so progress
    /// arrives while it is in flight); `rewrite` runs on each progress report with big.bin's URL.
    func changingFolder(
        _ grid: StorageGrid, rewrite: @escaping @Sendable (URL, FolderProgress) -> Void
    ) async throws -> (FolderUploadResult, URL) {
        let src = URL(fileURLWithPath: grid.root + "/src")
        try FileManager.default.createDirectory(at: src, withIntermediateDirectories: true)
        try Data("small".utf8).write(to: src.appendingPathComponent("small.txt"))
        let big = src.appendingPathComponent("big.bin")
        try Data(testBytes(2 << 20, seed: 7)).write(to: big)
        let r = try await grid.client.uploadFolder(src, to: "/up", allocation: grid.allocation, concurrency: 1) { p in
            rewrite(big, p)
        }
        return (r, big)
    }

    /// Overwrites the first bytes of the file in place (same size, same inode, new ctime).
    static func scribble(_ url: URL, _ byte: UInt8) {
        guard let h = try? FileHandle(forWritingTo: url) else { return }
        try? h.write(contentsOf: Data(repeating: byte, count: 16))
        try? h.close()
    }

    @Test func aFileThatKeepsChangingWhileItIsSentIsTriedOnceMoreThenSkippedAndNamed() async throws {
        let grid = try await StorageGrid(data: 2, parity: 2)
        defer { Task { await grid.shutdown() } }
        let writes = Mutex(0)
        let (r, _) = try await changingFolder(grid) { big, p in
            // Every report while big.bin is in flight rewrites it, so both attempts see a change.
            guard p.bytesDone > 5, p.bytesDone < p.bytesTotal else { return }
            let n = writes.withLock { w -> Int in
                w += 1
                return w
            }
            Self.scribble(big, UInt8(truncatingIfNeeded: n))
        }
        #expect(r.changedDuringUpload == ["big.bin"])
        #expect(r.failed.map(\.path) == ["big.bin"])
        #expect(r.failed.first?.code == StorageClientError.changedDuringUpload(path: "").code)
        #expect(r.uploaded == ["small.txt"])
        await #expect(throws: StorageClientError.notFound(path: "/up/big.bin"), "nothing was committed for it") {
            try await grid.client.resolve("/up/big.bin", allocation: grid.allocation)
        }
        #expect(writes.withLock { $0 } >= 2, "rewritten during both attempts")
        await grid.shutdown()  // also at the end: the deferred task may not run before the process exits
    }

    @Test func aFileThatChangesOnceWhileItIsSentIsSentAgainWithItsNewContent() async throws {
        let grid = try await StorageGrid(data: 2, parity: 2)
        defer { Task { await grid.shutdown() } }
        let done = Mutex(false)
        let (r, big) = try await changingFolder(grid) { big, p in
            guard p.bytesDone > 5, p.bytesDone < p.bytesTotal, !done.withLock({ $0 }) else { return }
            done.withLock { $0 = true }
            Self.scribble(big, 0xAB)
        }
        #expect(done.withLock { $0 })
        #expect(r.changedDuringUpload == [])
        #expect(r.failed.map(\.path) == [])
        #expect(r.uploaded.sorted() == ["big.bin", "small.txt"])
        try FileManager.default.createDirectory(atPath: grid.root + "/local", withIntermediateDirectories: true)
        let out = grid.outputURL()
        try await grid.client.download(remotePath: "/up/big.bin", to: out, allocation: grid.allocation)
        let got = [UInt8](try Data(contentsOf: out))
        #expect(got.prefix(16).allSatisfy { $0 == 0xAB }, "the content after the change was sent")
        #expect(got == [UInt8](try Data(contentsOf: big)))
        await grid.shutdown()  // also at the end: the deferred task may not run before the process exits
    }
}
