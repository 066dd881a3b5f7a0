import Foundation
import MosaicBlobber
import MosaicCrypto
import MosaicHTTP
import MosaicHTTPServer
import MosaicSDK
import MosaicStorageCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

// Storage throughput on loopback (run in release):
//   swift run -c release bench-storage [MiB] [d+p ...] [--tls] [--tmpfs] [--testnet] [--testnet-plain] [--repeat N]
//                                       [--memory-check MiB]
//   swift run -c release bench-storage --small-files N
//   swift run -c release bench-storage --folder N
// Starts d + p blobbers in this process, uploads a random file of MiB mebibytes through the SDK,
// downloads it, checks it, and prints MB/s, the CPU time the run used (client and blobbers) and the
// process's peak memory (VmHWM). Then, with --testnet (root; build `mosaic` in release first), the
// same transfers across network namespaces over TLS on scripts/testnet (TestnetRun.swift), and with
// --testnet-plain on a testnet without TLS too (what TLS alone costs there); --repeat N runs N
// rounds, each every path back to back, and compares them round by round (the box is shared:
// single runs swing with the other jobs). Then the
// bounds of the pipeline's parts measured in the same run, the client's own peak memory for an
// upload run in a child process (--memory-check), Tahoe-LAFS 2-of-4 on loopback for comparison,
// and the ratios against the targets.

/// Every line goes out at once, also into a file or a pipe (Swift's `print` buffers those), so a long
/// run shows how far it got and a profiler started on a line's cue starts in time.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    FileHandle.standardOutput.write(Data((items.map { "\($0)" }.joined(separator: separator) + terminator).utf8))
}

func status(_ field: String, pid: String = "self") -> String {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return "?" }
    return text.split(separator: "\n").first { $0.hasPrefix(field + ":") }
        .map { String($0.dropFirst(field.count + 1)).trimmingCharacters(in: .whitespaces) } ?? "?"
}

/// User + system CPU seconds of this process so far (all threads: client and in-process blobbers).
func cpuSeconds() -> Double {
    var u = rusage()
    getrusage(RUSAGE_SELF.rawValue, &u)
    return Double(u.ru_utime.tv_sec) + Double(u.ru_utime.tv_usec) / 1e6 + Double(u.ru_stime.tv_sec) + Double(u.ru_stime.tv_usec) / 1e6
}

func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }

func loadAverage() -> String {
    (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
}

/// The child side of --memory-check: uploads one file with a fresh client and reports its own
/// peak RSS, so the figure is the client's alone (the blobbers stay in the parent).
struct ChildSpec: Codable {
    var seed: String
    var allocation: StorageAllocation
    var file: String
    var home: String
    var chunksPerBatch: Int?
}

if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "--client-upload" {
    do {
        let spec = try JSONDecoder().decode(ChildSpec.self, from: Data(contentsOf: URL(fileURLWithPath: CommandLine.arguments[2])))
        let key = try Ed25519.SigningKey(seed: SecretBytes(Hex.decode(spec.seed) ?? []))
        var config = StorageClient.Configuration()
        if let b = spec.chunksPerBatch { config.chunksPerBatch = b }
        let client = StorageClient(signingKey: key, home: URL(fileURLWithPath: spec.home), configuration: config)
        let clock = ContinuousClock()
        let t = clock.now
        try await client.upload(localFile: URL(fileURLWithPath: spec.file), remotePath: "/memory-check.bin", allocation: spec.allocation)
        print("seconds \(seconds(clock.now - t))")
        print("VmHWM \(status("VmHWM"))")
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("client upload failed: \(error)\n".utf8))
        exit(1)
    }
}

// MOSAIC_BENCH_BATCH overrides the client's chunks per batch (one PUT per blobber per batch).
let batch = ProcessInfo.processInfo.environment["MOSAIC_BENCH_BATCH"].flatMap { Int($0) }

// The child side of --testnet: `--testnet-client ALLOC INPUT OUTPUT PIDS ROUND`, started inside
// the testnet's client namespace; uploads INPUT as /bench-ROUND.bin, downloads it and prints the
// timings as one JSON line.
if CommandLine.arguments.count == 7, CommandLine.arguments[1] == "--testnet-client" {
    let a = CommandLine.arguments
    do {
        let pids = a[5].split(separator: ",").compactMap { Int32($0) }
        let t = try await testnetClient(
            allocationID: a[2], input: a[3], output: a[4], remotePath: "/bench-\(a[6]).bin", serverPIDs: pids, batch: batch)
        print(String(decoding: try JSONEncoder().encode(t), as: UTF8.self))
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("testnet client failed: \(error)\n".utf8))
        exit(1)
    }
}
var args = Array(CommandLine.arguments.dropFirst())
var memoryCheckMiB: Int?
// --tls: every layout runs twice in this run, over plain HTTP and over HTTPS (a CA and a
// certificate for 127.0.0.1 made with the openssl CLI in the temp folder), to show what TLS costs.
let tlsToo = args.contains("--tls")
args.removeAll { $0 == "--tls" }
// --testnet: every layout also runs across network namespaces over TLS on scripts/testnet;
// --testnet-plain: and on a testnet whose servers speak plain HTTP.
// --tmpfs: every layout also runs on loopback with the blobbers' folders and the download on
// /dev/shm, where an fsync costs nothing: the transfers as Tahoe-LAFS runs them (it never fsyncs
// its shares or a downloaded file), without the one disk that every blobber here shares.
let tmpfsToo = args.contains("--tmpfs")
args.removeAll { $0 == "--tmpfs" }
let testnetToo = args.contains("--testnet")
let testnetPlainToo = args.contains("--testnet-plain")
args.removeAll { $0 == "--testnet" || $0 == "--testnet-plain" }
let usage = "usage: bench-storage [MiB] [d+p ...] [--tls] [--tmpfs] [--testnet] [--testnet-plain] [--repeat N] [--memory-check MiB]"
if let i = args.firstIndex(of: "--memory-check") {
    guard i + 1 < args.count, let m = Int(args[i + 1]), m > 0 else {
        print(usage)
        exit(2)
    }
    memoryCheckMiB = m
    args.removeSubrange(i...(i + 1))
}
var repeats = 1
if let i = args.firstIndex(of: "--repeat") {
    guard i + 1 < args.count, let n = Int(args[i + 1]), (1...20).contains(n) else {
        print(usage)
        exit(2)
    }
    repeats = n
    args.removeSubrange(i...(i + 1))
}
let mib = Int(args.first ?? "") ?? 256
let parsed: [(Int, Int)] = args.dropFirst().compactMap { spec in
    let parts = spec.split(separator: "+").compactMap { Int($0) }
    return parts.count == 2 ? (parts[0], parts[1]) : nil
}
let layouts = parsed.isEmpty ? [(2, 2), (4, 2)] : parsed
let root = NSTemporaryDirectory() + "mosaic-bench-" + Hex.encode(Random.bytes(4))
try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: root) }
let shmRoot = "/dev/shm/mosaic-bench-" + Hex.encode(Random.bytes(4))
if tmpfsToo { try FileManager.default.createDirectory(atPath: shmRoot, withIntermediateDirectories: true) }
defer { if tmpfsToo { try? FileManager.default.removeItem(atPath: shmRoot) } }

/// A random input file, written in 4 MiB pieces.
func makeInput(_ path: String, mib: Int) throws -> URL {
    let url = URL(fileURLWithPath: path)
    guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
        throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
    }
    let handle = try FileHandle(forWritingTo: url)
    for _ in 0..<(mib / 4) { try handle.write(contentsOf: Random.bytes(4 << 20)) }
    if mib % 4 != 0 { try handle.write(contentsOf: Random.bytes((mib % 4) << 20)) }
    try handle.close()
    return url
}

/// d + p blobbers in this process and an owner-signed allocation over them, assigned.
func startGrid(d: Int, p: Int, name: String, tls: TLSCredentials? = nil, under folder: String = root) async throws -> (
    servers: [BlobberServer], owner: Ed25519.SigningKey, allocation: StorageAllocation
) {
    var servers: [BlobberServer] = []
    for i in 0..<(d + p) {
        var c = BlobberServer.Configuration(directory: folder + "/\(name)-blobber\(i)")
        c.tls = tls
        let s = try BlobberServer(configuration: c)
        try s.start()
        servers.append(s)
    }
    let owner = Ed25519.SigningKey.generate()
    var assignment = AllocationAssignment(
        allocationID: Hex.encode(Random.bytes(32)), ownerPublicKey: owner.publicKey,
        dataShards: d, parityShards: p, size: 1 << 40,
        expiration: Int64(Date().timeIntervalSince1970) + 3600, blobbers: servers.map(\.blobberID))
    assignment.sign(with: owner)
    let allocation = try StorageAllocation(assignment: assignment, urls: servers.map(\.baseURL))
    let client = StorageClient(signingKey: owner, home: URL(fileURLWithPath: root + "/home"))
    _ = await client.assign(assignment, to: allocation)
    return (servers, owner, allocation)
}

// --small-files N: N files of 4 KiB uploaded one after another into one 2+2 allocation, to show
// how the cost of a write grows with the files already there (each commit signs a root over
// all of the allocation's entries).
if let i = args.firstIndex(of: "--small-files"), i + 1 < args.count, let n = Int(args[i + 1]), n >= 200 {
    print("load average at start: \(loadAverage()) (2 cores; other jobs share them)")
    let grid = try await startGrid(d: 2, p: 2, name: "small")
    let client = StorageClient(signingKey: grid.owner, home: URL(fileURLWithPath: root + "/home"))
    let file = URL(fileURLWithPath: root + "/small.bin")
    try Data(Random.bytes(4096)).write(to: file)
    let clock = ContinuousClock()
    let start = clock.now
    var t = start
    // CPU time (client and blobbers, all threads) per file too: the wall-clock rate also moves
    // with the other jobs on the box, the CPU a write costs much less.
    var cpu = cpuSeconds()
    for k in 0..<n {
        if k == n - 100 { (t, cpu) = (clock.now, cpuSeconds()) }
        try await client.upload(localFile: file, remotePath: "/many/f\(k)", allocation: grid.allocation)
        if k == 99 {
            print(
                String(
                    format: "files 1–100: %.1f uploads/s, %.1f ms CPU per file", 100 / seconds(clock.now - start),
                    (cpuSeconds() - cpu) * 10))
        }
    }
    print(
        String(
            format: "files %d–%d: %.1f uploads/s, %.1f ms CPU per file", n - 99, n, 100 / seconds(clock.now - t),
            (cpuSeconds() - cpu) * 10))
    t = clock.now
    let listed = try await client.list("/many", allocation: grid.allocation)
    print(String(format: "listing %d files: %.0f ms", listed.count, seconds(clock.now - t) * 1000))
    for s in grid.servers { await s.stop() }
    try? FileManager.default.removeItem(atPath: root)
    exit(0)
}

// --folder N: one folder upload (`uploadFolder`, what `mosaic upload -r` runs) of N files of 4 KiB in
// folders of 100, into one 2+2 allocation; prints the rate over the first and the last tenth of the
// files (100 to 1,000 files: a window spans several batches of small files).
if let i = args.firstIndex(of: "--folder"), i + 1 < args.count, let n = Int(args[i + 1]), n >= 200 {
    print("load average at start: \(loadAverage()) (2 cores; other jobs share them)")
    let grid = try await startGrid(d: 2, p: 2, name: "folder")
    let client = StorageClient(signingKey: grid.owner, home: URL(fileURLWithPath: root + "/home"))
    let tree = root + "/tree"
    // --per-folder K: files per folder (default 100); `ls` of the first folder is timed at the end.
    let perFolder =
        args.firstIndex(of: "--per-folder").flatMap { j in j + 1 < args.count ? Int(args[j + 1]) : nil }.map { max(1, $0) } ?? 100
    for k in 0..<n {
        let dir = tree + "/d\(k / perFolder)"
        if k % perFolder == 0 { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
        try Data(Random.bytes(4096)).write(to: URL(fileURLWithPath: dir + "/f\(k)"))
    }
    let clock = ContinuousClock()
    let start = clock.now
    // When each file count was first reached (the progress callback runs once per finished file).
    // And the process's CPU seconds then (client and blobbers), less sensitive to other jobs.
    let cpuStart = cpuSeconds()
    let reached = Mutex([Int: (at: ContinuousClock.Instant, cpu: Double)]())
    let r = try await client.uploadFolder(URL(fileURLWithPath: tree), to: "/tree", allocation: grid.allocation) { p in
        let now = clock.now
        reached.withLock { if $0[p.filesDone] == nil { $0[p.filesDone] = (now, cpuSeconds()) } }
    }
    let total = seconds(clock.now - start)
    let times = reached.withLock { $0 }
    // Small files finish a batch (up to 128) at a time, so the windows span several batches.
    let w = max(100, min(1000, n / 10))
    if let tFirst = times[w], let tLast = times[n - w], let tEnd = times[n] {
        let first = Double(w) / seconds(tFirst.at - start)
        let last = Double(w) / seconds(tEnd.at - tLast.at)
        print(
            String(
                format: "files 1–%d: %.1f files/s, %.2f ms CPU per file", w, first, (tFirst.cpu - cpuStart) * 1000 / Double(w)))
        print(
            String(
                format: "files %d–%d: %.1f files/s, %.2f ms CPU per file (last ÷ first: %.2f)", n - w + 1, n, last,
                (tEnd.cpu - tLast.cpu) * 1000 / Double(w), last / first))
    }
    print(
        String(
            format: "%d files in %.1f s: %.1f files/s overall, %d commits; %d failed", r.uploaded.count, total,
            Double(r.uploaded.count) / total, r.writes, r.failed.count))
    // A new client, as a new `mosaic ls` process is: no listing cached.
    let reader = StorageClient(signingKey: grid.owner, home: URL(fileURLWithPath: root + "/home2"))
    // CPU: this process's (the client's and the in-process blobbers'), which the box's load
    // moves far less than the wall clock.
    for attempt in 1...3 {
        let t = clock.now
        let cpu = cpuSeconds()
        let listed = try await reader.list("/tree/d0", allocation: grid.allocation)
        print(
            String(
                format: "ls of a folder of %d files (run %d): %.0f ms, %.0f ms CPU", listed.count, attempt, seconds(clock.now - t) * 1000,
                (cpuSeconds() - cpu) * 1000))
    }
    for s in grid.servers { await s.stop() }
    try? FileManager.default.removeItem(atPath: root)
    exit(0)
}

print("load average at start: \(loadAverage()) (2 cores; other jobs share them)")
let input = try makeInput(root + "/input", mib: mib)
let bytes = Double(mib << 20)
/// One transfer each way: MB/s and the CPU seconds it cost (client and servers, wherever they ran).
struct Run {
    var up: Double
    var down: Double
    var upCPU: Double
    var downCPU: Double
}
/// Every run per layout ("2+2") and path, in rounds: round k of each path ran back to back.
var measured: [String: [Run]] = [:]
var tlsMeasured: [String: [Run]] = [:]
var tmpfsMeasured: [String: [Run]] = [:]
var testnetMeasured: [String: [Run]] = [:]
var testnetPlainMeasured: [String: [Run]] = [:]

func median(_ xs: [Double]) -> Double? {
    let s = xs.sorted()
    guard !s.isEmpty else { return nil }
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

/// A throw-away CA and a server certificate for 127.0.0.1, trusted by this process's clients.
func makeTLS() throws -> TLSCredentials {
    let dir = root + "/tls"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    try Data("subjectAltName=IP:127.0.0.1\n".utf8).write(to: URL(fileURLWithPath: dir + "/ext.cnf"))
    for a in [
        ["req", "-x509"] + ec + ["-keyout", dir + "/ca.key", "-out", dir + "/ca.pem", "-days", "1", "-subj", "/CN=bench CA"],
        ["req"] + ec + ["-keyout", dir + "/server.key", "-out", dir + "/server.csr", "-subj", "/CN=127.0.0.1"],
        [
            "x509", "-req", "-in", dir + "/server.csr", "-CA", dir + "/ca.pem", "-CAkey", dir + "/ca.key", "-CAcreateserial",
            "-out", dir + "/server.pem", "-days", "1", "-extfile", dir + "/ext.cnf",
        ],
    ] {
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = a
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        guard openssl.terminationStatus == 0 else { throw CocoaError(.featureUnsupported) }
    }
    try TLSTrust.addAuthority(file: dir + "/ca.pem")
    return try TLSCredentials(certificateFile: dir + "/server.pem", keyFile: dir + "/server.key")
}

let tlsCredentials: TLSCredentials? = tlsToo ? try makeTLS() : nil

/// One upload and download of the input through in-process blobbers on loopback (HTTPS with `tls`).
func loopbackRun(d: Int, p: Int, tls: TLSCredentials?, tmpfs: Bool = false) async throws -> Run {
    let grid = try await startGrid(
        d: d, p: p, name: "\(d)+\(p)" + (tls == nil ? "" : "-tls"), tls: tls, under: tmpfs ? shmRoot : root)
    var config = StorageClient.Configuration()
    if let batch { config.chunksPerBatch = batch }
    // A fresh home per run: nothing cached from the last one.
    let home = root + "/home-" + Hex.encode(Random.bytes(4))
    let client = StorageClient(signingKey: grid.owner, home: URL(fileURLWithPath: home), configuration: config)
    defer { try? FileManager.default.removeItem(atPath: home) }

    let clock = ContinuousClock()
    var t = clock.now
    var cpu = cpuSeconds()
    var phases = [monotonicSeconds()]
    try await client.upload(localFile: input, remotePath: "/bench.bin", allocation: grid.allocation)
    let up = seconds(clock.now - t)
    let upCPU = cpuSeconds() - cpu
    // On tmpfs the download lands there too: its fsync before the rename would otherwise wait on the disk.
    let output = URL(fileURLWithPath: (tmpfs ? shmRoot : root) + "/output")
    phases.append(monotonicSeconds())
    t = clock.now
    cpu = cpuSeconds()
    let fetched = try await client.download(remotePath: "/bench.bin", to: output, allocation: grid.allocation)
    let down = seconds(clock.now - t)
    // Blobbers given up on the way (slow or failing): the download then rebuilt chunks from parity.
    if !fetched.badBlobbers.isEmpty {
        print(
            "  download dropped blobbers: "
                + fetched.badBlobbers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "; "))
    }
    let downCPU = cpuSeconds() - cpu
    phases.append(monotonicSeconds())
    let same = FileManager.default.contentsEqual(atPath: input.path, andPath: output.path)
    print(
        String(
            format:
                "%@%d+%d %d MiB, %d chunks per batch: upload %.0f MB/s (%.2f s, %.2f CPU s), download %.0f MB/s (%.2f s, %.2f CPU s), byte-exact %@, peak RSS (client + blobbers) %@",
            tls == nil ? (tmpfs ? "plain loopback, blobbers on tmpfs, " : "plain loopback ") : "TLS loopback ", d, p, mib,
            config.chunksPerBatch, bytes / up / 1e6, up, upCPU,
            bytes / down / 1e6, down, downCPU, same ? "true" : "FALSE", status("VmHWM")))
    // MOSAIC_BENCH_PHASES=1: when each transfer ran, to cut a `perf record -a -k mono` to it.
    if ProcessInfo.processInfo.environment["MOSAIC_BENCH_PHASES"] == "1" {
        print(
            "loopback phases \(d)+\(p) (CLOCK_MONOTONIC s, upload start, download start, end): "
                + phases.map { String(format: "%.3f", $0) }.joined(separator: " "))
    }
    try? FileManager.default.removeItem(at: output)
    for s in grid.servers { await s.stop() }
    if !same { throw BenchFailure("the loopback download of \(d)+\(p) differs from the input") }
    return Run(up: bytes / up / 1e6, down: bytes / down / 1e6, upCPU: upCPU, downCPU: downCPU)
}

// --testnet (and --testnet-plain): the testnets come up first, so that each round runs the loopback
// transfer and the same transfer across namespaces back to back, under the same load from the other
// jobs on the box; ratios are taken round by round. They go down at the end, also when a step
// fails or the bench is interrupted (TestnetRun.swift).
var benchFailed = false
let teardown = TestnetTeardown()
var sessions: [TestnetSession] = []
do {
    let env = ProcessInfo.processInfo.environment
    let cwd = FileManager.default.currentDirectoryPath
    let me = CommandLine.arguments[0].hasPrefix("/") ? CommandLine.arguments[0] : cwd + "/" + CommandLine.arguments[0]
    let mosaic = env["MOSAIC_BIN"] ?? URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("mosaic").path
    let folder = env["MOSAIC_BENCH_TESTNET_DIR"] ?? cwd + "/.build/bench-testnet"
    for plain in [false, true] where plain ? testnetPlainToo : testnetToo {
        let driver = TestnetDriver(
            script: env["MOSAIC_TESTNET_SCRIPT"] ?? cwd + "/scripts/testnet", mosaic: mosaic, directory: folder + (plain ? "-plain" : ""),
            logDirectory: root + "/testnet-output", plain: plain)
        teardown.add(driver)
        print("testnet: bringing up scripts/testnet with \(mosaic) (node, 6 blobbers, client; \(plain ? "PLAIN HTTP" : "TLS"))…")
        let session = try TestnetSession.start(driver, bench: me, layouts: layouts, mib: mib * repeats)
        print("testnet: \(session.upLine)")
        if env["MOSAIC_BENCH_PHASES"] == "1" {
            print("testnet server pids: " + session.serverPIDs.map(String.init).joined(separator: " "))
        }
        sessions.append(session)
    }
    for (d, p) in layouts {
        let key = "\(d)+\(p)"
        for k in 0..<repeats {
            if repeats > 1 { print("round \(k + 1) of \(repeats), \(key):") }
            measured[key, default: []].append(try await loopbackRun(d: d, p: p, tls: nil))
            if let tlsCredentials { tlsMeasured[key, default: []].append(try await loopbackRun(d: d, p: p, tls: tlsCredentials)) }
            if tmpfsToo { tmpfsMeasured[key, default: []].append(try await loopbackRun(d: d, p: p, tls: nil, tmpfs: true)) }
            for session in sessions {
                let t = try session.transfer(d: d, p: p, input: input.path, output: root + "/testnet-output-\(key)", round: k)
                let run = Run(
                    up: bytes / t.upSeconds / 1e6, down: bytes / t.downSeconds / 1e6, upCPU: t.upClientCPU + t.upServerCPU,
                    downCPU: t.downClientCPU + t.downServerCPU)
                if session.driver.plain {
                    testnetPlainMeasured[key, default: []].append(run)
                } else {
                    testnetMeasured[key, default: []].append(run)
                }
                print(
                    String(
                        format:
                            "%@ %d+%d %d MiB (%d blobber hosts): upload %.0f MB/s (%.2f s, CPU s client %.2f + servers %.2f), download %.0f MB/s (%.2f s, CPU s client %.2f + servers %.2f), byte-exact %@",
                        session.driver.plain ? "plain HTTP across namespaces" : "TLS across namespaces", d, p, mib, d + p, run.up,
                        t.upSeconds, t.upClientCPU, t.upServerCPU, run.down, t.downSeconds, t.downClientCPU, t.downServerCPU,
                        t.byteExact ? "true" : "FALSE"))
                // MOSAIC_BENCH_PHASES=1: when each transfer ran, to cut a `perf record -a -k mono` to it.
                if env["MOSAIC_BENCH_PHASES"] == "1" {
                    print(
                        "testnet phases \(session.driver.plain ? "plain" : "tls")-\(key) (CLOCK_MONOTONIC s): "
                            + t.phases.map { String(format: "%.3f", $0) }.joined(separator: " "))
                }
                if !t.byteExact { throw BenchFailure("the download of \(key) on the testnet differs from the input") }
            }
        }
    }
} catch {
    print("run failed: \(error)")
    benchFailed = true
}
teardown.downAll()
if !sessions.isEmpty { print("testnet: down") }

// The bounds of the pipeline's parts, measured in this run on one core each: what the upload and
// download could reach if nothing but this step cost time.
func throughput(_ label: String, bytes n: Int, repeat times: Int = 4, _ body: () throws -> Void) rethrows {
    try body()  // warm-up: page faults and caches are not what is being measured
    let clock = ContinuousClock()
    let t = clock.now
    for _ in 0..<times { try body() }
    print(String(format: "bound: %@ %.0f MB/s", label, Double(n * times) / seconds(clock.now - t) / 1e6))
}
let block = Random.bytes(64 << 20)
let sealer = try AES256GCM.Sealer(key: SecretBytes(Random.bytes(32)))
let nonce = Random.bytes(12)
var sealedSegment = [UInt8](repeating: 0, count: 65_536)
try throughput("AES-256-GCM seal (libcrypto, 64 KiB segments)", bytes: block.count) {
    try block.withUnsafeBytes { src in
        try sealedSegment.withUnsafeMutableBytes { out in
            var i = 0
            while i < src.count {
                let part = UnsafeRawBufferPointer(rebasing: src[i..<min(i + 65_536, src.count)])
                _ = try sealer.seal(part, into: out, nonce: nonce, aad: UnsafeRawBufferPointer(start: nil, count: 0))
                i += 65_536
            }
        }
    }
}
throughput("SHA-256 (libcrypto, 64 KiB blocks)", bytes: block.count) {
    block.withUnsafeBytes { src in
        var i = 0
        while i < src.count {
            _ = SHA256.hash(UnsafeRawBufferPointer(rebasing: src[i..<(i + 65_536)]))
            i += 65_536
        }
    }
}
for (d, p) in layouts {
    // As the encoder calls it: in place, 64 KiB fragments, one batch of 16 chunks reused.
    let coder = try ErasureCoder(dataShards: d, parityShards: p)
    let chunks = 16
    let fragment = 65_536
    var rows = [UInt8](repeating: 1, count: (d + p) * chunks * fragment)
    let dataPerPass = d * chunks * fragment
    let passes = max(1, block.count / dataPerPass)
    try throughput("ISA-L encode \(d)+\(p) (data bytes in, in place)", bytes: dataPerPass * passes) {
        try rows.withUnsafeMutableBytes { raw in
            for _ in 0..<passes {
                for k in 0..<chunks {
                    try coder.encodeParity(
                        in: UnsafeMutableRawBufferPointer(rebasing: raw[(k * fragment)...]),
                        fragmentSize: fragment, stride: chunks * fragment)
                }
            }
        }
    }
}
var copyTarget = [UInt8](repeating: 0, count: block.count)
throughput("memory copy (memcpy, 64 MiB between warm buffers)", bytes: block.count) {
    copyTarget.withUnsafeMutableBytes { dst in block.withUnsafeBytes { src in dst.copyMemory(from: src) } }
}

/// Pushes `total` bytes through a TCP connection on 127.0.0.1 (writer on another thread, 1 MiB
/// writes and reads): the kernel's loopback copy bound every fragment byte pays twice (send, receive).
func loopbackThroughput(total: Int) throws -> Double {
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard listener >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    defer { close(listener) }
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    addr.sin_port = 0
    var len = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, len) } }
    guard bound == 0, listen(listener, 1) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &len) } }
    let port = addr.sin_port
    let writerDone = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        defer { writerDone.signal() }
        let s = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(s) }
        var to = sockaddr_in()
        to.sin_family = sa_family_t(AF_INET)
        to.sin_addr.s_addr = inet_addr("127.0.0.1")
        to.sin_port = port
        let ok = withUnsafePointer(to: &to) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(s, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard ok == 0 else { return }
        let chunk = [UInt8](repeating: 7, count: 1 << 20)
        var sent = 0
        chunk.withUnsafeBytes { raw in
            while sent < total {
                let n = send(s, raw.baseAddress, min(raw.count, total - sent), Int32(MSG_NOSIGNAL))
                if n <= 0 { return }
                sent += n
            }
        }
    }
    let conn = accept(listener, nil, nil)
    guard conn >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    defer { close(conn) }
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    let clock = ContinuousClock()
    let t = clock.now
    var got = 0
    buffer.withUnsafeMutableBytes { raw in
        while got < total {
            let n = recv(conn, raw.baseAddress, raw.count, 0)
            if n <= 0 { break }
            got += n
        }
    }
    let s = seconds(clock.now - t)
    writerDone.wait()
    return Double(got) / s / 1e6
}
print(
    String(
        format: "bound: loopback TCP copy (127.0.0.1, %d MiB, writer and reader threads) %.0f MB/s",
        mib, try loopbackThroughput(total: mib << 20)))

/// Writes `total` bytes to a new file in the bench's folder (4 MiB writes) and waits for them to
/// reach the disk: the bound of an upload, which every blobber makes durable before it commits.
/// On this box all blobbers share one disk, so a d+p upload writes (d+p)/d times the file's size to it.
func diskWriteThroughput(total: Int) throws -> Double {
    let path = root + "/disk-bound"
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    defer {
        close(fd)
        unlink(path)
    }
    let chunk = Random.bytes(4 << 20)
    let clock = ContinuousClock()
    let t = clock.now
    var written = 0
    try chunk.withUnsafeBytes { raw in
        while written < total {
            let n = write(fd, raw.baseAddress, min(raw.count, total - written))
            guard n > 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
            written += n
        }
    }
    guard fdatasync(fd) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    return Double(written) / seconds(clock.now - t) / 1e6
}
// Twice the file's size (what a 2+2 upload writes), the best of three: this virtual disk's rate
// swings from run to run by a factor of two.
let diskRuns = try (0..<3).map { _ in try diskWriteThroughput(total: 2 * (mib << 20)) }
let diskBound = diskRuns.max() ?? 1
print(
    String(
        format: "bound: disk write, made durable (fdatasync), %d MiB in 4 MiB writes to the temp folder: %.0f MB/s (best of %@)", 2 * mib,
        diskBound, diskRuns.map { String(format: "%.0f", $0) }.joined(separator: ", ")))

// The client's own peak memory: a fresh process uploads while the blobbers stay here.
if let memoryMiB = memoryCheckMiB {
    let (d, p) = layouts.last ?? (4, 2)
    let grid = try await startGrid(d: d, p: p, name: "memory-\(d)+\(p)")
    let file = try makeInput(root + "/memory-input", mib: memoryMiB)
    var spec = ChildSpec(
        seed: grid.owner.seed.withUnsafeBytes { Hex.encode(Array($0)) }, allocation: grid.allocation,
        file: file.path, home: root + "/child-home", chunksPerBatch: batch)
    spec.chunksPerBatch = batch
    let specURL = URL(fileURLWithPath: root + "/child-spec.json")
    try JSONEncoder().encode(spec).write(to: specURL)
    let child = Process()
    child.executableURL = URL(
        fileURLWithPath: CommandLine.arguments[0].hasPrefix("/")
            ? CommandLine.arguments[0] : FileManager.default.currentDirectoryPath + "/" + CommandLine.arguments[0])
    child.arguments = ["--client-upload", specURL.path]
    let pipe = Pipe()
    child.standardOutput = pipe
    try child.run()
    let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    child.waitUntilExit()
    let hwm = out.split(separator: "\n").first { $0.hasPrefix("VmHWM") }.map { String($0.dropFirst(6)) } ?? "?"
    let secs = out.split(separator: "\n").first { $0.hasPrefix("seconds") }.flatMap { Double($0.dropFirst(8)) }
    let kB = Int(hwm.split(separator: " ").first ?? "") ?? 0
    if child.terminationStatus == 0, kB > 0 {
        print(
            String(
                format: "client peak memory (%d MiB upload, %d+%d, client in its own process): %d MiB (VmHWM %@; target <= 128 MiB)%@",
                memoryMiB, d, p, kB / 1024, hwm, kB <= 128 * 1024 ? "" : " — OVER TARGET",
                secs.map { String(format: ", upload %.0f MB/s", Double(memoryMiB << 20) / $0 / 1e6) } ?? ""))
    } else {
        print("client peak memory: the child upload failed (exit \(child.terminationStatus)); see its stderr above")
    }
    try? FileManager.default.removeItem(at: file)
    for s in grid.servers { await s.stop() }
}

// The peer in the same run: Tahoe-LAFS 2-of-4 on loopback through shared/bench/tahoe_grid.sh, looked
// up next to the working directory and its parents (installed from PyPI into /tmp/tahoe on first
// use). MOSAIC_BENCH_TAHOE=0 skips it; MOSAIC_BENCH_TAHOE_SCRIPT names the script explicitly.
func findTahoeScript() -> String? {
    if let explicit = ProcessInfo.processInfo.environment["MOSAIC_BENCH_TAHOE_SCRIPT"] { return explicit }
    var dir = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    for _ in 0..<4 {
        dir = dir.deletingLastPathComponent()
        let candidate = dir.appendingPathComponent("shared/bench/tahoe_grid.sh").path
        if FileManager.default.fileExists(atPath: candidate) { return candidate }
    }
    return nil
}
var tahoeRates: (put: Double, get: Double)?
var afterTahoe: [String: Run] = [:]
if ProcessInfo.processInfo.environment["MOSAIC_BENCH_TAHOE"] != "0", let script = findTahoeScript() {
    print("running Tahoe-LAFS 2-of-4 (\(mib) MiB, tahoe put/get) for comparison…")
    let tahoe = Process()
    tahoe.executableURL = URL(fileURLWithPath: "/bin/bash")
    tahoe.arguments = [script]
    var env = ProcessInfo.processInfo.environment
    env["SIZES_MIB"] = String(mib)
    env["RUNS"] = "1"
    env["METHODS"] = "tahoe-cli"
    env["STEPS"] = "install grid putget"
    tahoe.environment = env
    tahoe.standardOutput = FileHandle.nullDevice
    tahoe.standardError = FileHandle.nullDevice
    let started = Date()
    try tahoe.run()
    tahoe.waitUntilExit()
    let results = URL(fileURLWithPath: (env["BASE"] ?? "/tmp/tahoe") + "/results/putget_https.json")
    // Only this run's results: an older file from an earlier run must not pass for them.
    let written = (try? FileManager.default.attributesOfItem(atPath: results.path)[.modificationDate] as? Date) ?? .distantPast
    if written >= started.addingTimeInterval(-1), let data = try? Data(contentsOf: results),
        let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
        let cli = json["tahoe-cli"] as? [String: Any], let row = cli["\(mib)MiB"] as? [String: Any],
        let put = (row["put_median_MBps"] as? NSNumber)?.doubleValue, let get = (row["get_median_MBps"] as? NSNumber)?.doubleValue,
        put > 0, get > 0
    {
        print(String(format: "Tahoe-LAFS 2-of-4 %d MiB: put %.1f MB/s, get %.1f MB/s (load %@)", mib, put, get, loadAverage()))
        tahoeRates = (put, get)
        // Tahoe ran minutes after the rounds, under whatever load the box had then: each layout runs
        // once more on loopback right after it, to compare the two under the same conditions too.
        for (d, p) in layouts {
            do {
                print("plain loopback again, right after Tahoe-LAFS:")
                afterTahoe["\(d)+\(p)"] = try await loopbackRun(d: d, p: p, tls: nil)
            } catch {
                print("run failed: \(error)")
                benchFailed = true
            }
        }
    } else {
        print("Tahoe-LAFS did not produce results (exit \(tahoe.terminationStatus)); see /tmp/tahoe for its logs")
    }
} else {
    print(
        "Tahoe-LAFS comparison skipped (shared/bench/tahoe_grid.sh not found above \(FileManager.default.currentDirectoryPath), or MOSAIC_BENCH_TAHOE=0)"
    )
}

// The ratios, all from this run: TLS across namespaces against plain loopback (issue 13: ≥ 80%), and
// plain loopback against Tahoe-LAFS 2-of-4 on loopback (≥ 10×).
func verdict(_ value: Double, _ target: Double) -> String {
    value >= target ? "met" : String(format: "MISSED by %.0f%%", (1 - value / target) * 100)
}
print(repeats > 1 ? "ratios, each the median of \(repeats) rounds' ratios (a round runs every path back to back):" : "ratios:")
/// The median over rounds of `a[k] ÷ b[k]`, each way.
func roundRatio(_ a: [Run], _ b: [Run], _ value: (Run) -> Double) -> Double? {
    median(zip(a, b).map { value($0) / value($1) })
}
for (d, p) in layouts {
    let key = "\(d)+\(p)"
    let loop = measured[key] ?? []
    if let tls = tlsMeasured[key], let u = roundRatio(tls, loop, \.up), let w = roundRatio(tls, loop, \.down) {
        print(String(format: "%@ TLS ÷ plain, both on loopback in process: upload %.0f%%, download %.0f%%", key, u * 100, w * 100))
    }
    if let t = testnetMeasured[key], let u = roundRatio(t, loop, \.up), let w = roundRatio(t, loop, \.down) {
        print(
            String(
                format: "%@ TLS across namespaces ÷ plain loopback: upload %.0f%% (%@), download %.0f%% (%@) (target ≥ 80%%)", key, u * 100,
                verdict(u, 0.8), w * 100, verdict(w, 0.8)))
        // CPU seconds per transfer swing less with the other jobs than the wall clock does.
        if let cu = roundRatio(loop, t, \.upCPU), let cw = roundRatio(loop, t, \.downCPU) {
            print(
                String(
                    format:
                        "%@   by CPU seconds per transfer (loopback ÷ across namespaces): upload %.0f%% (%.2f s vs %.2f s), download %.0f%% (%.2f s vs %.2f s)",
                    key, cu * 100, median(loop.map(\.upCPU)) ?? 0, median(t.map(\.upCPU)) ?? 0, cw * 100,
                    median(loop.map(\.downCPU)) ?? 0, median(t.map(\.downCPU)) ?? 0))
        }
    }
    if let n = testnetPlainMeasured[key], let u = roundRatio(n, loop, \.up), let w = roundRatio(n, loop, \.down) {
        print(
            String(
                format: "%@ plain HTTP across namespaces ÷ plain loopback: upload %.0f%%, download %.0f%% (what separate hosts cost)", key,
                u * 100, w * 100))
        if let t = testnetMeasured[key], let tu = roundRatio(t, n, \.up), let tw = roundRatio(t, n, \.down) {
            print(
                String(
                    format: "%@ TLS ÷ plain HTTP, both across namespaces: upload %.0f%%, download %.0f%% (what TLS alone costs)", key,
                    tu * 100, tw * 100))
        }
        if let t = testnetMeasured[key], let cu = roundRatio(n, t, \.upCPU), let cw = roundRatio(n, t, \.downCPU) {
            print(String(format: "%@   by CPU seconds: upload %.0f%%, download %.0f%%", key, cu * 100, cw * 100))
        }
    }
    if let up = median(loop.map(\.up)) {
        // Every blobber fsyncs its fragment before it commits, and here they all share one disk.
        let expansion = Double(d + p) / Double(d)
        print(
            String(
                format:
                    "%@ plain loopback upload's durable disk writes: %.0f MB/s of fragments (%.2f× the file), %.0f%% of the disk bound; the disk allows at most %.0f MB/s of file%@",
                key, up * expansion, expansion, up * expansion / diskBound * 100, diskBound / expansion,
                tahoeRates.map { String(format: " = %.1f× Tahoe put (Tahoe never fsyncs its shares)", diskBound / expansion / $0.put) }
                    ?? ""))
    }
    if let down = median(loop.map(\.down)) {
        // The download also makes its output durable (fsync before the rename), on the same disk.
        print(
            String(
                format: "%@ plain loopback download's durable output writes: %.0f MB/s, %.0f%% of the disk bound%@", key, down,
                down / diskBound * 100,
                tahoeRates.map { String(format: " (the disk allows at most %.1f× Tahoe get, which never fsyncs)", diskBound / $0.get) }
                    ?? ""))
    }
    if let tahoeRates {
        /// One "÷ Tahoe" line: `what` says which loopback figures these are.
        func againstTahoe(_ what: String, _ up: Double, _ down: Double) {
            let (u, w) = (up / tahoeRates.put, down / tahoeRates.get)
            print(
                String(
                    format:
                        "%@ plain loopback (%@, %.0f / %.0f MB/s) ÷ Tahoe 2-of-4: upload %.1f× (%@), download %.1f× (%@) (target ≥ 10×)",
                    key, what, up, down, u, verdict(u, 10), w, verdict(w, 10)))
        }
        if let up = median(loop.map(\.up)), let down = median(loop.map(\.down)) { againstTahoe("median of the rounds", up, down) }
        if let fast = tmpfsMeasured[key], let up = median(fast.map(\.up)), let down = median(fast.map(\.down)) {
            againstTahoe("blobbers on tmpfs: no fsync cost, as Tahoe has none; median", up, down)
        }
        if let next = afterTahoe[key] { againstTahoe("right after Tahoe", next.up, next.down) }
    }
}
print("load average at end: \(loadAverage())")
if benchFailed { exit(1) }
