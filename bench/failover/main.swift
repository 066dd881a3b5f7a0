import Foundation
import MosaicCrypto
import MosaicLedger
import MosaicProtocol
import MosaicTestSupport

// Producer takeover on PostgreSQL (issue 14, benchmarks): three ledgers in this process on one
// database of a throwaway server started here. Each round closes the producer (its session ends,
// which is what SIGKILL of its process does to the database), submits one transfer to a
// surviving ledger at once, and times until that transfer is finalized in a block another ledger
// made: the time from losing the producer to the next block, against the block time (target:
// at most 2 block times). The closed ledger then reopens as a follower.
// Run in release: swift run -c release bench-failover [rounds] [block-time-ms …]  (default: 5 rounds at 200 and 1000 ms)

let numbers = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let rounds = max(1, numbers.first ?? 5)
let blockTimes = numbers.count > 1 ? Array(numbers.dropFirst()) : [200, 1000]

func log(_ s: String) { FileHandle.standardError.write(Data((s + "\n").utf8)) }
func milliseconds(_ d: Duration) -> Double { Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15 }

log("starting a PostgreSQL server for the benchmark…")
let server = try PostgresServer()
defer { server.stop() }
let sender = Ed25519.SigningKey.generate()
let sink = Ed25519.SigningKey.generate().publicKey.clientID
var lines: [String] = []

for ms in blockTimes {
    let database = LedgerDatabase.postgres(url: try server.makeDatabase())
    let root = NSTemporaryDirectory() + "mosaic-bench-failover-" + Hex.encode(Random.bytes(6))
    defer { try? FileManager.default.removeItem(atPath: root) }
    let dirs = (0..<3).map { root + "/node\($0)" }
    var genesis = Genesis(chainID: "mosaic-bench-failover", allocations: [sender.publicKey.clientID: 1_000_000 * token])
    genesis.confirmations = 1
    genesis.blockTimeMillis = Int64(ms)
    for d in dirs {
        try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        genesis.producers.append(try Ledger.nodeKey(directory: d).publicKey.hex)
    }
    let g = genesis
    func open(_ i: Int) throws -> Ledger {
        let l = try Ledger(directory: dirs[i], database: database, genesis: g, log: { _ in })
        l.start(blockTime: .milliseconds(ms))
        return l
    }
    var ledgers: [Ledger?] = []
    for i in 0..<3 { ledgers.append(try open(i)) }
    var nonce: UInt64 = 0
    var samples: [Double] = []
    for round in 0..<rounds {
        // The producer of the moment (a reopened ledger may have taken the lease back).
        var producer: Int?
        let deadline = ContinuousClock.now + .seconds(60)
        while producer == nil, ContinuousClock.now < deadline {
            producer = ledgers.indices.first { ledgers[$0]?.isProducer == true }
            if producer == nil { try await Task.sleep(for: .milliseconds(5)) }
        }
        guard let p = producer, let survivor = ledgers.indices.first(where: { $0 != p }).flatMap({ ledgers[$0] }) else {
            log("round \(round): no producer within 60 s")
            break
        }
        ledgers[p]?.close()
        ledgers[p] = nil
        let start = ContinuousClock.now
        nonce += 1
        let tx = Transaction.signed(
            by: sender, chainID: g.chainID, to: sink, value: 1, fee: g.minimumFee, nonce: nonce,
            creationDate: Int64(Date().timeIntervalSince1970))
        try survivor.submit(tx)
        let status = await survivor.wait(for: tx.hash, until: .finalized, timeout: .seconds(60))
        let took = milliseconds(ContinuousClock.now - start)
        guard status == .finalized || status == .sealed else {
            log("round \(round): the transfer after the kill ended \(status.map { "\($0)" } ?? "unknown")")
            break
        }
        samples.append(took)
        log(String(format: "block %d ms, round %d: next block %.0f ms after the producer was lost", ms, round + 1, took))
        ledgers[p] = try open(p)
    }
    for l in ledgers { l?.close() }
    guard !samples.isEmpty else { continue }
    let sorted = samples.sorted()
    let median = sorted[sorted.count / 2]
    let worst = sorted[sorted.count - 1]
    lines.append(
        String(
            format: "takeover at %5d ms blocks: median %6.0f ms (%.2f block times), worst %6.0f ms (%.2f); target ≤ 2 block times",
            ms, median, median / Double(ms), worst, worst / Double(ms)))
}
print("producer takeover on PostgreSQL, 3 ledgers, \(rounds) rounds each (\(ProcessInfo.processInfo.activeProcessorCount) cores)")
for line in lines { print(line) }
