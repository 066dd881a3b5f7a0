import BenchSupport
import Foundation
import MosaicCrypto
import MosaicLedger
import MosaicProtocol
import MosaicTestSupport
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

// View reads across nodes on PostgreSQL (issue 14, benchmarks): a throwaway PostgreSQL server, a
// chain on it seeded with POSTS social posts (one per funded author), then 1, 2 and 3 `mosaic
// node` processes on that one database, each serving HTTP on its own port, read by CLIENTS
// keep-alive client threads spread over the nodes' ports for SECONDS (after a 1 s warm-up).
// Prints per node count: view reads/s, p50/p99 latency, errors, the ratio to one node, and where
// the CPU went (nodes, PostgreSQL, this load generator, everything else on the box), with the
// core count and the load average.
//
// The read is `GET /v1/contracts/social/views/post?author=…&permlink=…&truncate_body=…`: a
// view that runs a read transaction on the node's PostgreSQL reader connection (the block of
// the round, the post, the author's profile, its reward). The node caches view answers per
// (arguments, round) and this chain's sealed round never moves, so a repeated query would be
// answered from memory without touching PostgreSQL; every read here therefore asks a
// (post, truncate_body) pair no read asked before (truncate_body ≥ 10,000 bytes, above every
// body, so the answer is the whole post either way). `--cached` repeats the same POSTS queries
// instead, to show the cached path (nearly no database work) for comparison.
//
// Nodes are separate processes, not ledgers in this one: each has its own runtime, HTTP threads
// and reader connections, as a deployment would, so adding a node adds what a node adds.
// Build both in release first: swift build -c release --product mosaic; swift build -c release --product bench-reads
// Run: .build/release/bench-reads [seconds] [clients] [posts] [--cached]   (default 10 s, 12 clients, 2,000 posts)

let numbers = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let seconds = max(1, numbers.count > 0 ? numbers[0] : 10)
let clients = max(1, numbers.count > 1 ? numbers[1] : 12)
let postCount = max(1, numbers.count > 2 ? numbers[2] : 2_000)
let cached = CommandLine.arguments.contains("--cached")
let maxNodes = 3

func log(_ s: String) { FileHandle.standardError.write(Data((s + "\n").utf8)) }
func secondsOf(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }
func loadAverage() -> String {
    (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
}

// MARK: the mosaic binary

/// The release `mosaic` next to this benchmark (or MOSAIC_BINARY): the node processes run it.
let binary: String = {
    if let given = ProcessInfo.processInfo.environment["MOSAIC_BINARY"] { return given }
    let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    return (me as NSString).deletingLastPathComponent + "/mosaic"
}()
guard FileManager.default.isExecutableFile(atPath: binary) else {
    log("no mosaic binary at \(binary): build it first (swift build -c release --product mosaic) or set MOSAIC_BINARY")
    exit(1)
}

// MARK: CPU accounting from /proc

let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

/// User + system CPU seconds of process `pid` so far, and its parent's pid; nil once it is gone.
func processCPU(_ pid: Int32) -> (seconds: Double, parent: Int32)? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = text.lastIndex(of: ")") else {
        return nil
    }
    // After "pid (comm)": state ppid … utime stime are fields 3, 4, …, 14, 15 of the whole line.
    let fields = text[text.index(after: close)...].split(separator: " ")
    guard fields.count > 13, let parent = Int32(fields[1]), let user = Double(fields[11]), let system = Double(fields[12]) else {
        return nil
    }
    return ((user + system) / ticksPerSecond, parent)
}

/// CPU seconds of the PostgreSQL server: its postmaster and every process it started.
func postgresCPU(_ postmaster: Int32) -> Double {
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return 0 }
    var total = 0.0
    for entry in entries {
        guard let pid = Int32(entry), let p = processCPU(pid), pid == postmaster || p.parent == postmaster else { continue }
        total += p.seconds
    }
    return total
}

/// Busy and total CPU seconds of the whole machine (all cores) so far.
func machineCPU() -> (busy: Double, total: Double) {
    guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8), let line = text.split(separator: "\n").first else {
        return (0, 0)
    }
    let ticks = line.split(separator: " ").dropFirst().compactMap { Double($0) }
    guard ticks.count >= 5 else { return (0, 0) }
    // user nice system idle iowait irq softirq steal: idle and iowait are not busy.
    let total = ticks.prefix(8).reduce(0, +)
    return ((total - ticks[3] - ticks[4]) / ticksPerSecond, total / ticksPerSecond)
}

// MARK: PostgreSQL and the seeded chain

let load = loadAverage()
let cores = ProcessInfo.processInfo.activeProcessorCount
log("load average at start: \(load); \(cores) cores")
log("starting a throwaway PostgreSQL…")
let server = try PostgresServer()
let postmaster: Int32 = {
    let pidFile = (try? String(contentsOfFile: server.directory + "/data/postmaster.pid", encoding: .utf8)) ?? ""
    return pidFile.split(separator: "\n").first.flatMap { Int32($0) } ?? -1
}()
let databaseURL = try server.makeDatabase()
let root = NSTemporaryDirectory() + "mosaic-bench-reads-" + Hex.encode(Random.bytes(6))
let dirs = (0..<maxNodes).map { root + "/node\($0)" }
/// Stops what this run started; every exit path after the server started comes through here.
func cleanUp() {
    server.stop()
    try? FileManager.default.removeItem(atPath: root)
}
func fail(_ message: String) -> Never {
    log(message)
    cleanUp()
    exit(1)
}

let authors = (0..<postCount).map { _ in Ed25519.SigningKey.generate() }
let authorIDs = authors.map(\.publicKey.clientID)
/// Fixed width, so `"r-000012"` never matches inside another permlink.
let permlinks = (0..<postCount).map { String(format: "r-%06d", $0) }
let bodies = (0..<postCount).map { "Post \($0) of the read benchmark: " + String(repeating: "a body of a plausible length. ", count: 10) }
var genesis = Genesis(
    chainID: "mosaic-bench-reads", allocations: Dictionary(uniqueKeysWithValues: authorIDs.map { ($0, 10 * TokenAmount.unitsPerToken) }))
genesis.blockTimeMillis = 1000
genesis.maxBlockTransactions = max(10_000, postCount)
genesis.poolCapacity = max(100_000, 2 * postCount)
do {
    for d in dirs {
        try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        genesis.producers.append(try Ledger.nodeKey(directory: d).publicKey.hex)
    }
    try genesis.write(to: root + "/genesis.json")
} catch {
    fail("cannot prepare the node folders: \(error)")
}

log("seeding \(postCount) posts by \(postCount) funded authors on PostgreSQL…")
do {
    let ledger = try Ledger(
        directory: dirs[0], database: .postgres(url: databaseURL), genesis: genesis,
        limits: LedgerLimits(poolBytes: 1 << 30, senderPendingCount: 1 << 20, senderPendingBytes: 1 << 30), log: { _ in })
    let social = ContractCall.address(of: "social")
    let now = Int64(Date().timeIntervalSince1970)
    let posts = (0..<postCount).map { i in
        let call = ContractCall(
            contract: "social", method: "comment",
            args: [
                "permlink": .string(permlinks[i]), "parent_author": .string(""), "parent_permlink": .string("general"),
                "title": .string("Read benchmark post \(i)"), "body": .string(bodies[i]),
            ])
        return Transaction.signed(
            by: authors[i], chainID: genesis.chainID, to: social, value: 0, fee: genesis.minimumFee, nonce: 1,
            type: .contractCall, data: call.json, creationDate: now)
    }
    let refused = ledger.submit(posts).compactMap { $0 }
    if let first = refused.first { fail("\(refused.count) posts refused, first: \(first)") }
    let block = try ledger.produceBlock()
    let failed = try ledger.transactions(inRound: block.round, limit: 5000).filter { $0.receipt?.outcome == .failure }
    if let first = failed.first { fail("\(failed.count) posts failed, first: \(first.receipt?.error?.message ?? "?")") }
    // Deep enough that the posts are in the sealed round the views read.
    for _ in 0..<Int(genesis.confirmations) { try ledger.produceBlock() }
    ledger.close()
} catch {
    fail("seeding failed: \(error)")
}

// MARK: node processes

/// A `mosaic node` process on the shared database and the port it serves.
struct NodeProcess {
    let process: MosaicProcess
    let port: UInt16
}

func startNode(_ i: Int) async -> NodeProcess {
    let arguments = [
        "node", "--dir", dirs[i], "--db", databaseURL, "--genesis", root + "/genesis.json", "--port", "0", "--quiet", "--json",
    ]
    guard let process = try? MosaicProcess(arguments, executable: URL(fileURLWithPath: binary)) else { fail("cannot start node \(i)") }
    guard let url = await process.firstJSON(timeout: 60)?["node"] as? String, let port = URL(string: url)?.port.flatMap(UInt16.init)
    else {
        fail("node \(i) printed no URL within 60 s")
    }
    return NodeProcess(process: process, port: port)
}

func stop(_ node: NodeProcess) {
    node.process.signal(SIGTERM)
    if node.process.waitForExitBlocking(timeout: 15) == nil { node.process.signal(SIGKILL) }
}

// MARK: reads

/// The path of read `k`: post k mod POSTS; uncached, a truncate_body no earlier read used.
@Sendable func path(_ k: Int) -> String {
    let i = k % postCount
    let base = "/v1/contracts/social/views/post?author=\(authorIDs[i])&permlink=\(permlinks[i])"
    return cached ? base : base + "&truncate_body=\(10_000 + k / postCount)"
}

/// Whether `body` is the post `k` asked for: both its author and its permlink are in the answer.
@Sendable func isPost(_ body: [UInt8], _ k: Int) -> Bool {
    let i = k % postCount
    return contains(body, Array("\"author\":\"\(authorIDs[i])\"".utf8)) && contains(body, Array("\"permlink\":\"\(permlinks[i])\"".utf8))
}

/// A plain byte search: the client threads share the cores with the nodes, so no JSON decoding.
@Sendable func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard let first = needle.first, haystack.count >= needle.count else { return needle.isEmpty }
    return haystack.withUnsafeBufferPointer { h in
        needle.withUnsafeBufferPointer { n in
            guard let hb = h.baseAddress, let nb = n.baseAddress else { return false }
            for i in 0...(h.count - n.count) where h[i] == first && memcmp(hb + i, nb, n.count) == 0 { return true }
            return false
        }
    }
}

/// Numbers every read, across runs, so no two reads ask the same uncached query.
let nextRead = Atomic<Int>(0)
/// Every client thread's tally of the current run, appended as each thread ends.
let tallies = Mutex<[Tally]>([])

/// One client thread's tally inside the measured window.
struct Tally {
    var latencies: [Double] = []
    var errors = 0
    var firstErrors: [String] = []
}

/// What one node count measured.
struct Run {
    let nodes: Int
    let reads: Double
    let p50: Double
    let p99: Double
    let errors: Int
    let firstErrors: [String]
    /// CPU cores busy on average during the window: all nodes, PostgreSQL, this process, the machine.
    let nodeCores: Double
    let postgresCores: Double
    let clientCores: Double
    let machineCores: Double
    let load: String
}

/// CLIENTS threads, client c on `ports[c % ports.count]`, reading for 1 s of warm-up, then SECONDS.
func measure(_ nodes: [NodeProcess]) -> Run {
    let ports = nodes.map(\.port)
    let measureStart = ContinuousClock.now + .seconds(1)
    let deadline = measureStart + .seconds(seconds)
    tallies.withLock { $0 = [] }
    let group = DispatchGroup()
    for c in 0..<clients {
        group.enter()
        let thread = Thread {
            defer { group.leave() }
            var tally = Tally()
            defer { tallies.withLock { $0.append(tally) } }
            guard let http = try? RawHTTPClient(port: ports[c % ports.count]) else {
                tally.errors += 1
                tally.firstErrors.append("client \(c): cannot connect to port \(ports[c % ports.count])")
                return
            }
            while true {
                let k = cached ? Int.random(in: 0..<postCount) : nextRead.add(1, ordering: .relaxed).oldValue
                let t0 = ContinuousClock.now
                guard t0 < deadline else { break }
                let answer = try? http.get(path(k))
                let t1 = ContinuousClock.now
                guard t0 >= measureStart, t1 <= deadline else { continue }
                if let answer, answer.status == 200, isPost(answer.body, k) {
                    tally.latencies.append(secondsOf(t1 - t0))
                    continue
                }
                tally.errors += 1
                if tally.firstErrors.count < 3 {
                    tally.firstErrors.append(
                        answer.map { "\($0.status): \(String(decoding: $0.body.prefix(200), as: UTF8.self))" }
                            ?? "no answer (connection lost)")
                }
                // A lost connection stays lost: this client stops rather than spin on errors.
                if answer == nil { break }
            }
        }
        thread.start()
    }
    let pids = nodes.map(\.process.process.pid)
    func sample() -> (nodes: Double, postgres: Double, me: Double, machine: Double, wall: ContinuousClock.Instant) {
        let nodeSeconds = pids.compactMap { processCPU($0)?.seconds }.reduce(0, +)
        return (nodeSeconds, postgresCPU(postmaster), processCPU(getpid())?.seconds ?? 0, machineCPU().busy, ContinuousClock.now)
    }
    usleep(UInt32(max(0, secondsOf(measureStart - ContinuousClock.now)) * 1e6))
    let before = sample()
    usleep(UInt32(max(0, secondsOf(deadline - ContinuousClock.now)) * 1e6))
    let after = sample()
    let loadNow = loadAverage()
    group.wait()
    let all = tallies.withLock { $0 }
    let latencies = all.flatMap(\.latencies).sorted()
    func percentile(_ p: Double) -> Double {
        latencies.isEmpty ? .nan : latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))]
    }
    let wall = max(secondsOf(after.wall - before.wall), 0.001)
    return Run(
        nodes: nodes.count, reads: Double(latencies.count) / Double(seconds), p50: percentile(0.5), p99: percentile(0.99),
        errors: all.map(\.errors).reduce(0, +), firstErrors: Array(all.flatMap(\.firstErrors).prefix(5)),
        nodeCores: (after.nodes - before.nodes) / wall, postgresCores: (after.postgres - before.postgres) / wall,
        clientCores: (after.me - before.me) / wall, machineCores: (after.machine - before.machine) / wall, load: loadNow)
}

// Sanity first: one node answers the first post whole, in the JSON form `isPost` looks for.
var running = [await startNode(0)]
do {
    guard let http = try? RawHTTPClient(port: running[0].port), let r = try? http.get(path(0)) else { fail("node 0 does not answer") }
    struct Answer: Decodable {
        struct Post: Decodable {
            let author: String
            let permlink: String
            let body: String
        }
        let result: Post
    }
    guard r.status == 200, let post = try? JSONDecoder().decode(Answer.self, from: Data(r.body)).result, post.author == authorIDs[0],
        post.permlink == permlinks[0], post.body == bodies[0], isPost(r.body, 0)
    else {
        fail("the post view answered \(r.status): \(String(decoding: r.body.prefix(300), as: UTF8.self))")
    }
}

var runs: [Run] = []
for n in 1...maxNodes {
    while running.count < n { running.append(await startNode(running.count)) }
    log("\(n) node(s) on ports \(running.map { String($0.port) }.joined(separator: ", ")): \(clients) clients for \(seconds) s…")
    let run = measure(running)
    for e in run.firstErrors { log("  error: \(e)") }
    runs.append(run)
}
for node in running { stop(node) }
cleanUp()

print(
    "view reads on PostgreSQL (social.post, \(cached ? "repeated queries, answered from the node's view cache" : "every query new, so every read runs the view on PostgreSQL"), \(postCount) posts, \(clients) keep-alive clients spread over the nodes, \(seconds) s per row)"
)
print("cores: \(cores); load average at start: \(load)")
print("nodes  reads/s   p50 ms  p99 ms  errors  vs 1 node  | CPU cores busy: nodes  PostgreSQL  load generator  machine  (load after)")
let base = max(runs.first?.reads ?? 1, 1)
for r in runs {
    print(
        String(
            format: "%5d  %7.0f  %7.2f  %6.2f  %6d  %8.2fx  |                 %5.2f  %10.2f  %14.2f  %7.2f  (%@)",
            r.nodes, r.reads, r.p50 * 1000, r.p99 * 1000, r.errors, r.reads / base, r.nodeCores, r.postgresCores, r.clientCores,
            r.machineCores, r.load))
}
