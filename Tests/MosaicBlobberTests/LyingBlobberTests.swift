import Foundation
import MosaicCrypto
import MosaicHTTP
import MosaicHTTPServer
import MosaicLedger
import MosaicProtocol
import MosaicTestSupport
import Synchronization
import Testing

@testable import MosaicBlobber
@testable import MosaicSDK
@testable import MosaicStorageCore

/// The client signs a write marker only over a blobber state it checked: written as the attacks of
/// a blobber whose metadata was tampered with (a real server, its records changed in memory) or
/// that rolled back, and of one that claims a read counter it cannot prove.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct LyingBlobberTests {
    /// A client of the same owner that has not written yet (nothing cached), as on another device.
    func freshClient(_ grid: StorageGrid) -> StorageClient {
        StorageClient(signingKey: grid.owner, home: URL(fileURLWithPath: grid.root + "/fresh-" + Hex.encode(Random.bytes(4))))
    }

    /// One commit (a new folder) on blobber `i`; the error it ends with (nil: it committed).
    func commitError(_ client: StorageClient, _ a: StorageAllocation, _ i: Int, owner: Ed25519.SigningKey) async -> StorageClientError? {
        let folder = client.folders(for: "/new-" + Hex.encode(Random.bytes(3)) + "/x", allocation: a.id)
        let c = client.connections(a)[i]
        do {
            _ = try await client.commit(c, allocation: a) { _ in folder.map { .put($0) } }
            return nil
        } catch let e as StorageClientError {
            return e
        } catch {
            Issue.record("unexpected \(error)")
            return nil
        }
    }

    func tamper(_ server: BlobberServer?, _ allocation: String, _ change: (inout AllocationRecord) -> Void) {
        server?.records.withLock { all in
            if var r = all[allocation] {
                change(&r)
                // A consistent liar: its listings come from its path index, kept in step.
                if let leaves = try? AllocationRoot.leaves(of: r.files.values.map(\.meta), index: r.index) { r.leaves = leaves }
                all[allocation] = r
            }
        }
        // It lists what it now holds, not a body cached under its unchanged state (an honest
        // blobber's entries change only with its state, which keys that cache).
        server?.listingBodies.removeAll()
    }

    /// Refused as an untrusted blobber, and nothing was committed there: no marker was signed over it.
    func expectRefused(
        _ e: StorageClientError?, _ server: BlobberServer?, _ id: String, unchanged before: AllocationRecord?,
        _ what: String
    ) {
        guard case .untrustedBlobber(0, _)? = e else {
            Issue.record("\(what): expected blobber 0 to be refused, got \(String(describing: e))")
            return
        }
        let after = try? server?.record(id)
        #expect(after?.root == before?.root && after?.pendingMarkers.count == before?.pendingMarkers.count, "\(what): nothing committed")
    }

    @Test func listingsWithAnAddedDroppedOrAlteredEntryAreRefused() async throws {
        let grid = try await StorageGrid(data: 2, parity: 1)
        defer { Task { await grid.shutdown() } }
        let a = grid.allocation
        let file = try grid.localFile(randomBytes(5_000))
        _ = try await grid.client.upload(localFile: file, remotePath: "/a", allocation: a)
        _ = try await grid.client.upload(localFile: file, remotePath: "/b", allocation: a)
        let oldA = try await grid.client.stat("/a", allocation: a)
        _ = try await grid.client.upload(localFile: try grid.localFile([1, 2, 3]), remotePath: "/a", allocation: a, replace: true)
        _ = try await grid.client.upload(localFile: file, remotePath: "/gone", allocation: a)
        let gone = try await grid.client.stat("/gone", allocation: a)
        try await grid.client.delete("/gone", allocation: a)
        let server = grid.server(0)
        let honest = try #require(try server?.record(a.id))

        let lies: [(String, (inout AllocationRecord) -> Void)] = [
            ("an added entry (a deleted file's signed metadata)", { $0.files["/gone"] = .init(meta: gone, fragment: nil) }),
            ("a dropped entry", { $0.files["/b"] = nil }),
            ("an altered entry (signature broken)", { $0.files["/b"]?.meta.size += 1 }),
            ("an altered entry (an older signed version)", { $0.files["/a"]?.meta = oldA }),
            (
                "an entry of another allocation",
                { r in
                    var m = FileMeta.directory(allocationID: String(repeating: "ab", count: 32), path: "/x", time: 0, ownerID: "")
                    m.sign(with: grid.owner)
                    r.files["/x"] = .init(meta: m, fragment: nil)
                }
            ),
        ]
        for (what, lie) in lies {
            tamper(server, a.id, lie)
            expectRefused(await commitError(freshClient(grid), a, 0, owner: grid.owner), server, a.id, unchanged: honest, what)
            tamper(server, a.id) { $0 = honest }
        }
        // The high-level write says why, and the honest blobbers still hold the data.
        tamper(server, a.id) { $0.files["/b"] = nil }
        do {
            try await freshClient(grid).mkdir("/later", allocation: a)
            Issue.record("a write over a lying blobber reached the write quorum of all three")
        } catch let StorageClientError.tooFewBlobbers(_, _, failures) {
            #expect(failures[0]?.contains("does not check out") == true, "\(failures)")
        }
        tamper(server, a.id) { $0 = honest }
        #expect(await commitError(freshClient(grid), a, 0, owner: grid.owner) == nil, "the honest state is accepted again")
    }

    @Test func statesWithoutTheOwnersMarkerAreRefused() async throws {
        let grid = try await StorageGrid(data: 1, parity: 1)
        defer { Task { await grid.shutdown() } }
        let a = grid.allocation
        try await grid.client.mkdir("/one", allocation: a)
        let first = try #require(try grid.server(0)?.record(a.id))
        try await grid.client.mkdir("/two", allocation: a)
        let server = grid.server(0)
        let honest = try #require(try server?.record(a.id))
        let lies: [(String, (inout AllocationRecord) -> Void)] = [
            ("a root with no marker", { $0.writeMarker = nil }),
            ("a marker for another root", { $0.writeMarker = first.writeMarker }),
            (
                "a marker not signed by the owner",
                { r in
                    var m = r.writeMarker
                    m?.size += 1
                    r.writeMarker = m
                }
            ),
        ]
        for (what, lie) in lies {
            tamper(server, a.id, lie)
            expectRefused(await commitError(freshClient(grid), a, 0, owner: grid.owner), server, a.id, unchanged: honest, what)
            tamper(server, a.id) { $0 = honest }
        }
    }

    @Test func aBlobberRolledBackBehindTheClientsOwnLastMarkerIsRefused() async throws {
        let grid = try await StorageGrid(data: 1, parity: 1)
        defer { Task { await grid.shutdown() } }
        let a = grid.allocation
        try await grid.client.mkdir("/kept", allocation: a)
        let server = grid.server(0)
        let old = try #require(try server?.record(a.id))
        try await Task.sleep(for: .milliseconds(1100))  // marker timestamps are seconds
        _ = try await grid.client.upload(localFile: try grid.localFile(randomBytes(2_000)), remotePath: "/newer", allocation: a)
        let current = try #require(try server?.record(a.id))
        // The blobber serves its older state again (files, root and the owner's older marker).
        tamper(server, a.id) { r in
            r.files = old.files
            r.leaves = old.leaves
            r.root = old.root
            r.size = old.size
            r.writeMarker = old.writeMarker
        }
        let rolledBack = try #require(try server?.record(a.id))
        let e = await commitError(grid.client, a, 0, owner: grid.owner)
        expectRefused(e, server, a.id, unchanged: rolledBack, "a rollback")
        #expect("\(String(describing: e))".contains("rolled back"))
        tamper(server, a.id) { $0 = current }
    }

    @Test func aFolderListingIsProvenAgainstTheSignedRootAndALieFallsBackToEntryChecks() async throws {
        let grid = try await StorageGrid(data: 2, parity: 1)
        defer { Task { await grid.shutdown() } }
        let a = grid.allocation
        let src = URL(fileURLWithPath: grid.root + "/big")
        try FileManager.default.createDirectory(at: src.appendingPathComponent("sub"), withIntermediateDirectories: true)
        let n = 60
        for i in 0..<n { try Data(i % 2 == 0 ? [] : [UInt8(i & 0xff)]).write(to: src.appendingPathComponent("f\(i)")) }
        try Data([1, 2]).write(to: src.appendingPathComponent("sub/inner"))
        let sent = try await grid.client.uploadFolder(src, to: "/big", allocation: a)
        #expect(sent.failed.map(\.path) == [])
        let client = freshClient(grid)
        let c0 = client.connections(a)[0]
        func proven() async throws -> Bool {
            let listing = try await c0.listProven("/big")
            return client.proves(listing, folder: "/big", proof: listing.proof, of: c0, allocation: a)
        }
        #expect(try await proven(), "an honest blobber's folder listing gives its signed root")
        #expect(try await client.list("/big", allocation: a).count == n + 1)

        // Blobber 0 alters one entry: its listing no longer gives the signed root, so it is
        // checked entry by entry, and the altered entry (signature broken) does not count.
        let honest = try #require(try grid.server(0)?.record(a.id))
        tamper(grid.server(0), a.id) { $0.files["/big/f1"]?.meta.size += 1 }
        #expect(try await !proven())
        var listed = try await freshClient(grid).list("/big", allocation: a)
        #expect(listed.count == n + 1)
        #expect(listed.first { $0.path == "/big/f1" }?.size == 1)

        // Blobber 0 hides an entry (its proof is of the trie without it): the root differs.
        tamper(grid.server(0), a.id) { $0 = honest }
        tamper(grid.server(0), a.id) { $0.files["/big/f3"] = nil }
        #expect(try await !proven())
        listed = try await freshClient(grid).list("/big", allocation: a)
        #expect(listed.contains { $0.path == "/big/f3" }, "the other blobbers still show it")
        await grid.shutdown()  // also at the end: the deferred task may not run before the process exits
    }

    @Test func aListingCountsOnlyCopiesWithTheOwnersSignature() async throws {
        let grid = try await StorageGrid(data: 2, parity: 1)
        defer { Task { await grid.shutdown() } }
        let a = grid.allocation
        let file = try grid.localFile(randomBytes(3_000))
        for p in ["/a", "/b", "/c"] { _ = try await grid.client.upload(localFile: file, remotePath: p, allocation: a) }
        let b = try await grid.client.stat("/b", allocation: a)
        let bad = String(repeating: "00", count: 64)
        // Blobber 0 serves /b with its signature replaced (the same signed bytes), and an entry
        // whose signature is another path's; blobbers 0 and 1 both break /c's signature field.
        tamper(grid.server(0), a.id) { r in
            r.files["/b"]?.meta.signature = bad
            var forged = b
            forged.path = "/forged"
            r.files["/forged"] = .init(meta: forged, fragment: nil)
            r.files["/c"]?.meta.signature = bad
        }
        tamper(grid.server(1), a.id) { $0.files["/c"]?.meta.signature = bad }
        let listed = try await freshClient(grid).list("/", allocation: a)
        // /b and /c are the owner's signed bytes on all three blobbers (one good signature proves
        // a version), and come back with that good signature; /forged is nobody's.
        #expect(listed.map(\.path) == ["/a", "/b", "/c"])
        #expect(listed.first { $0.path == "/b" }?.signature == b.signature)
        #expect(listed.first { $0.path == "/c" }?.signature != bad)
        await grid.shutdown()  // also at the end: the deferred task may not run before the process exits
    }
}

/// The same rollback seen through the ledger: the client knows the root the ledger committed.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct LedgerRollbackTests {
    @Test func aBlobberBehindTheRootTheLedgerCommittedIsRefused() async throws {
        let grid = try await LedgerGrid()
        defer { Task { await grid.shutdown() } }
        try await grid.client.mkdir("/kept", allocation: grid.allocation)
        let server = try #require(grid.server(of: grid.allocation.blobbers[0].id))
        let old = try server.record(grid.allocation.id)
        try await Task.sleep(for: .milliseconds(1100))
        try await grid.client.mkdir("/newer", allocation: grid.allocation)
        for s in grid.servers { #expect(await s.commitPendingMarkers().isEmpty) }
        let onLedger = try #require(try grid.ledger.storageAllocation(grid.allocation.id))
        let a = try StorageAllocation(onLedger)
        #expect(a.blobbers[0].committedRoot == (try server.record(a.id)).root)
        server.records.withLock { all in
            all[a.id]?.files = old.files
            all[a.id]?.leaves = old.leaves
            all[a.id]?.root = old.root
            all[a.id]?.size = old.size
            all[a.id]?.writeMarker = old.writeMarker
        }
        // Another device of the owner (nothing cached) with the allocation fresh from the ledger.
        let client = StorageClient(signingKey: grid.owner, home: URL(fileURLWithPath: grid.root + "/device2"))
        let c = client.connections(a)[0]
        let before = try server.record(a.id)
        do {
            _ = try await client.commit(c, allocation: a) { _ in client.folders(for: "/x/y", allocation: a.id).map { .put($0) } }
            Issue.record("a marker was signed over a state older than the ledger's")
        } catch let StorageClientError.untrustedBlobber(index, reason) {
            #expect(index == 0)
            #expect(reason.contains("older than the root"), "\(reason)")
        }
        let after = try server.record(a.id)
        #expect(after.root == before.root && after.pendingMarkers.count == before.pendingMarkers.count)
    }

}

/// A blobber that claims a read counter it cannot prove is not paid on top of it.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct ReadCounterLieTests {
    @Test func anUnprovenReadCounterIsRefusedAndTheBlobberRoutedAround() async throws {
        let grid = try await StorageGrid(data: 2, parity: 1)
        defer { Task { await grid.shutdown() } }
        let bytes = randomBytes(200_000)
        _ = try await grid.client.upload(localFile: try grid.localFile(bytes), remotePath: "/f", allocation: grid.allocation)
        let (proxy, a) = try proxied(grid, 0)
        defer { Task { await proxy.stop() } }
        proxy.setRewrite { req, _ in
            guard req.path.hasSuffix("/read-counter") else { return nil }
            return try? HTTPResponse.json(BlobberWire.ReadCounter(counter: 1 << 40))
        }
        let reader = StorageClient(signingKey: grid.owner, home: URL(fileURLWithPath: grid.root + "/reader"))
        do {
            _ = try await reader.connections(a)[0].readCounter()
            Issue.record("an unproven counter was accepted")
        } catch let StorageClientError.untrustedBlobber(index, _) {
            #expect(index == 0)
        }
        let out = grid.outputURL()
        let r = try await reader.download(remotePath: "/f", to: out, allocation: a, prefer: [0, 1])
        #expect(same([UInt8](try Data(contentsOf: out)), bytes))
        #expect(r.badBlobbers[0] != nil, "the lying blobber was dropped")
        let signed = try #require(grid.server(0)).readState.withLock { $0.latest.values.map(\.counter).max() ?? 0 }
        #expect(signed < 1 << 40, "no marker was signed on top of the claimed counter")
    }
}
