import Foundation
import MosaicCrypto
import MosaicHTTP
import MosaicProtocol
import MosaicTestSupport
import Testing

@testable import MosaicBlobber
@testable import MosaicSDK
@testable import MosaicStorageCore

/// The grid's allocation with blobber `i` reached through a proxy that records (and may rewrite)
/// what passes: a malicious operator of that blobber.
func proxied(_ grid: StorageGrid, _ i: Int) throws -> (BlobberProxy, StorageAllocation) {
    let proxy = try BlobberProxy(upstream: grid.allocation.blobbers[i].url)
    var a = grid.allocation
    a.blobbers[i].url = proxy.url
    return (proxy, a)
}

/// A signed blobber request is bound to the blobber, the allocation, its arguments and one use:
/// written as the attacks of a co-blobber that captured the owner's requests.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct BlobberReplayTests {
    @Test func aCoBlobberReplayingTheOwnersWritesAtAnotherBlobberIsRefused() async throws {
        let grid = try await StorageGrid(data: 2, parity: 1)
        defer { Task { await grid.shutdown() } }
        let (proxy, a) = try proxied(grid, 0)
        defer { Task { await proxy.stop() } }
        let victim = grid.allocation.blobbers[1]
        // Blobber 1 holds an upload of the same name as one the owner drops at blobber 0.
        _ = try await grid.connection(1).put("shared-name", offset: 0, bytes: randomBytes(1000))
        let c0 = BlobberConnection(
            index: 0, blobber: a.blobbers[0], allocation: a.id, ownerID: grid.owner.publicKey.clientID,
            key: grid.owner, timeout: 10)
        _ = try await c0.put("shared-name", offset: 0, bytes: randomBytes(10))
        try await c0.discard("shared-name")
        // A normal upload and delete through the malicious blobber.
        _ = try await grid.client.upload(localFile: try grid.localFile(randomBytes(300_000)), remotePath: "/secret.bin", allocation: a)
        _ = try await grid.client.upload(localFile: try grid.localFile(randomBytes(1000)), remotePath: "/gone", allocation: a)
        try await grid.client.delete("/gone", allocation: a)
        let before = try await grid.connection(1).state()
        let writes = proxy.captured.filter { $0.method != .get }
        #expect(writes.contains { $0.method == .put } && writes.contains { $0.method == .delete } && writes.contains { $0.method == .post })

        for w in writes {
            let (status, body) = await replay(w, to: victim.url)
            #expect(status == 401, "\(w.method) \(w.path) replayed at blobber 1: \(String(decoding: body, as: UTF8.self))")
        }
        // The same requests aimed at blobber 1's own upload ids (a changed path): still refused.
        for w in writes where w.method == .put {
            var moved = w
            moved.path = "/v1/alloc/\(a.id)/uploads/" + BlobberUploadSink.uploadID("any", blobber: victim.id)
            #expect(await replay(moved, to: victim.url).status == 401)
        }
        // Nothing moved at blobber 1: same root and files, its upload intact, no upload of blobber 0's ids.
        let after = try await grid.connection(1).state()
        #expect(after.root == before.root && after.size == before.size && after.fileCount == before.fileCount)
        #expect(try await grid.connection(1).uploadStatus("shared-name") == 1000)
        for w in writes where w.method == .put && !w.path.hasSuffix("/shared-name") {
            let id = String(w.path.split(separator: "/").last ?? "")
            #expect(try await grid.connection(1).uploadStatus(id) == 0, "upload \(id) of blobber 0 means nothing at blobber 1")
        }
        let info = await signedSend(
            victim.url, blobberID: victim.id, allocation: a.id, key: grid.owner, method: .get, path: "/v1/alloc/\(a.id)")
        #expect(info.status == 200, "blobber 1 still serves")
        // And the owner's data is intact everywhere.
        let out = grid.outputURL()
        try await grid.client.download(remotePath: "/secret.bin", to: out, allocation: grid.allocation, prefer: [1, 2])
        #expect(try Data(contentsOf: out).count == 300_000)
    }

    @Test func theSameSignedWriteIsRefusedTheSecondTimeAtTheSameBlobber() async throws {
        let grid = try await StorageGrid(data: 2, parity: 1)
        defer { Task { await grid.shutdown() } }
        let (proxy, a) = try proxied(grid, 0)
        defer { Task { await proxy.stop() } }
        _ = try await grid.client.upload(localFile: try grid.localFile(randomBytes(100_000)), remotePath: "/one", allocation: a)
        try await grid.client.delete("/one", allocation: a)
        let real = grid.allocation.blobbers[0].url
        let before = try await grid.connection(0).state()
        let writes = proxy.captured.filter { $0.method != .get }
        #expect(!writes.isEmpty)
        for w in writes {
            let (status, body) = await replay(w, to: real)
            #expect(status == 401, "\(w.method) \(w.path) replayed at blobber 0: \(String(decoding: body, as: UTF8.self))")
            #expect(String(decoding: body, as: UTF8.self).contains("already used"))
        }
        let after = try await grid.connection(0).state()
        #expect(after.root == before.root && after.fileCount == 0 && after.writeMarker == before.writeMarker)
    }

    @Test func aCapturedSignatureDoesNotCoverOtherArguments() async throws {
        let grid = try await StorageGrid(data: 1, parity: 1)
        defer { Task { await grid.shutdown() } }
        let (proxy, a) = try proxied(grid, 0)
        defer { Task { await proxy.stop() } }
        try await grid.client.mkdir("/private", allocation: a)
        _ = try await grid.client.upload(localFile: try grid.localFile(randomBytes(70_000)), remotePath: "/private/f", allocation: a)
        let real = grid.allocation.blobbers[0].url
        let captured = proxy.captured
        let listing = try #require(captured.last { $0.path.hasSuffix("/files") })
        let put = try #require(captured.first { $0.method == .put })
        var longer = put
        longer.body.append(0)
        var commit = try #require(captured.last { $0.method == .post })
        commit.body.append(contentsOf: Array(" ".utf8))  // still valid JSON, another body
        let altered: [(String, BlobberProxy.Captured, [String: String], [String: String]?)] = [
            ("another folder", listing, [:], listing.query.merging(["path": "/private"]) { _, b in b }),
            ("an added parameter", listing, [:], listing.query.merging(["extra": "1"]) { _, b in b }),
            ("another offset", put, ["X-Offset": "1"], nil),
            ("a longer body", longer, [:], nil),
            ("another commit body", commit, [:], nil),
        ]
        for (what, request, headers, query) in altered {
            let (status, body) = await replay(request, to: real, headers: headers, query: query)
            #expect(status == 401 && String(decoding: body, as: UTF8.self).contains("invalid request signature"), "\(what)")
        }
        var otherAllocation = listing
        otherAllocation.path = "/v1/alloc/\(String(repeating: "ab", count: 32))/files"
        #expect(await replay(otherAllocation, to: real).status != 200)
        // A request signed outside the time window.
        let old = await signedSend(
            real, blobberID: a.blobbers[0].id, allocation: a.id, key: grid.owner, method: .get,
            path: "/v1/alloc/\(a.id)", time: Int64(Date().timeIntervalSince1970) - RequestSignature.window - 5)
        #expect(old.status == 401)
        #expect(try await grid.connection(0).state().fileCount == 2)
    }
}

/// The signed query is the one the blobber parses: paths with characters that URL encodings treat
/// specially still verify (and reach the same file).
@Suite(.serialized, .timeLimit(.minutes(3)))
struct SignedQueryTests {
    @Test func pathsWithReservedCharactersVerify() async throws {
        let grid = try await StorageGrid(data: 1, parity: 1)
        defer { Task { await grid.shutdown() } }
        let bytes = randomBytes(3_000)
        for path in ["/a+b c.txt", "/q?x=1&y=2#z", "/100% été/ü;,$@!'()*~.bin"] {
            _ = try await grid.client.upload(localFile: try grid.localFile(bytes), remotePath: path, allocation: grid.allocation)
            #expect(try await grid.client.stat(path, allocation: grid.allocation).path == path)
            let out = grid.outputURL()
            try await grid.client.download(remotePath: path, to: out, allocation: grid.allocation)
            #expect(same([UInt8](try Data(contentsOf: out)), bytes), "\(path)")
        }
        #expect(try await grid.client.list("/", allocation: grid.allocation).count == 3)
    }
}
