import Foundation
import MosaicCrypto
import MosaicHTTP
import Testing

@testable import MosaicBlobber
@testable import MosaicSDK
@testable import MosaicStorageCore

/// An owner (or a stolen owner key) with a tiny allocation cannot fill a blobber with uploads it
/// never commits: written as the attack, with the blobber's bounds turned down.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct BlobberUploadBoundTests {
    /// Bytes of uncommitted uploads on blobber i's disk.
    func uploadBytes(_ grid: StorageGrid, _ i: Int) -> Int64 {
        let dir = grid.root + "/blobber\(i)/fragments/uploads"
        var total: Int64 = 0
        for case let path as String in FileManager.default.enumerator(atPath: dir) ?? FileManager.DirectoryEnumerator()
        where path.hasSuffix(".part") {
            total += ((try? FileManager.default.attributesOfItem(atPath: dir + "/" + path)[.size]) as? NSNumber)?.int64Value ?? 0
        }
        return total
    }

    func put(_ grid: StorageGrid, _ upload: String, offset: Int64 = 0, _ bytes: Int) async -> Int {
        let c = grid.connection(0)
        do {
            _ = try await c.put(upload, offset: offset, bytes: randomBytes(bytes))
            return 200
        } catch let e as HTTPClientError {
            return e.status
        } catch {
            return 0
        }
    }

    @Test func uncommittedUploadsNeverHoldMoreThanTheAllocationsShare() async throws {
        // 2+1 over 200 kB: 100 kB per blobber.
        let grid = try await StorageGrid(data: 2, parity: 1, size: 200_000)
        defer { Task { await grid.shutdown() } }
        let capacity = Int64(100_000)
        #expect(await put(grid, "first", 60_000) == 200)
        #expect(await put(grid, "second", 60_000) == 507, "two uploads would hold 120 kB")
        #expect(await put(grid, "first", offset: 60_000, 40_000) == 200, "the first may grow to the whole share")
        #expect(await put(grid, "first", offset: 100_000, 1) == 507)
        // Many small uploads at once, each within the bound alone.
        let statuses = await withTaskGroup(of: Int.self) { group in
            for i in 0..<20 { group.addTask { await self.put(grid, "many-\(i)", 10_000) } }
            var out: [Int] = []
            for await s in group { out.append(s) }
            return out
        }
        #expect(statuses.allSatisfy { $0 == 507 }, "the share is used up: \(statuses)")
        #expect(uploadBytes(grid, 0) <= capacity, "uncommitted bytes on disk: \(uploadBytes(grid, 0))")
        // Dropping an upload gives its bytes back.
        try await grid.connection(0).discard("first")
        let again = await withTaskGroup(of: Int.self) { group in
            for i in 0..<20 { group.addTask { await self.put(grid, "again-\(i)", 10_000) } }
            var out: [Int] = []
            for await s in group { out.append(s) }
            return out
        }
        #expect(again.filter { $0 == 200 }.count == 10, "exactly the share fits: \(again)")
        #expect(uploadBytes(grid, 0) <= capacity)
        #expect(try await grid.connection(0).state().blobberID == grid.allocation.blobbers[0].id, "alive")
    }

    @Test func openUploadsPerAllocationAreCapped() async throws {
        let grid = try await StorageGrid(data: 1, parity: 1) { c in c.maxOpenUploads = 3 }
        defer { Task { await grid.shutdown() } }
        for i in 0..<3 { #expect(await put(grid, "u\(i)", 100) == 200) }
        #expect(await put(grid, "u3", 100) == 429, "a fourth open upload")
        #expect(await put(grid, "u0", offset: 100, 100) == 200, "open ones still grow")
        try await grid.connection(0).discard("u1")
        #expect(await put(grid, "u3", 100) == 200, "a dropped upload makes room")
        #expect(await put(grid, "u4", 100) == 429)
        #expect(uploadBytes(grid, 0) == 400)
    }

    @Test func idleUploadsExpireToMakeRoom() async throws {
        let grid = try await StorageGrid(data: 1, parity: 1) { c in
            c.maxOpenUploads = 1
            c.uploadExpiry = 1
        }
        defer { Task { await grid.shutdown() } }
        #expect(await put(grid, "old", 100) == 200)
        try await Task.sleep(for: .milliseconds(2100))
        #expect(await put(grid, "fresh", 100) == 200, "the idle upload was removed to make room")
        #expect(try await grid.connection(0).uploadStatus("old") == 0)
        #expect(uploadBytes(grid, 0) == 100)
    }

    @Test func openUploadFilesAreBoundedAndReopenFromDisk() async throws {
        let grid = try await StorageGrid(data: 1, parity: 1) { c in c.maxOpenUploadFiles = 2 }
        defer { Task { await grid.shutdown() } }
        for i in 0..<5 {
            #expect(await put(grid, "f\(i)", 1000) == 200)
            #expect((grid.server(0)?.openUploads.count ?? 99) <= 2)
        }
        for i in 0..<5 {
            #expect(await put(grid, "f\(i)", offset: 1000, 500) == 200, "f\(i) resumes from its bytes on disk")
            #expect(try await grid.connection(0).uploadStatus("f\(i)") == 1500)
        }
        #expect((grid.server(0)?.openUploads.count ?? 99) <= 2)
    }

    /// Repair rebuilds more files onto a blobber than it keeps uncommitted uploads for: it commits them
    /// in batches, so the bound never stops it.
    @Test func repairCommitsRebuiltFilesInBatchesUnderTheUploadBound() async throws {
        let grid = try await StorageGrid(data: 1, parity: 2) { c in c.maxOpenUploads = 3 }
        defer { Task { await grid.shutdown() } }
        await grid.stop(2)
        let paths = (0..<7).map { "/d/e/f\($0)" }
        for p in paths {
            _ = try await grid.client.upload(localFile: try grid.localFile(randomBytes(2_000)), remotePath: p, allocation: grid.allocation)
        }
        try await grid.restart(2)
        var config = StorageClient.Configuration()
        config.repairBatch = 2
        let repairer = StorageClient(signingKey: grid.owner, home: grid.client.home, configuration: config)
        let report = try await repairer.repair(allocation: grid.allocation)
        #expect(report.failed.isEmpty, "\(report.failed)")
        #expect(Set(report.repaired.filter { $0.blobber == 2 }.map(\.path)).isSuperset(of: paths))
        let held = try await grid.connection(2).list("/", recursive: true).map(\.path)
        #expect(Set(held) == Set(paths + ["/d", "/d/e"]))
        #expect(uploadBytes(grid, 2) == 0, "nothing left uncommitted")
        let out = grid.outputURL()
        try await grid.client.download(remotePath: "/d/e/f6", to: out, allocation: grid.allocation, prefer: [2])
    }
}
