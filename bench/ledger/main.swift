import BenchSupport
import Foundation
import MosaicCrypto
import MosaicHTTP
import MosaicHTTPServer
import MosaicLedger
import MosaicNode
import MosaicProtocol
import MosaicSDK
import MosaicTestSupport
import Synchronization

// Ledger throughput benchmark (not a test): a node in this process, signed transfers submitted
// through its HTTP API by concurrent clients for a fixed time, then
//   - transfers sealed per second,
//   - p50/p99 submit-to-sealed latency,
//   - the single-core Ed25519 verify rate measured in the same run, and the ratio.
// Run in release: swift run -c release bench-ledger [seconds] [clients] [batch] [block-time-ms] [json] [--db postgres|URL]
// Transactions are signed and JSON-encoded before the clock starts, so the figure measures the
// node (HTTP, JSON decoding, signature checks, blocks, the store), not the client's signing.
// With `--db` the same signed transfers run twice in one process, on a fresh chain each time:
// first on SQLite, then on PostgreSQL (`postgres`: a throwaway server started here, as the tests
// start theirs; or an empty database at URL), and the ratio is printed.

let argv = Array(CommandLine.arguments.dropFirst())
let dbArgument: String? = argv.firstIndex(of: "--db").flatMap { $0 + 1 < argv.count ? argv[$0 + 1] : nil }
let args = argv.filter { $0 != dbArgument }.compactMap { Int($0) }
/// `json` as any argument submits JSON batches instead of the binary form.
let useJSON = CommandLine.arguments.contains("json")
let contentType = useJSON ? "application/json" : BinaryBatch.contentType
let seconds = args.count > 0 ? args[0] : 20
let clients = args.count > 1 ? args[1] : 8
let batchSize = args.count > 2 ? args[2] : 500
let blockTimeMs = args.count > 3 ? args[3] : 1000
let confirmations: UInt64 = 3
let accountsPerClient = 64

func log(_ s: String) { FileHandle.standardError.write(Data((s + "\n").utf8)) }

// MARK: single-core verify rate

func verifyRate() -> Double {
    let key = Ed25519.SigningKey.generate()
    let messages = (0..<256).map { i in SHA256.hash(Array("bench \(i)".utf8)) }
    let sigs = messages.map { key.signature(for: $0) }
    var n = 0
    let start = ContinuousClock.now
    var elapsed = Duration.zero
    while elapsed < .seconds(2) {
        for i in 0..<256 where key.publicKey.isValidSignature(sigs[i], for: messages[i]) { n += 1 }
        elapsed = ContinuousClock.now - start
    }
    return Double(n) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
}

func secondsOf(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }

log("measuring single-core Ed25519 verify rate…")
let verifyPerSecond = verifyRate()
log(String(format: "verify: %.0f/s on one core", verifyPerSecond))

// MARK: accounts and pre-signed batches

let accountCount = clients * accountsPerClient
let expected = Int(verifyPerSecond * 0.9) * seconds + 20_000
let perClient = (expected / clients / batchSize + 1) * batchSize
log("creating \(accountCount) accounts and signing \(perClient * clients) transfers…")
let keys = (0..<accountCount).map { _ in Ed25519.SigningKey.generate() }
let sink = Ed25519.SigningKey.generate().publicKey.clientID
var genesis = Genesis(
    chainID: "mosaic-bench",
    allocations: Dictionary(uniqueKeysWithValues: keys.map { ($0.publicKey.clientID, 1_000_000 * TokenAmount.unitsPerToken) }))
genesis.confirmations = confirmations
genesis.blockTimeMillis = Int64(blockTimeMs)
genesis.maxBlockTransactions = 100_000
genesis.poolCapacity = 1_000_000
genesis.expiryBlocks = 120

/// Batches per client, each already encoded as the request body, with the hash of its last transaction.
let preparing = Mutex<[[(body: Data, last: String, count: Int)]]>(Array(repeating: [], count: clients))
let chainID = genesis.chainID
let fee = genesis.minimumFee
DispatchQueue.concurrentPerform(iterations: clients) { c in
    let mine = (0..<accountsPerClient).map { keys[c * accountsPerClient + $0] }
    var nonces = [UInt64](repeating: 0, count: mine.count)
    var out: [(Data, String, Int)] = []
    var i = 0
    let encoder = JSONEncoder()
    for _ in 0..<(perClient / batchSize) {
        var txs: [Transaction] = []
        txs.reserveCapacity(batchSize)
        for _ in 0..<batchSize {
            let a = i % mine.count
            i += 1
            nonces[a] += 1
            txs.append(
                Transaction.signed(
                    by: mine[a], chainID: chainID, to: sink, value: 1 + UInt64(i % 1000), fee: fee,
                    nonce: nonces[a], creationDate: Int64(Date().timeIntervalSince1970)))
        }
        let body: Data
        if useJSON {
            guard let json = try? encoder.encode(BatchSubmission(transactions: txs)) else { continue }
            body = json
        } else {
            body = BinaryBatch.encode(txs)
        }
        out.append((body, txs[txs.count - 1].hash, txs.count))
    }
    let done = out.map { (body: $0.0, last: $0.1, count: $0.2) }
    preparing.withLock { $0[c] = done }
}
let prepared = preparing.withLock { $0 }

// MARK: one run on one store

/// What one run measured.
struct RunResult {
    let submitted: Int
    let rejected: Int
    let sealed: Int
    let window: Double
    let allSealedAfter: Double
    let rate: Double
    let p50: Double
    let p99: Double
    let conserved: Bool
}

/// (submit time, last hash, count) of every accepted batch.
let submittedBatches = Mutex<[(ContinuousClock.Instant, String, Int)]>([])
/// When each round was first seen as the latest block (by polling `GET /v1/blocks?limit=1` every 10 ms), so
/// "sealed at" = first time latest ≥ round + confirmations, without one long poll per batch.
let seen = Mutex<[UInt64: ContinuousClock.Instant]>([:])
let stopWatching = Atomic<Bool>(false)
let submitted = Atomic<Int>(0)
let rejected = Atomic<Int>(0)
/// Round of the latest block when the submission window closed: everything up to it is counted.
let windowEnd = Mutex<(round: UInt64, at: ContinuousClock.Instant)?>(nil)

@MainActor func measure(_ database: LedgerDatabase) async throws -> RunResult {
    submittedBatches.withLock { $0 = [] }
    seen.withLock { $0 = [:] }
    stopWatching.store(false, ordering: .relaxed)
    submitted.store(0, ordering: .relaxed)
    rejected.store(0, ordering: .relaxed)
    windowEnd.withLock { $0 = nil }
    let dir = NSTemporaryDirectory() + "mosaic-bench-" + Hex.encode(Random.bytes(6))
    var config = NodeConfiguration(directory: dir, genesis: genesis, port: 0, blockTime: .milliseconds(blockTimeMs))
    config.database = database
    // A benchmark floods on purpose: lift the per-sender and byte caps of the pool.
    config.ledgerLimits = LedgerLimits(poolBytes: 1 << 30, senderPendingCount: 1 << 20, senderPendingBytes: 1 << 30)
    config.threads = 4
    let node = try NodeServer(configuration: config)
    try node.start()
    log(
        "node at \(node.url) on \(database), \(clients) clients × \(useJSON ? "JSON" : "binary") batches of \(batchSize), \(seconds) s, block time \(blockTimeMs) ms, \(confirmations) confirmations"
    )
    let roundWatcher = Thread {
        guard let http = try? RawHTTPClient(port: node.http.port) else { return }
        let decoder = JSONDecoder()
        while !stopWatching.load(ordering: .relaxed) {
            if let r = try? http.get("/v1/blocks?limit=1"), let list = try? decoder.decode([String: [BlockView]].self, from: Data(r.body)),
                let b = list["blocks"]?.first
            {
                let now = ContinuousClock.now
                seen.withLock { m in if m[b.block.round] == nil { m[b.block.round] = now } }
            }
            usleep(10_000)
        }
    }
    roundWatcher.start()
    let runStart = ContinuousClock.now
    let deadline = runStart + .seconds(seconds)
    let startRound = node.ledger.latestBlock.round
    let watcher = Task {
        try? await Task.sleep(until: deadline)
        windowEnd.withLock { $0 = (node.ledger.latestBlock.round, ContinuousClock.now) }
    }
    // Each load generator is a thread with a blocking keep-alive socket (see RawHTTPClient).
    let port = node.http.port
    await withTaskGroup(of: Void.self) { group in
        for c in 0..<clients {
            group.addTask {
                await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                    let thread = Thread {
                        defer { done.resume() }
                        guard let http = try? RawHTTPClient(port: port) else {
                            log("client \(c) cannot connect")
                            return
                        }
                        for b in prepared[c] {
                            guard ContinuousClock.now < deadline else { break }
                            let t0 = ContinuousClock.now
                            guard let r = try? http.post("/v1/transactions/batch", body: b.body, contentType: contentType), r.status == 202
                            else {
                                rejected.add(b.count, ordering: .relaxed)
                                continue
                            }
                            // Count rejections without decoding every result on the client.
                            let text = String(decoding: r.body.prefix(64), as: UTF8.self)
                            let accepted = text.split(separator: "\"accepted\":").last.flatMap { Int($0.prefix { $0.isNumber }) } ?? 0
                            submitted.add(accepted, ordering: .relaxed)
                            if accepted < b.count {
                                rejected.add(b.count - accepted, ordering: .relaxed)
                                if rejected.load(ordering: .relaxed) == b.count - accepted {
                                    log("first rejections: " + String(decoding: r.body.prefix(400), as: UTF8.self))
                                }
                            }
                            submittedBatches.withLock { $0.append((t0, b.last, b.count)) }
                        }
                    }
                    thread.start()
                }
            }
        }
    }
    // Wait until the last accepted transfer is sealed, then look up each batch's round.
    let lc = LedgerClient(baseURL: node.url)
    let batches = submittedBatches.withLock { $0 }
    if let last = batches.last { _ = try? await Wallet.wait(client: lc, for: last.1, until: .sealed, timeout: .seconds(60)) }
    for b in batches.suffix(clients) { _ = try? await Wallet.wait(client: lc, for: b.1, until: .sealed, timeout: .seconds(60)) }
    try? await Task.sleep(for: .milliseconds(50))
    stopWatching.store(true, ordering: .relaxed)
    try? await Task.sleep(for: .milliseconds(30))
    let submitWindow = secondsOf(ContinuousClock.now - runStart)
    let firstSeen = seen.withLock { $0 }
    var firstSeenAtOrAfter: [UInt64: ContinuousClock.Instant] = [:]
    do {
        // A round skipped by the poller counts as seen when a later one was.
        var best: ContinuousClock.Instant?
        for r in firstSeen.keys.sorted(by: >) {
            if let t = firstSeen[r] { best = best.map { min($0, t) } ?? t }
            firstSeenAtOrAfter[r] = best
        }
    }
    var lat: [Double] = []
    for (t0, hash, count) in batches {
        guard let v = try? await lc.transaction(hash), let round = v.round else { continue }
        let keys = firstSeenAtOrAfter.keys.filter { $0 >= round + confirmations }
        guard let r = keys.min(), let sealedAt = firstSeenAtOrAfter[r] else { continue }
        lat += Array(repeating: secondsOf(sealedAt - t0), count: count)
    }

    // Transfers included in blocks during the window; each of them is sealed (their waiters returned).
    _ = await watcher.value
    let (endRound, endAt) = windowEnd.withLock { $0 } ?? (node.ledger.latestBlock.round, ContinuousClock.now)
    let end = node.ledger.latestBlock.round
    var sealedCount = 0
    var next: UInt64? = endRound + 1
    while let before = next {
        let page = (try? node.ledger.blocks(before: before, limit: 1000)) ?? []
        for b in page where b.round > startRound && b.round + confirmations <= end { sealedCount += b.transactionCount }
        guard let last = page.last, last.round > startRound + 1 else { break }
        next = last.round
    }
    let total = secondsOf(endAt - runStart)
    lat.sort()
    func pct(_ lat: [Double], _ p: Double) -> Double { lat.isEmpty ? .nan : lat[min(lat.count - 1, Int(Double(lat.count) * p))] }
    let rate = Double(sealedCount) / total
    let supply = try node.ledger.supply()
    await node.stop()
    try? FileManager.default.removeItem(atPath: dir)

    return RunResult(
        submitted: submitted.load(ordering: .relaxed), rejected: rejected.load(ordering: .relaxed), sealed: sealedCount,
        window: total, allSealedAfter: submitWindow, rate: rate, p50: pct(lat, 0.5), p99: pct(lat, 0.99),
        conserved: supply.isConserved)
}

func report(_ r: RunResult, _ store: String) {
    print(
        String(
            format: "[%@] submitted %d transfers (%d rejected); %d included in the %.1f s window and sealed (all sealed after %.1f s)",
            store, r.submitted, r.rejected, r.sealed, r.window, r.allSealedAfter))
    print(String(format: "[%@] transfers sealed per second: %.0f", store, r.rate))
    print(
        String(
            format: "[%@] submit-to-sealed latency: p50 %.2f s, p99 %.2f s (bound (confirmations+2) x block time = %.1f s)", store,
            r.p50, r.p99, Double(confirmations + 2) * Double(blockTimeMs) / 1000))
    print(String(format: "[%@] sealed/verify ratio: %.0f%%", store, 100 * r.rate / verifyPerSecond))
    print("[\(store)] supply conserved: \(r.conserved)")
}

print(String(format: "single-core Ed25519 verify: %.0f/s", verifyPerSecond))
let sqlite = try await measure(.sqlite)
report(sqlite, "SQLite")
if let dbArgument {
    let url: String
    var server: PostgresServer?
    if dbArgument == "postgres" {
        log("starting a throwaway PostgreSQL…")
        let started = try PostgresServer()
        server = started
        url = try started.makeDatabase()
    } else {
        url = dbArgument
    }
    defer { server?.stop() }
    let pg = try await measure(.postgres(url: url))
    report(pg, "PostgreSQL")
    print(String(format: "PostgreSQL / SQLite sealed transfers/s: %.0f%% (target >= 50%%)", 100 * pg.rate / max(sqlite.rate, 1)))
}
