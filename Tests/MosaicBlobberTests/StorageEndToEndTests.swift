import Foundation
import MosaicCrypto
import MosaicHTTP
import MosaicProtocol
import MosaicTestSupport
import Synchronization
import Testing

@testable import MosaicBlobber
@testable import MosaicSDK
@testable import MosaicStorageCore

/// Uploads and downloads through real blobber servers on loopback.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct StorageEndToEndTests {
    func roundTrip(_ grid: StorageGrid, _ bytes: [UInt8], path: String) async throws {
        let file = try grid.localFile(bytes)
        let up = try await grid.client.upload(localFile: file, remotePath: path, allocation: grid.allocation)
        #expect(up.failed.isEmpty)
        #expect(up.meta.size == Int64(bytes.count))
        let out = grid.outputURL()
        let down = try await grid.client.download(remotePath: path, to: out, allocation: grid.allocation)
        #expect(down.bytesWritten == Int64(bytes.count))
        #expect(same([UInt8](try Data(contentsOf: out)), bytes), "round trip of \(bytes.count) bytes")
    }

    @Test func byteExactRoundTrips() async throws {
        let grid = try await StorageGrid(data: 2, parity: 2)
        defer { Task { await grid.shutdown() } }
        for n in [0, 1, 65536 - 1, 2 * 65536 + 1] {
            try await roundTrip(grid, randomBytes(n), path: "/sizes/f\(n)")
        }
        let names = try await grid.client.list("/sizes", allocation: grid.allocation).map(\.path)
        #expect(names == ["/sizes/f0", "/sizes/f1", "/sizes/f131073", "/sizes/f65535"])
    }

    /// `rateLimit` (`--limit-rate`) holds both transfers to the rate, and they still arrive whole.
    @Test func aRateLimitedTransferTakesAsLongAsItsRateSays() async throws {
        let grid = try await StorageGrid(data: 2, parity: 1)
        defer { Task { await grid.shutdown() } }
        var config = grid.client.configuration
        config.rateLimit = 1 << 20
        let slow = StorageClient(signingKey: grid.owner, home: URL(fileURLWithPath: grid.root + "/slow-home"), configuration: config)
        let bytes = randomBytes(2 << 20)
        let file = try grid.localFile(bytes)
        let clock = ContinuousClock()
        var start = clock.now
        // Batches of 4 chunks carry ~0.5 MiB of the file: the last one may leave 1.5 s in.
        try await slow.upload(localFile: file, remotePath: "/slow.bin", allocation: grid.allocation)
        #expect(clock.now - start >= .milliseconds(1450))
        let out = grid.outputURL()
        start = clock.now
        try await slow.download(remotePath: "/slow.bin", to: out, allocation: grid.allocation)
        #expect(clock.now - start >= .milliseconds(1450))
        #expect(same([UInt8](try Data(contentsOf: out)), bytes))

        // A folder's files, sent at once, share the one budget: 2 MiB in two files take as long.
        let folder = URL(fileURLWithPath: grid.root + "/slow-folder")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(bytes[..<(1 << 20)]).write(to: folder.appendingPathComponent("a.bin"))
        try Data(bytes[(1 << 20)...]).write(to: folder.appendingPathComponent("b.bin"))
        start = clock.now
        let sent = try await slow.uploadFolder(folder, to: "/slow-folder", allocation: grid.allocation)
        #expect(sent.uploaded.count == 2)
        #expect(clock.now - start >= .milliseconds(1450))
    }

    @Test func hundredMiBRoundTrip() async throws {
        let grid = try await StorageGrid(data: 4, parity: 2, chunksPerBatch: 16)
        defer { Task { await grid.shutdown() } }
        let file = try grid.localFile([])
        let h = try FileHandle(forWritingTo: file)
        for _ in 0..<25 { try h.write(contentsOf: randomBytes(4 << 20)) }
        try h.close()
        try await grid.client.upload(localFile: file, remotePath: "/100MiB", allocation: grid.allocation)
        let out = grid.outputURL()
        let r = try await grid.client.download(remotePath: "/100MiB", to: out, allocation: grid.allocation)
        #expect(r.bytesWritten == 100 << 20)
        #expect(FileManager.default.contentsEqual(atPath: file.path, andPath: out.path))
    }

    @Test func largeFileRoundTripAndRanges() async throws {
        let grid = try await StorageGrid(data: 4, parity: 2, chunksPerBatch: 16)
        defer { Task { await grid.shutdown() } }
        let bytes = randomBytes(20 << 20 + 12345)
        try await roundTrip(grid, bytes, path: "/big.bin")
        for r in [Int64(0)..<1, 65519..<65521, 3_000_000..<3_500_000, Int64(bytes.count - 10)..<Int64(bytes.count)] {
            let out = grid.outputURL()
            try await grid.client.download(remotePath: "/big.bin", to: out, allocation: grid.allocation, range: r)
            #expect(same([UInt8](try Data(contentsOf: out)), Array(bytes[Int(r.lowerBound)..<Int(r.upperBound)])))
        }
    }

    @Test func storedBytesNeverContainThePlaintext() async throws {
        let grid = try await StorageGrid(data: 2, parity: 1)
        defer { Task { await grid.shutdown() } }
        // Plaintext with a recognisable pattern in every segment.
        let marker = Array("MOSAIC-PLAINTEXT-MARKER-".utf8)
        var bytes: [UInt8] = []
        while bytes.count < 400_000 { bytes += marker + randomBytes(40) }
        try await roundTrip(grid, bytes, path: "/secret.txt")
        for i in 0..<3 {
            for f in grid.fragmentFiles(i) {
                let stored = try Data(contentsOf: URL(fileURLWithPath: f))
                #expect(stored.range(of: Data(marker)) == nil, "blobber \(i) stores plaintext")
            }
            let metaFiles = ["meta.sqlite", "meta.sqlite-wal"].map { grid.root + "/blobber\(i)/" + $0 }.filter {
                FileManager.default.fileExists(atPath: $0)
            }
            #expect(!metaFiles.isEmpty)
            for f in metaFiles {
                #expect(try Data(contentsOf: URL(fileURLWithPath: f)).range(of: Data(marker)) == nil, "\(f) holds plaintext")
            }
        }
    }

    @Test func parityBlobbersStoppedMidUploadThenRepaired() async throws {
        let grid = try await StorageGrid(data: 2, parity: 2, chunksPerBatch: 2)
        defer { Task { await grid.shutdown() } }
        let bytes = randomBytes(6 << 20)
        let file = try grid.localFile(bytes)
        let stopped = Mutex(false)
        let up = try await grid.client.upload(localFile: file, remotePath: "/docs/report.pdf", allocation: grid.allocation) { p in
            guard p.bytes > 0,
                stopped.withLock({ s in
                    defer { s = true }
                    return !s
                })
            else { return }
            Task {
                await grid.stop(1)
                await grid.stop(3)
            }
        }
        #expect(Set(up.failed.keys) == [1, 3])
        #expect(Set(up.committed) == [0, 2])
        #expect(up.degraded)
        #expect(Set(grid.client.pendingRepairs(allocation: grid.allocation.id).keys) == [1, 3])

        try await grid.restart(1)
        try await grid.restart(3)
        let report = try await grid.client.repair(allocation: grid.allocation)
        #expect(report.failed.isEmpty)
        #expect(Set(report.repaired.filter { $0.path == "/docs/report.pdf" }.map(\.blobber)) == [1, 3])
        #expect(grid.client.pendingRepairs(allocation: grid.allocation.id).isEmpty)

        // Only the repaired blobbers are left: the file must come back from them alone.
        await grid.stop(0)
        await grid.stop(2)
        let out = grid.outputURL()
        try await grid.client.download(remotePath: "/docs/report.pdf", to: out, allocation: grid.allocation)
        #expect(same([UInt8](try Data(contentsOf: out)), bytes))
    }

    @Test func repairRemovesWhatOthersDeleted() async throws {
        let grid = try await StorageGrid(data: 1, parity: 2)
        defer { Task { await grid.shutdown() } }
        let a = grid.allocation
        _ = try await grid.client.upload(localFile: try grid.localFile(randomBytes(5000)), remotePath: "/old", allocation: a)
        await grid.stop(2)
        try await grid.client.delete("/old", allocation: a)
        try await grid.client.mkdir("/new", allocation: a)
        try await grid.restart(2)
        #expect(try await grid.connection(2).stat("/old") != nil, "the blobber that was down still has it")
        let report = try await grid.client.repair(allocation: a)
        #expect(report.removed.contains { $0.blobber == 2 && $0.path == "/old" })
        #expect(report.repaired.contains { $0.blobber == 2 && $0.path == "/new" })
        #expect(try await grid.connection(2).stat("/old") == nil)
        #expect(grid.fragmentFiles(2).isEmpty)
        let roots = try await (0..<3).asyncMap { try await grid.connection($0).state().root }
        #expect(Set(roots).count == 1, "only the folder is left, so every blobber commits the same root")
    }

    @Test func downloadWithParityBlobbersDown() async throws {
        let grid = try await StorageGrid(data: 2, parity: 2)
        defer { Task { await grid.shutdown() } }
        let bytes = randomBytes(700_000)
        _ = try await grid.client.upload(localFile: try grid.localFile(bytes), remotePath: "/a.bin", allocation: grid.allocation)
        await grid.stop(0)
        await grid.stop(2)
        let out = grid.outputURL()
        let r = try await grid.client.download(remotePath: "/a.bin", to: out, allocation: grid.allocation)
        #expect(same([UInt8](try Data(contentsOf: out)), bytes))
        #expect(r.badBlobbers.isEmpty)
        // One more down is one too many: a clear error, and no partial output file.
        await grid.stop(1)
        let out2 = grid.outputURL()
        await #expect(throws: StorageClientError.self) {
            try await grid.client.download(remotePath: "/a.bin", to: out2, allocation: grid.allocation)
        }
        #expect(!FileManager.default.fileExists(atPath: out2.path))
    }

    /// A blobber cut off by the network accepts a connection and never answers. A read does not
    /// wait out its timeout (an hour here): the other blobbers hold the file, so the download and
    /// `stat` go ahead without it.
    @Test func downloadDoesNotWaitForABlobberThatNeverAnswers() async throws {
        let grid = try await StorageGrid(data: 2, parity: 2)
        defer { Task { await grid.shutdown() } }
        let bytes = randomBytes(300_000)
        _ = try await grid.client.upload(localFile: try grid.localFile(bytes), remotePath: "/a.bin", allocation: grid.allocation)
        let silent = try SilentPeer()
        var a = grid.allocation
        a.blobbers[3].url = silent.url
        var config = StorageClient.Configuration()
        config.requestTimeout = 3600
        let client = StorageClient(signingKey: grid.owner, home: URL(fileURLWithPath: grid.root + "/home"), configuration: config)
        let out = grid.outputURL()
        let r = try await client.download(remotePath: "/a.bin", to: out, allocation: a)
        #expect(same([UInt8](try Data(contentsOf: out)), bytes))
        #expect(r.badBlobbers.isEmpty)
        #expect(try await client.stat("/a.bin", allocation: a).size == Int64(bytes.count))
    }

    /// A read whose blobbers all answer goes on at once: the grace for blobbers that have not
    /// answered yet (60 s here, 500 ms by default) is not sat out once every one of them did.
    @Test func aReadWhoseBlobbersAllAnswerDoesNotWaitOutTheGrace() async throws {
        let grid = try await StorageGrid(data: 2, parity: 2)
        defer { Task { await grid.shutdown() } }
        let bytes = randomBytes(300_000)
        _ = try await grid.client.upload(localFile: try grid.localFile(bytes), remotePath: "/a.bin", allocation: grid.allocation)
        var config = StorageClient.Configuration()
        config.lagGrace = .seconds(60)
        let client = StorageClient(signingKey: grid.owner, home: URL(fileURLWithPath: grid.root + "/home-grace"), configuration: config)
        let clock = ContinuousClock()
        let start = clock.now
        let out = grid.outputURL()
        let r = try await client.download(remotePath: "/a.bin", to: out, allocation: grid.allocation)
        #expect(same([UInt8](try Data(contentsOf: out)), bytes))
        #expect(r.badBlobbers.isEmpty)
        #expect(try await client.stat("/a.bin", allocation: grid.allocation).size == Int64(bytes.count))
        #expect(clock.now - start < .seconds(30), "a read waited out the grace though every blobber answered")
    }

    @Test func lyingBlobberIsDetectedAndRoutedAround() async throws {
        let grid = try await StorageGrid(data: 2, parity: 1)
        defer { Task { await grid.shutdown() } }
        let bytes = randomBytes(500_000)
        _ = try await grid.client.upload(localFile: try grid.localFile(bytes), remotePath: "/x", allocation: grid.allocation)
        // Flip bytes inside blobber 0's stored fragment (its data region starts at offset 0).
        for f in grid.fragmentFiles(0) {
            let h = try #require(FileHandle(forUpdatingAtPath: f))
            try h.seek(toOffset: 70_000)
            let b = try #require(try h.read(upToCount: 4))
            try h.seek(toOffset: 70_000)
            try h.write(contentsOf: Data(b.map { $0 ^ 0xff }))
            try h.close()
        }
        let out = grid.outputURL()
        let r = try await grid.client.download(remotePath: "/x", to: out, allocation: grid.allocation, prefer: [0, 1])
        #expect(same([UInt8](try Data(contentsOf: out)), bytes))
        #expect(r.badBlobbers[0] != nil)
    }

    /// A streamed PUT whose connection the blobber closes half way (its idle timeout ran out while
    /// the upload waited on a slower blobber) goes on in a new PUT from what the blobber kept.
    @Test func aStreamedPutCutOffByTheBlobbersIdleTimeoutGoesOn() async throws {
        let grid = try await StorageGrid(data: 1, parity: 1) { $0.connectionTimeout = 1 }
        defer { Task { await grid.shutdown() } }
        let connection = grid.connection(0)
        let block = 64 << 10
        let bytes = randomBytes(3 * block)
        let buffer = ByteBuffer(count: bytes.count, zeroed: false)
        buffer.write(bytes, at: 0)
        let sink = BlobberUploadSink(connection: connection, upload: "cut-" + Hex.encode(Random.bytes(4)), fresh: true, span: 1 << 20)
        sink.expect(length: Int64(bytes.count))
        try await sink.write(fragment: FragmentBytes(storage: buffer, offset: 0, count: block), at: 0)
        try await Task.sleep(for: .milliseconds(2500))  // past the blobber's 1 s idle timeout, mid-PUT
        try await sink.write(fragment: FragmentBytes(storage: buffer, offset: block, count: 2 * block), at: Int64(block))
        try await sink.finish(length: Int64(bytes.count), root: MerkleTree(stream: bytes).root)
        #expect(try await connection.uploadStatus(sink.upload) == Int64(bytes.count))
    }

    @Test func resumeAfterInterruptedUpload() async throws {
        let grid = try await StorageGrid(data: 2, parity: 1, chunksPerBatch: 2)
        defer { Task { await grid.shutdown() } }
        let bytes = randomBytes(5 << 20)
        let file = try grid.localFile(bytes)
        // All blobbers die part way: the upload fails, the journal and the blobbers' partial uploads stay.
        let (journal, journalURL) = try await grid.interruptedUpload(file, path: "/r.bin")
        var kept: Int64 = 0
        for i in 0..<3 {
            // Each blobber has its own upload id, derived from the journal's.
            let id = BlobberUploadSink.uploadID(journal.uploadID, blobber: grid.allocation.blobbers[i].id)
            kept += try await grid.connection(i).uploadStatus(id)
        }
        #expect(kept > 0, "partial uploads survive a blobber restart")
        #expect(try await grid.client.list("/", allocation: grid.allocation).isEmpty, "nothing visible before commit")

        let up = try await grid.client.upload(localFile: file, remotePath: "/r.bin", allocation: grid.allocation)
        #expect(up.resumed)
        #expect(!FileManager.default.fileExists(atPath: journalURL.path))
        let out = grid.outputURL()
        try await grid.client.download(remotePath: "/r.bin", to: out, allocation: grid.allocation)
        #expect(same([UInt8](try Data(contentsOf: out)), bytes))
    }

    @Test func restartedBlobberShowsNoPartialFile() async throws {
        let grid = try await StorageGrid(data: 1, parity: 1)
        defer { Task { await grid.shutdown() } }
        let c = grid.connection(0)
        // Bytes received but never committed, then the blobber goes away.
        _ = try await c.put("interrupted", offset: 0, bytes: randomBytes(100_000))
        // A fragment published without a record (a crash between the two steps of a commit).
        let store = try FragmentStore(directory: grid.root + "/blobber0/fragments")
        let w = try store.beginWrite(allocation: grid.allocation.id, file: "u-orphan")
        try w.append(randomBytes(1000))
        try w.commit(expectedRoot: MerkleTree(stream: try store.readBytesOrEmpty(w)).root)
        #expect(grid.fragmentFiles(0).count == 1)
        try await grid.restart(0)
        #expect(grid.fragmentFiles(0).isEmpty, "orphaned fragment removed at start")
        #expect(try await c.list("/", recursive: true).isEmpty)
        #expect(try await c.stat("/anything") == nil)
        #expect(try await c.uploadStatus("interrupted") == 100_000)
    }

    @Test func wrongSignaturesAreRejected() async throws {
        let grid = try await StorageGrid(data: 1, parity: 1)
        defer { Task { await grid.shutdown() } }
        let stranger = Ed25519.SigningKey.generate()
        // Requests signed by someone else.
        await #expect(throws: HTTPClientError.self) { try await grid.connection(0, key: stranger).list("/", recursive: true) }
        await #expect(throws: HTTPClientError.self) { _ = try await grid.connection(0, key: stranger).put("u1", offset: 0, bytes: [1, 2]) }
        // A commit whose write marker (and metadata) are signed by someone else.
        var meta = FileMeta.directory(allocationID: grid.allocation.id, path: "/d", time: 1, ownerID: "")
        meta.sign(with: grid.owner)
        let state = try await grid.connection(0).state()
        let root = try AllocationRoot.root(of: [meta], index: 0)
        var marker = WriteMarker(
            allocationID: grid.allocation.id, blobberID: state.blobberID, clientID: "", previousRoot: state.root,
            root: root, size: 0, timestamp: Int64(Date().timeIntervalSince1970 * 1000))
        marker.sign(with: stranger)
        do {
            _ = try await grid.connection(0).commit(BlobberWire.Commit(changes: [.put(meta)], writeMarker: marker))
            Issue.record("a marker signed by a stranger was accepted")
        } catch let e as HTTPClientError {
            #expect(e.status == 403)
        }
        // The owner's marker over a wrong root is refused too.
        marker.root = AllocationRoot.empty.replacingOccurrences(of: "0", with: "1")
        marker.sign(with: grid.owner)
        await #expect(throws: HTTPClientError.self) {
            _ = try await grid.connection(0).commit(BlobberWire.Commit(changes: [.put(meta)], writeMarker: marker))
        }
        // Metadata signed by a stranger, under a correct owner marker.
        var forged = meta
        forged.sign(with: stranger)
        forged.ownerID = grid.owner.publicKey.clientID
        var m2 = WriteMarker(
            allocationID: grid.allocation.id, blobberID: state.blobberID, clientID: "", previousRoot: state.root,
            root: try AllocationRoot.root(of: [forged], index: 0), size: 0, timestamp: Int64(Date().timeIntervalSince1970 * 1000))
        m2.sign(with: grid.owner)
        await #expect(throws: HTTPClientError.self) {
            _ = try await grid.connection(0).commit(BlobberWire.Commit(changes: [.put(forged)], writeMarker: m2))
        }
        #expect(try await grid.connection(0).state().root == AllocationRoot.empty)
    }

    @Test func foldersMoveCopyDelete() async throws {
        let grid = try await StorageGrid(data: 2, parity: 1)
        defer { Task { await grid.shutdown() } }
        let a = grid.allocation
        let bytes = randomBytes(200_000)
        _ = try await grid.client.upload(localFile: try grid.localFile(bytes), remotePath: "/photos/2024/cat.jpg", allocation: a)
        try await grid.client.mkdir("/empty", allocation: a)
        #expect(try await grid.client.list("/", allocation: a).map(\.path) == ["/empty", "/photos"])
        let cat = try await grid.client.stat("/photos/2024/cat.jpg", allocation: a)
        #expect(cat.contentType == "image/jpeg")
        #expect(cat.kind == .file)

        try await grid.client.copy("/photos", to: "/backup", allocation: a)
        try await grid.client.move("/photos/2024/cat.jpg", to: "/empty/kitten.jpg", allocation: a)
        #expect(try await grid.client.list("/photos/2024", allocation: a).isEmpty)
        for p in ["/backup/2024/cat.jpg", "/empty/kitten.jpg"] {
            let out = grid.outputURL()
            try await grid.client.download(remotePath: p, to: out, allocation: a)
            #expect(same([UInt8](try Data(contentsOf: out)), bytes))
        }
        try await grid.client.delete("/backup", allocation: a)
        #expect(try await grid.client.list("/", allocation: a).map(\.path) == ["/empty", "/photos"])

        // Clear errors.
        await #expect(throws: StorageClientError.notFound(path: "/nope")) { try await grid.client.delete("/nope", allocation: a) }
        await #expect(throws: StorageClientError.notFound(path: "/nope")) {
            try await grid.client.download(remotePath: "/nope", to: grid.outputURL(), allocation: a)
        }
        await #expect(throws: StorageClientError.alreadyExists(path: "/empty/kitten.jpg")) {
            try await grid.client.upload(localFile: try grid.localFile([1]), remotePath: "/empty/kitten.jpg", allocation: a)
        }
        await #expect(throws: StorageClientError.alreadyExists(path: "/photos")) {
            try await grid.client.move("/empty", to: "/photos", allocation: a)
        }
        // Replacing is allowed when asked for.
        _ = try await grid.client.upload(
            localFile: try grid.localFile([9, 9]), remotePath: "/empty/kitten.jpg", allocation: a, replace: true)
        #expect(try await grid.client.stat("/empty/kitten.jpg", allocation: a).size == 2)
    }

    @Test func expiredFullAndTooFewBlobbers() async throws {
        let expired = try await StorageGrid(data: 1, parity: 1, expiration: Int64(Date().timeIntervalSince1970) - 10)
        defer { Task { await expired.shutdown() } }
        let f = try expired.localFile([1, 2, 3])
        await #expect(throws: StorageClientError.expired(allocation: expired.allocation.id, at: expired.allocation.expiration)) {
            try await expired.client.upload(localFile: f, remotePath: "/a", allocation: expired.allocation)
        }
        // A client whose copy of the terms is stale (the blobbers know it expired) gets the same
        // answer from the blobbers' refusals, not "allocation full".
        var stale = expired.allocation
        stale.expiration = Int64(Date().timeIntervalSince1970) + 3600
        do {
            try await expired.client.upload(localFile: f, remotePath: "/a", allocation: stale)
            Issue.record("an upload to an expired allocation succeeded")
        } catch StorageClientError.expired(let id, let at) {
            #expect(id == stale.id && at < stale.expiration, "it names the allocation, and a time that is not in the future")
        }

        let small = try await StorageGrid(data: 2, parity: 1, size: 100_000)
        defer { Task { await small.shutdown() } }
        do {
            try await small.client.upload(
                localFile: try small.localFile(randomBytes(300_000)), remotePath: "/big", allocation: small.allocation)
            Issue.record("an upload larger than the allocation succeeded")
        } catch let e as StorageClientError {
            guard case .full = e else {
                Issue.record("unexpected \(e)")
                return
            }
            #expect("\(e)".contains("grow the allocation"))
        }
        #expect(try await small.client.list("/", allocation: small.allocation).isEmpty)

        let grid = try await StorageGrid(data: 2, parity: 1)
        defer { Task { await grid.shutdown() } }
        await grid.stop(0)
        await grid.stop(1)
        do {
            try await grid.client.upload(localFile: try grid.localFile(randomBytes(1000)), remotePath: "/f", allocation: grid.allocation)
            Issue.record("an upload reaching 1 of 3 blobbers succeeded")
        } catch let e as StorageClientError {
            guard case .tooFewBlobbers = e else {
                Issue.record("unexpected \(e)")
                return
            }
        }
        #expect(try await grid.connection(2).list("/", recursive: true).isEmpty, "nothing partial is left visible")
    }
}

extension FragmentStore {
    /// Test helper: the bytes a writer has received so far (from its temp file).
    func readBytesOrEmpty(_ w: FragmentWriter) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: w.tempPath)))
    }
}

extension Sequence where Element: Sendable {
    func asyncMap<T>(_ f: (Element) async throws -> T) async rethrows -> [T] {
        var out: [T] = []
        for e in self { out.append(try await f(e)) }
        return out
    }
}

/// A blobber's `/metrics`: what it holds, in the Prometheus text format.
@Suite(.timeLimit(.minutes(2))) struct BlobberMetricsTests {
    @Test func metricsShowWhatTheBlobberHoldsAndTheUploadsItTook() async throws {
        let grid = try await StorageGrid(data: 2, parity: 1)
        defer { Task { await grid.shutdown() } }
        let a = grid.allocation
        for name in ["/a", "/b/c"] {
            _ = try await grid.client.upload(localFile: try grid.localFile(randomBytes(100_000)), remotePath: name, allocation: a)
        }
        let http = HTTPClient(baseURL: a.blobbers[0].url)
        let m = MetricsScrape(String(decoding: try await http.send(.get, "/metrics").body, as: UTF8.self))
        #expect(m["mosaic_blobber_allocations"] == 1)
        #expect(m["mosaic_blobber_files"].map { $0 >= 2 } == true, "two files (and the folder that holds one)")
        #expect(m["mosaic_blobber_committed_bytes"].map { $0 >= 100_000 } == true, "each blobber holds half of each file, and more")
        #expect(m["mosaic_http_received_bytes_total"].map { $0 >= 100_000 } == true)
        #expect(m["mosaic_http_errors_total", ["kind": "server"]] == 0)
    }
}
