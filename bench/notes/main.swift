import BenchSupport
import Foundation
import MosaicCrypto
import MosaicHTTPServer
import MosaicLedger
import MosaicNode
import MosaicProtocol
import MosaicSDK
import Synchronization

// Notes benchmark (not a test): a node in this process with notepads filled through signed
// calls, then for a fixed time
//   - readers: concurrent keep-alive clients hammer the notes views over HTTP
//     (GET /v1/contracts/notes/views/note?id=…, and one in four a page of notes?owner=…&limit=10);
//   - writers: wallets add notes through the SDK and wait until each is sealed,
// and prints reads per second (with read latency) and the p99 submit-to-sealed latency of a write.
// Run in release: swift run -c release bench-notes [seconds] [readers] [writers] [block-time-ms]

let args = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let seconds = args.count > 0 ? args[0] : 15
let readers = args.count > 1 ? args[1] : 8
let writers = args.count > 2 ? args[2] : 8
let blockTimeMs = args.count > 3 ? args[3] : 1000
let confirmations: UInt64 = 3
let owners = 16
let notesPerOwner = 250

func log(_ s: String) { FileHandle.standardError.write(Data((s + "\n").utf8)) }
func secondsOf(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }
func pct(_ xs: [Double], _ p: Double) -> Double { xs.isEmpty ? .nan : xs[min(xs.count - 1, Int(Double(xs.count) * p))] }

// MARK: node and accounts

let ownerKeys = (0..<owners).map { _ in Ed25519.SigningKey.generate() }
let writerKeys = (0..<writers).map { _ in Ed25519.SigningKey.generate() }
var genesis = Genesis(
    chainID: "mosaic-bench-notes",
    allocations: Dictionary(
        uniqueKeysWithValues: (ownerKeys + writerKeys).map { ($0.publicKey.clientID, 1_000 * TokenAmount.unitsPerToken) }))
genesis.confirmations = confirmations
genesis.blockTimeMillis = Int64(blockTimeMs)
genesis.maxBlockTransactions = 100_000
genesis.poolCapacity = 1_000_000
genesis.expiryBlocks = 120
let dir = NSTemporaryDirectory() + "mosaic-bench-notes-" + Hex.encode(Random.bytes(6))
var config = NodeConfiguration(directory: dir, genesis: genesis, port: 0, blockTime: .milliseconds(blockTimeMs))
// A benchmark floods on purpose: lift the per-sender and byte caps of the pool.
config.ledgerLimits = LedgerLimits(poolBytes: 1 << 30, senderPendingCount: 1 << 20, senderPendingBytes: 1 << 30)
config.threads = 4
let node = try NodeServer(configuration: config)
try node.start()
let client = LedgerClient(baseURL: node.url)
log("node at \(node.url); filling \(owners) notepads × \(notesPerOwner) notes…")

// MARK: fill (signed batches, binary form)

let address = ContractCall.address(of: "notes")
var fill: [Transaction] = []
for key in ownerKeys {
    var nonce: UInt64 = 0
    for i in 0..<notesPerOwner {
        nonce += 1
        let body = "Note \(i) of \(key.publicKey.clientID.prefix(8)): " + String(repeating: "lorem ipsum ", count: 16)
        var args: [String: JSONValue] = ["title": .string("Note \(i)"), "body": .string(body)]
        if i == 0 { args["create"] = .bool(true) }
        fill.append(
            Transaction.signed(
                by: key, chainID: genesis.chainID, to: address, value: 0, fee: genesis.minimumFee, nonce: nonce,
                type: .contractCall, data: ContractCall(contract: "notes", method: "add", args: args).json,
                creationDate: Int64(Date().timeIntervalSince1970)))
        // Each sender has at most max_nonce_ahead (10) waiting beyond its account nonce: submit in rounds.
    }
}
let perRound = Int(genesis.maxNonceAhead)
for start in stride(from: 0, to: notesPerOwner, by: perRound) {
    var batch: [Transaction] = []
    for o in 0..<owners { batch += fill[(o * notesPerOwner + start)..<(o * notesPerOwner + min(start + perRound, notesPerOwner))] }
    let r = try await client.submit(binaryBatch: batch)
    if r.accepted != batch.count { log("fill: \(batch.count - r.accepted) rejected: \(r.rejected.prefix(2))") }
    _ = try await Wallet.wait(client: client, for: batch[batch.count - 1].hash, until: .finalized, timeout: .seconds(60))
}
_ = try await Wallet.wait(client: client, for: fill[fill.count - 1].hash, until: .sealed, timeout: .seconds(60))
let stats = try await NotesClient(client: client).stats()
log("filled: \(stats.notesCreated) notes in \(stats.notepadsLive) notepads")
let maxID = Int(stats.notesCreated)
let ownerIDs = ownerKeys.map { $0.publicKey.clientID }

// MARK: run

let reads = Atomic<Int>(0)
let readErrors = Atomic<Int>(0)
let readLatencies = Mutex<[Double]>([])
let writeLatencies = Mutex<[Double]>([])
let writeErrors = Mutex<[String]>([])
let runStart = ContinuousClock.now
let deadline = runStart + .seconds(seconds)
let port = node.http.port

let readerThreads = (0..<readers).map { r in
    Thread {
        guard let http = try? RawHTTPClient(port: port) else {
            log("reader \(r) cannot connect")
            return
        }
        var rng = SystemRandomNumberGenerator()
        var mine: [Double] = []
        var n = 0
        while ContinuousClock.now < deadline {
            let path =
                n % 4 == 3
                ? "/v1/contracts/notes/views/notes?owner=\(ownerIDs[Int.random(in: 0..<owners, using: &rng)])&limit=10"
                : "/v1/contracts/notes/views/note?id=\(Int.random(in: 1...maxID, using: &rng))"
            let t0 = ContinuousClock.now
            guard let resp = try? http.get(path), resp.status == 200 else {
                readErrors.add(1, ordering: .relaxed)
                continue
            }
            if n % 16 == 0 { mine.append(secondsOf(ContinuousClock.now - t0)) }
            n += 1
        }
        reads.add(n, ordering: .relaxed)
        readLatencies.withLock { $0 += mine }
    }
}
readerThreads.forEach { $0.start() }

await withTaskGroup(of: Void.self) { group in
    for key in writerKeys {
        group.addTask {
            let pad = Notepad(wallet: Wallet(signingKey: key, client: client))
            var first = true
            while ContinuousClock.now < deadline {
                let t0 = ContinuousClock.now
                do {
                    try await pad.add(
                        title: "bench", body: "written under read load", createNotepad: first, until: .sealed, timeout: .seconds(30))
                    first = false
                    let d = secondsOf(ContinuousClock.now - t0)
                    writeLatencies.withLock { $0.append(d) }
                } catch {
                    writeErrors.withLock { $0.append("\(error)") }
                }
            }
        }
    }
}
while readerThreads.contains(where: { !$0.isFinished }) { try await Task.sleep(for: .milliseconds(20)) }
let elapsed = secondsOf(ContinuousClock.now - runStart)
let readWindow = Double(seconds)
await node.stop()
try? FileManager.default.removeItem(atPath: dir)

let rl = readLatencies.withLock { $0.sorted() }
let wl = writeLatencies.withLock { $0.sorted() }
let we = writeErrors.withLock { $0 }
print(
    String(
        format: "reads: %d in %.1f s from %d keep-alive clients (%d errors): %.0f reads/s", reads.load(ordering: .relaxed), readWindow,
        readers,
        readErrors.load(ordering: .relaxed), Double(reads.load(ordering: .relaxed)) / readWindow))
print(String(format: "read latency: p50 %.2f ms, p99 %.2f ms", pct(rl, 0.5) * 1000, pct(rl, 0.99) * 1000))
print(
    String(
        format:
            "sealed writes: %d by %d wallets (%d failed), submit-to-sealed p50 %.2f s, p99 %.2f s (bound (confirmations+2) x block time = %.1f s); run %.1f s",
        wl.count, writers, we.count, pct(wl, 0.5), pct(wl, 0.99), Double(confirmations + 2) * Double(blockTimeMs) / 1000, elapsed))
if let e = we.first { print("first write error: \(e)") }
