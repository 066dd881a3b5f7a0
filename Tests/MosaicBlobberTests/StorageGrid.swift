import Foundation
import MosaicCrypto
import MosaicProtocol
import MosaicTestSupport
import Synchronization
import Testing

@testable import MosaicBlobber
@testable import MosaicSDK
@testable import MosaicStorageCore

/// Real blobber servers on loopback in temp folders, one owner wallet, one allocation assigned to
/// them (directly, without a ledger) and a storage client with its own MOSAIC_HOME.
final class StorageGrid: Sendable {
    let root: String
    let owner = Ed25519.SigningKey.generate()
    let dataShards: Int
    let parityShards: Int
    private let servers: Mutex<[BlobberServer?]>
    private let ports: [UInt16]
    let allocation: StorageAllocation
    let client: StorageClient
    private let configure: @Sendable (inout BlobberServer.Configuration) -> Void

    /// `configure` adjusts every blobber's configuration (limits under test).
    init(
        data: Int, parity: Int, size: Int64 = 1 << 30, expiration: Int64? = nil, chunksPerBatch: Int = 4,
        configure: @escaping @Sendable (inout BlobberServer.Configuration) -> Void = { _ in }
    ) async throws {
        root = NSTemporaryDirectory() + "mosaic-grid-" + Hex.encode(Random.bytes(6))
        TestFolders.removeAtExit(root)
        dataShards = data
        parityShards = parity
        var started: [BlobberServer?] = []
        var ports: [UInt16] = []
        for i in 0..<(data + parity) {
            var config = BlobberServer.Configuration(directory: root + "/blobber\(i)")
            configure(&config)
            let s = try BlobberServer(configuration: config)
            try s.start()
            started.append(s)
            ports.append(s.port)
        }
        servers = Mutex(started)
        self.ports = ports
        self.configure = configure
        let ids = started.compactMap { $0?.blobberID }
        var assignment = AllocationAssignment(
            allocationID: Hex.encode(Random.bytes(32)), ownerPublicKey: owner.publicKey,
            dataShards: data, parityShards: parity, size: size,
            expiration: expiration ?? Int64(Date().timeIntervalSince1970) + 3600, blobbers: ids)
        assignment.sign(with: owner)
        allocation = try StorageAllocation(assignment: assignment, urls: ports.map { URL(string: "http://127.0.0.1:\($0)")! })
        var config = StorageClient.Configuration()
        config.chunksPerBatch = chunksPerBatch
        // PUTs of four batches: a test's few MiB still go as several streamed PUTs per blobber,
        // so one stopped part way (`interruptedUpload`) leaves the upload unfinished.
        config.uploadRequestBytes = Int64(4 * chunksPerBatch) << 16
        // Generous: a loaded 2-core CI box has stalled a blobber answer past 10 s; a stopped blobber
        // refuses at once, so no failure test waits for this.
        config.requestTimeout = 30
        client = StorageClient(signingKey: owner, home: URL(fileURLWithPath: root + "/home"), configuration: config)
        let failures = await client.assign(assignment, to: allocation)
        guard failures.isEmpty else { throw GridError(message: "assign failed: \(failures)") }
    }

    struct GridError: Error { let message: String }

    func server(_ i: Int) -> BlobberServer? { servers.withLock { $0[i] } }

    func stop(_ i: Int) async {
        let s = servers.withLock { all -> BlobberServer? in
            defer { all[i] = nil }
            return all[i]
        }
        await s?.stop()
    }

    /// A new server process over the same folder and port (as after a crash and restart).
    func restart(_ i: Int) async throws {
        await stop(i)
        var config = BlobberServer.Configuration(directory: root + "/blobber\(i)")
        configure(&config)
        config.port = ports[i]
        let s = try BlobberServer(configuration: config)
        var attempt = 0
        while true {
            do {
                try s.start()
                break
            } catch {
                attempt += 1
                if attempt > 50 { throw error }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        servers.withLock { $0[i] = s }
    }

    func shutdown() async {
        for i in 0..<(dataShards + parityShards) { await stop(i) }
        try? FileManager.default.removeItem(atPath: root)
    }

    /// Writes `bytes` to a new local file and returns its URL.
    func localFile(_ bytes: [UInt8], name: String = "in-" + Hex.encode(Random.bytes(4))) throws -> URL {
        try FileManager.default.createDirectory(atPath: root + "/local", withIntermediateDirectories: true)
        let url = URL(fileURLWithPath: root + "/local/" + name)
        try Data(bytes).write(to: url)
        return url
    }

    func outputURL() -> URL { URL(fileURLWithPath: root + "/local/out-" + Hex.encode(Random.bytes(4))) }

    /// Every committed fragment file of blobber i (path on disk).
    /// Uploads `file` to `path` until about 1 MiB went out, then stops every blobber (the upload
    /// fails) and starts them again; returns the journal the failed upload left, and its file.
    func interruptedUpload(_ file: URL, path: String) async throws -> (journal: UploadJournal, url: URL) {
        let stopped = Mutex(false)
        await #expect(throws: (any Error).self) {
            try await self.client.upload(localFile: file, remotePath: path, allocation: self.allocation) { p in
                guard p.bytes >= 1 << 20,
                    stopped.withLock({ s in
                        defer { s = true }
                        return !s
                    })
                else { return }
                Task { for i in 0..<self.dataShards + self.parityShards { await self.stop(i) } }
            }
        }
        for i in 0..<dataShards + parityShards { try await restart(i) }
        let url = UploadJournal.url(home: client.home, allocation: allocation.id, remotePath: path)
        return (try #require(UploadJournal.load(url)), url)
    }

    func fragmentFiles(_ i: Int) -> [String] {
        let dir = root + "/blobber\(i)/fragments/alloc/" + allocation.id
        return ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasSuffix(".frag") }.map { dir + "/" + $0 }
    }

    func connection(_ i: Int, key: Ed25519.SigningKey? = nil) -> BlobberConnection {
        BlobberConnection(
            index: i, blobber: allocation.blobbers[i], allocation: allocation.id, ownerID: owner.publicKey.clientID,
            key: key ?? owner, timeout: 10)
    }
}

/// Random bytes from the system (the encryption check needs incompressible, unique content).
func randomBytes(_ n: Int) -> [UInt8] { Random.bytes(n) }
