import Foundation
import MosaicCrypto
import MosaicHTTP
import MosaicProtocol
import Testing

@testable import MosaicBlobber
@testable import MosaicSDK
@testable import MosaicStorageCore

/// Every number a blobber request carries is range-checked: written as the attacks (huge, negative
/// and overflowing values, signed by the owner so they reach the code behind the signature), each
/// answered with a 4xx that changes nothing, the blobber alive afterwards.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct BlobberHostileInputTests {
    struct Target {
        let grid: StorageGrid
        let i: Int
        var url: URL { grid.allocation.blobbers[i].url }
        var blobberID: String { grid.allocation.blobbers[i].id }
        var id: String { grid.allocation.id }
        var port: UInt16 { UInt16(url.port ?? 0) }

        func send(
            _ method: HTTPMethod, _ path: String, query: [String: String] = [:], offset: Int64? = nil, body: Data = Data(),
            streamed: Bool = false, headers: [String: String] = [:], key: Ed25519.SigningKey? = nil
        ) async -> (status: Int, body: Data) {
            await signedSend(
                url, blobberID: blobberID, allocation: id, key: key ?? grid.owner, method: method, path: "/v1/alloc/\(id)" + path,
                query: query, offset: offset, body: body, streamed: streamed, headers: headers)
        }

        func expectAlive() async {
            let r = await send(.get, "")
            #expect(r.status == 200, "the blobber still answers")
        }
    }

    @Test func blockRangesThatOverflowOrExceedTheLimitsAre400() async throws {
        let grid = try await StorageGrid(data: 1, parity: 1)
        defer { Task { await grid.shutdown() } }
        _ = try await grid.client.upload(localFile: try grid.localFile(randomBytes(200_000)), remotePath: "/f", allocation: grid.allocation)
        let t = Target(grid: grid, i: 0)
        let max = String(Int.max)
        for (start, count) in [
            (max, "64"), (max, "1"), (String(Int.max - 10), "64"), ("-1", "1"), ("9223372036854775808", "1"),
            ("0", "65"), ("0", "-1"), ("0", "9223372036854775807"), ("x", "1"), ("0", ""), ("", "1"), ("4", "1"),
        ] {
            let r = await t.send(.get, "/blocks", query: ["path": "/f", "start": start, "count": count])
            #expect(r.status == 400, "start \(start) count \(count): \(r.status) \(String(decoding: r.body, as: UTF8.self))")
        }
        let ok = await t.send(.get, "/blocks", query: ["path": "/f", "start": "0", "count": "4"])
        #expect(ok.status == 200, "a valid range still reads")
        await t.expectAlive()
    }

    @Test func uploadOffsetsAndLengthsOutsideTheirRangesAre4xx() async throws {
        let grid = try await StorageGrid(data: 1, parity: 1, size: 1 << 20)
        defer { Task { await grid.shutdown() } }
        let t = Target(grid: grid, i: 0)
        let path = "/uploads/u1"
        // Signed as sent: the offset overflows with the length, or is negative, or is no Int64.
        let cases: [(Int64?, [String: String], Int)] = [
            (Int64.max, [:], 400), (Int64.max - 1, [:], 400), (nil, ["X-Offset": "-1"], 400),
            (nil, ["X-Offset": "9223372036854775808"], 400), (nil, ["X-Offset": "1e3"], 400), (nil, [:], 400),
            (5, [:], 409),  // beyond the 0 bytes received
            (Int64(1 << 20), [:], 507),  // past the allocation's bytes on this blobber
        ]
        for (offset, headers, expected) in cases {
            let r = await t.send(.put, path, offset: offset, body: Data([1, 2, 3]), streamed: true, headers: headers)
            #expect(
                r.status == expected,
                "offset \(String(describing: offset)) \(headers): \(r.status) \(String(decoding: r.body, as: UTF8.self))")
        }
        #expect(try await grid.connection(0).uploadStatus("u1") == 0, "nothing was written")
        // Content-Length values no client library would send, byte for byte.
        for length in ["-1", "99999999999999999999", "abc", "9223372036854775807"] {
            let status = rawHTTP(
                port: t.port, head: "PUT /v1/alloc/\(t.id)\(path) HTTP/1.1\r\nHost: x\r\nX-Offset: 0\r\nContent-Length: \(length)")
            #expect((400..<500).contains(status), "Content-Length \(length): \(status)")
        }
        // A body larger than the allocation in one PUT is refused from its headers, before it is read.
        var target = RequestSignature.Target(
            blobberID: t.blobberID, allocationID: t.id, method: "PUT", path: "/v1/alloc/\(t.id)\(path)",
            offset: 0, bodyLength: (1 << 20) + 1, bodyHash: nil)
        target.offset = 0
        let signed = RequestSignature.headers(target, key: grid.owner).map { "\($0.key): \($0.value)" }.joined(separator: "\r\n")
        let big = rawHTTP(
            port: t.port, head: "PUT \(target.path) HTTP/1.1\r\nHost: x\r\nX-Offset: 0\r\nContent-Length: \((1 << 20) + 1)\r\n" + signed)
        #expect(big == 507)
        #expect(try await grid.connection(0).uploadStatus("u1") == 0)
        await t.expectAlive()
    }

    @Test func readMarkerCountersNearTheTopDoNotOverflow() async throws {
        let grid = try await StorageGrid(data: 1, parity: 1)
        defer { Task { await grid.shutdown() } }
        _ = try await grid.client.upload(localFile: try grid.localFile(randomBytes(70_000)), remotePath: "/f", allocation: grid.allocation)
        let t = Target(grid: grid, i: 0)
        func read(counter: UInt64) async -> Int {
            var m = ReadMarker(
                allocationID: t.id, blobberID: t.blobberID, clientID: grid.owner.publicKey.clientID,
                publicKey: grid.owner.publicKey.hex, ownerID: grid.owner.publicKey.clientID, counter: counter,
                timestamp: Int64(Date().timeIntervalSince1970 * 1000))
            m.sign(with: grid.owner)
            let header = (try? JSONEncoder().encode(m).base64EncodedString()) ?? ""
            return await t.send(.get, "/blocks", query: ["path": "/f", "start": "0", "count": "2"], headers: ["X-Read-Marker": header])
                .status
        }
        #expect(await read(counter: UInt64.max) == 200, "the reader may sign any counter (it pays for it)")
        #expect(await read(counter: UInt64.max) == 409, "no room above it: refused, not an overflow")
        #expect(await read(counter: UInt64.max - 1) == 409)
        await t.expectAlive()
    }

    @Test func commitsWithOutOfRangeMetadataOrMarkersAre400() async throws {
        let grid = try await StorageGrid(data: 1, parity: 1)
        defer { Task { await grid.shutdown() } }
        let t = Target(grid: grid, i: 0)
        let owner = grid.owner
        let state = try await grid.connection(0).state()
        func meta(size: Int64, d: Int = 1, p: Int = 1, length: Int64 = 64) -> FileMeta {
            var m = FileMeta(
                allocationID: t.id, path: "/evil", kind: .file, size: size, contentType: "x", cipher: FileMeta.aesGCMCipher,
                dataShards: d, parityShards: p, fragmentRoots: Array(repeating: String(repeating: "11", count: 32), count: 2),
                fragmentLength: length, wrappedKey: String(repeating: "cd", count: 80), noncePrefix: "0001020304050607",
                created: 1, modified: 1, ownerID: "")
            m.sign(with: owner)
            return m
        }
        func commit(_ m: FileMeta, timestamp: Int64 = Int64(Date().timeIntervalSince1970 * 1000)) async throws -> (Int, String) {
            var marker = WriteMarker(
                allocationID: t.id, blobberID: t.blobberID, clientID: owner.publicKey.clientID, previousRoot: state.root,
                root: try AllocationRoot.root(of: [m], index: 0), size: AllocationRoot.size(of: [m]), timestamp: timestamp)
            marker.sign(with: owner)
            let body = try JSONEncoder().encode(BlobberWire.Commit(changes: [.put(m, uploadID: "u-evil")], writeMarker: marker))
            let r = await t.send(.post, "/commit", body: body)
            return (r.status, String(decoding: r.body, as: UTF8.self))
        }
        for (what, m) in [
            ("size 2^63 − 1", meta(size: Int64.max, length: Int64.max)), ("size −1", meta(size: -1, length: 0)),
            ("d = Int.max", meta(size: 3, d: Int.max, p: 1)), ("p = Int.max", meta(size: 3, d: 1, p: Int.max)),
            ("d = −1", meta(size: 3, d: -1, p: 3)), ("length −2^63", meta(size: 3, length: Int64.min)),
        ] {
            let (status, message) = try await commit(m)
            #expect(status == 400, "\(what): \(status) \(message)")
        }
        for stamp in [Int64.max, Int64(Date().timeIntervalSince1970 * 1000) + 100_000_000] {
            var folder = FileMeta.directory(allocationID: t.id, path: "/d", time: 0, ownerID: "")
            folder.sign(with: owner)
            let (status, message) = try await commit(folder, timestamp: stamp)
            #expect(status == 400 && message.contains("ahead of the blobber's clock"), "timestamp \(stamp): \(status) \(message)")
        }
        #expect(try await grid.connection(0).state().root == state.root, "nothing changed")
        // Not after the latest marker: refused too (the ledger would refuse it and every later one).
        try await grid.client.mkdir("/ok", allocation: grid.allocation)
        let now = try await grid.connection(0).state()
        var folder = FileMeta.directory(allocationID: t.id, path: "/e", time: 0, ownerID: "")
        folder.sign(with: owner)
        var leaves = try AllocationRoot.leaves(of: [folder], index: 0)
        for m in try await grid.connection(0).list("/", recursive: true) { try leaves.set(AllocationRoot.entry(m, index: 0)) }
        var marker = WriteMarker(
            allocationID: t.id, blobberID: t.blobberID, clientID: owner.publicKey.clientID, previousRoot: now.root,
            root: leaves.root, size: 0, timestamp: now.writeMarker?.timestamp ?? 0)
        marker.sign(with: owner)
        let late = await t.send(
            .post, "/commit", body: try JSONEncoder().encode(BlobberWire.Commit(changes: [.put(folder)], writeMarker: marker)))
        #expect(late.status == 400 && String(decoding: late.body, as: UTF8.self).contains("is not after the previous marker"))
        #expect(try await grid.connection(0).state().root == now.root)
        await t.expectAlive()
    }

    @Test func assignmentsWithOutOfRangeShardsAre400() async throws {
        let grid = try await StorageGrid(data: 1, parity: 1)
        defer { Task { await grid.shutdown() } }
        let url = grid.allocation.blobbers[0].url
        var config = HTTPClient.Configuration()
        config.retries = 0
        let http = HTTPClient(baseURL: url, configuration: config)
        for (d, p, size) in [
            (Int.max, 1, Int64(100)), (1, Int.max, Int64(100)), (-1, 2, Int64(100)), (1, 0, Int64.min), (1, 0, 0), (65, 0, Int64(100)),
        ] {
            let id = Hex.encode(Random.bytes(32))
            var a = AllocationAssignment(
                allocationID: id, ownerPublicKey: grid.owner.publicKey, dataShards: d, parityShards: p, size: size,
                expiration: Int64(Date().timeIntervalSince1970) + 3600, blobbers: [grid.allocation.blobbers[0].id])
            a.sign(with: grid.owner)
            do {
                _ = try await http.send(.post, "/v1/alloc/\(id)/assign", body: try JSONEncoder().encode(a), contentType: "application/json")
                Issue.record("assignment \(d)+\(p) size \(size) was accepted")
            } catch let e as HTTPClientError {
                #expect(e.status == 400, "\(d)+\(p) size \(size): \(e)")
            }
        }
        await Target(grid: grid, i: 0).expectAlive()
    }

    /// `format=proven` on every kind of path answers with a proof only where one is defined, and a
    /// proof a blobber bends (depths out of order or range, counts that overflow, a sibling that is
    /// not a hash, truncated JSON) is refused by the client without a trap.
    @Test func folderProofsOnOddPathsAndBentProofsAreHandled() async throws {
        let grid = try await StorageGrid(data: 1, parity: 1)
        defer { Task { await grid.shutdown() } }
        let a = grid.allocation
        let file = try grid.localFile(randomBytes(500))
        for p in ["/фото/кот.jpg", "/фото/ü b.txt", "/top"] {
            _ = try await grid.client.upload(localFile: file, remotePath: p, allocation: a)
        }
        let t = Target(grid: grid, i: 0)
        let c = grid.client.connections(a)[0]
        func proven(_ path: String, _ extra: [String: String] = [:]) async throws -> (
            status: Int, proof: BlobberWire.FolderProof?, count: Int
        ) {
            let r = await t.send(.get, "/files", query: ["path": path, "format": "proven"].merging(extra) { $1 })
            guard r.status == 200 else { return (r.status, nil, 0) }
            let (entries, proof) = try FileMetaListing.decodeProven(r.body)
            return (200, proof, entries.count)
        }
        let folder = try await proven("/фото")
        #expect(folder.status == 200 && folder.count == 2 && folder.proof?.steps != nil, "a non-ASCII folder has its proof")
        let listing = try await c.listProven("/фото")
        let proof = listing.proof
        #expect(grid.client.proves(listing, folder: "/фото", proof: proof, of: c, allocation: a))
        #expect(try await proven("/", ["recursive": "1"]).proof?.steps == nil, "a recursive listing is no one folder: no steps")
        let one = try await proven("/top")
        #expect(one.status == 200 && one.count == 1 && one.proof?.steps == nil, "a file has no folder proof")
        #expect(try await proven("/nope").status == 404)
        let empty = try await proven("")
        let root = try await proven("/")
        #expect(empty.status == 200 && empty.count == root.count, "an empty path is the default, the root")
        for bad in ["relative", "/a//b", "/a/../b", "/\u{0}"] {
            let r = try await proven(bad)
            #expect((400..<500).contains(r.status), "path \(bad.debugDescription): \(r.status)")
        }
        let odd = await t.send(.get, "/files", query: ["path": "/", "format": "yaml"])
        #expect(odd.status == 400, "an unknown format is named, not ignored")

        // Bent proofs of the same listing: each is refused, none traps.
        let steps = try #require(proof?.steps)
        func refused(_ change: (inout [TrieStep]) -> Void) -> Bool {
            var s = steps
            change(&s)
            guard var p = proof else { return false }
            p.steps = s
            return !grid.client.proves(listing, folder: "/фото", proof: p, of: c, allocation: a)
        }
        #expect(refused { $0[0].depth = 600 })
        #expect(refused { $0[0].depth = -1 })
        #expect(refused { $0[0].depth = 256 }, "a step inside the folder's own subtree")
        #expect(refused { $0 = $0.reversed() + [$0[0]] }, "depths must fall")
        #expect(refused { $0[0].sibling = "zz" })
        #expect(refused { $0[0].count = .max })
        #expect(refused { $0[0].bytes = .max })
        #expect(refused { $0 = [] })
        #expect(refused { $0 += [TrieStep(depth: 0, sibling: String(repeating: "00", count: 32), count: 1, bytes: 0)] })
        var w = CanonicalWriter()
        for b in Array("MFL2".utf8) { w.append(uint8: b) }
        w.append(uint32: 0)
        w.append(bytes: Array("{\"state\":".utf8))
        #expect(throws: StorageProtocolError.self) { try FileMetaListing.decodeProven(Data(w.bytes)) }
        await t.expectAlive()
    }

    /// What a lying blobber may send back is checked by the client before any arithmetic.
    @Test func hostileListingsAndBlockBatchesAreRefusedByTheClient() throws {
        var w = CanonicalWriter()
        for b in Array("MFL1".utf8) { w.append(uint8: b) }
        w.append(uint32: .max)
        #expect(throws: StorageProtocolError.self) { try FileMetaListing.decode(Data(w.bytes)) }
        // Shard counts of 2^64 − 1 decode (clamped) and are then refused, not summed.
        var m = FileMeta(
            allocationID: String(repeating: "aa", count: 32), path: "/f", kind: .file, size: 3, contentType: "",
            cipher: FileMeta.aesGCMCipher,
            dataShards: Int.max, parityShards: Int.max, fragmentRoots: [], fragmentLength: Int64.max, wrappedKey: "", noncePrefix: "",
            created: 0, modified: 0, ownerID: "")
        let owner = Ed25519.SigningKey.generate()
        m.sign(with: owner)
        let decoded = try FileMetaListing.decode(FileMetaListing.encode([m, m]))
        #expect(decoded.count == 2)
        for d in decoded { #expect(throws: StorageRequestError.self) { try d.verify(owner: owner.publicKey) } }
        #expect(AllocationRoot.size(of: decoded) == UInt64(Int64.max) * 2)
        #expect(AllocationRoot.size(of: decoded + decoded) == .max, "saturates instead of trapping")
        var batch = Array("MBK1".utf8) + [0, 0, 0x10, 0]  // 4096 blocks
        batch += [0xff, 0xff, 0xff, 0xff]  // a 4 GiB block in a few bytes
        #expect(throws: StorageError.self) { try BlobberWire.decodeBlocks(Data(batch)) }
        let counters = ReadCounters()
        #expect(counters.advance("s", from: .max - 1, by: 2) == nil)
        #expect(counters.advance("s", from: 5, by: 2) == 7)
    }

    /// Folders cost no fragment bytes, so entries per allocation and changes per commit have bounds of their own.
    @Test func commitsBeyondTheEntryAndChangeBoundsAreRefused() async throws {
        let grid = try await StorageGrid(data: 1, parity: 1) { c in
            c.maxEntriesPerAllocation = 4
            c.maxChangesPerCommit = 3
        }
        defer { Task { await grid.shutdown() } }
        let a = grid.allocation
        try await grid.client.mkdir("/a/b/c", allocation: a)  // 3 entries, 3 changes
        await #expect(throws: StorageClientError.self) { try await grid.client.mkdir("/x/y/z/w", allocation: a) }  // 4 changes
        try await grid.client.mkdir("/d", allocation: a)  // the 4th entry
        do {
            try await grid.client.mkdir("/e", allocation: a)
            Issue.record("a fifth entry was accepted")
        } catch let StorageClientError.tooFewBlobbers(_, _, failures) {
            #expect(failures.values.allSatisfy { $0.contains("files and folders") }, "\(failures)")
        } catch let e as StorageClientError {
            #expect("\(e)".contains("files and folders"), "\(e)")
        }
        try await grid.client.delete("/a", allocation: a)
        #expect(try await grid.client.list("/", allocation: a).map(\.path) == ["/d"])
        try await grid.client.mkdir("/e", allocation: a)
        #expect(try await grid.connection(0).state().fileCount == 2)
    }
}
