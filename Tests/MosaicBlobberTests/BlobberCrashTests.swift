import Foundation
import MosaicCrypto
import MosaicTestSupport
import Synchronization
import Testing

@testable import MosaicBlobber
@testable import MosaicSDK
@testable import MosaicStorageCore

/// A real blobber process killed with SIGKILL while uploads and commits stream into it: after a
/// restart it shows only whole, verified files, its listing matches its committed root, and no
/// orphaned fragment stays on disk.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct BlobberCrashTests {
    static var fixture: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/debug/blobber-fixture")
    }

    /// Starts the fixture over `dir`; returns the process and its port.
    func spawn(_ dir: String) async throws -> (MosaicProcess, UInt16) {
        let p = try MosaicProcess([dir], executable: Self.fixture)
        let text = (await p.firstLine(timeout: 60) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("PORT "), let port = UInt16(text.dropFirst(5)) else {
            p.signal(SIGKILL)
            throw StorageGrid.GridError(message: "fixture did not start: '\(text)'")
        }
        return (p, port)
    }

    @Test func killedMidWriteShowsNoPartialFile() async throws {
        let root = NSTemporaryDirectory() + "mosaic-crash-" + Hex.encode(Random.bytes(6))
        defer { try? FileManager.default.removeItem(atPath: root) }
        let dir = root + "/blobber"
        try FileManager.default.createDirectory(atPath: root + "/local", withIntermediateDirectories: true)
        let owner = Ed25519.SigningKey.generate()
        let client = StorageClient(signingKey: owner, home: URL(fileURLWithPath: root + "/home"))
        let expected = ExpectedFiles()
        var assignment: AllocationAssignment?

        for round in 0..<4 {
            let (process, port) = try await spawn(dir)
            defer {
                process.signal(SIGKILL)
                _ = process.waitForExitBlocking(timeout: 30)
            }
            let blobberID = try String(contentsOfFile: dir + "/blobber.key", encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let key = try Ed25519.SigningKey(seed: SecretBytes(try #require(Hex.decode(blobberID))))
            if assignment == nil {
                var a = AllocationAssignment(
                    allocationID: Hex.encode(Random.bytes(32)), ownerPublicKey: owner.publicKey, dataShards: 1,
                    parityShards: 0, size: 1 << 30, expiration: Int64(Date().timeIntervalSince1970) + 3600,
                    blobbers: [key.publicKey.clientID])
                a.sign(with: owner)
                assignment = a
            }
            let signed = try #require(assignment)
            let allocation = try StorageAllocation(assignment: signed, urls: [try #require(URL(string: "http://127.0.0.1:\(port)"))])
            if round == 0 { #expect(await client.assign(signed, to: allocation).isEmpty) }

            // What survived the previous kill is whole and consistent.
            try await check(client: client, allocation: allocation, dir: dir, expected: expected)

            // Uploads stream in until the process is killed at some point.
            let committed = Counter()
            let writer = Task {
                var n = 0
                while !Task.isCancelled {
                    n += 1
                    let bytes = Random.bytes(50_000 + Int.random(in: 0..<400_000))
                    let path = "/r\(round)/f\(n)"
                    expected.set(path, bytes)
                    let local = URL(fileURLWithPath: root + "/local/r\(round)-\(n)")
                    try? Data(bytes).write(to: local)
                    do { _ = try await client.upload(localFile: local, remotePath: path, allocation: allocation) } catch { return }
                    committed.increment()
                }
            }
            // Let at least one upload land first (a loaded machine may need a while), then kill
            // at a varying moment while the next ones are streaming.
            let waitStart = ContinuousClock.now
            while committed.value == 0 && ContinuousClock.now - waitStart < .seconds(60) {
                try await Task.sleep(for: .milliseconds(20))
            }
            try await Task.sleep(for: .milliseconds(30 + 60 * round))
            process.signal(SIGKILL)
            _ = await process.waitForExit(timeout: 30)
            writer.cancel()
            _ = await writer.value
        }
        // A final restart, checked the same way.
        let (process, port) = try await spawn(dir)
        defer {
            process.signal(SIGKILL)
            _ = process.waitForExitBlocking(timeout: 30)
        }
        let allocation = try StorageAllocation(
            assignment: try #require(assignment), urls: [try #require(URL(string: "http://127.0.0.1:\(port)"))])
        let files = try await check(client: client, allocation: allocation, dir: dir, expected: expected)
        #expect(files > 0, "some uploads committed before the kills")
    }

    /// Every listed file downloads byte-exact, the listing hashes to the committed root, and the
    /// fragment files on disk are exactly those of the listed files. Returns the file count.
    @discardableResult
    func check(client: StorageClient, allocation: StorageAllocation, dir: String, expected: ExpectedFiles) async throws -> Int {
        let c = client.connections(allocation)[0]
        let listed = try await c.list("/", recursive: true)
        let state = try await c.state()
        #expect(try AllocationRoot.root(of: listed, index: 0) == state.root)
        let files = listed.filter { $0.kind == .file }
        for m in files {
            let out = URL(fileURLWithPath: dir + "/../local/out-" + Hex.encode(Random.bytes(4)))
            try await client.download(remotePath: m.path, to: out, allocation: allocation)
            let want = expected.get(m.path)
            let got = [UInt8](try Data(contentsOf: out))
            #expect(want.map { same(got, $0) } ?? false, "\(m.path) is whole")
            try? FileManager.default.removeItem(at: out)
        }
        let fragDir = dir + "/fragments/alloc/" + allocation.id
        let onDisk = ((try? FileManager.default.contentsOfDirectory(atPath: fragDir)) ?? []).filter { $0.hasSuffix(".frag") }
        #expect(onDisk.count == files.filter { $0.fragmentLength > 0 }.count, "no orphaned fragment files")
        return files.count
    }
}

/// What each remote path was uploaded with (shared with the upload task).
final class ExpectedFiles: Sendable {
    private let files = Mutex<[String: [UInt8]]>([:])
    func set(_ path: String, _ bytes: [UInt8]) { files.withLock { $0[path] = bytes } }
    func get(_ path: String) -> [UInt8]? { files.withLock { $0[path] } }
    var count: Int { files.withLock { $0.count } }
}

/// A count shared between the upload task and the test body.
private final class Counter: @unchecked Sendable {
    // Guarded by `lock`.
    private var n = 0
    private let lock = NSLock()

    func increment() {
        lock.lock()
        n += 1
        lock.unlock()
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return n
    }
}
