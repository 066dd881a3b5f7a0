import Foundation
import MosaicCrypto
import MosaicSDK
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

// bench-storage --testnet: the same transfers across separate hosts over TLS. scripts/testnet brings
// up a node and six `mosaic blobber` processes (the release `mosaic` beside this bench, or
// MOSAIC_BIN), each in its own network namespace behind a bridge, serving HTTPS. For each layout
// the testnet's client wallet makes an allocation with `mosaic alloc new`; then this bench starts
// itself again inside the client's namespace (`--testnet-client`), where the SDK uploads and
// downloads the same input file as the loopback runs did: the same code path as the in-process
// runs, now through veth links, a bridge and TLS, against servers in their own processes. The
// testnet is taken down afterwards, also when a step fails or the bench is interrupted.

/// What the client in the testnet's client namespace measured for one layout.
struct TestnetTransfer: Codable {
    var upSeconds: Double
    var downSeconds: Double
    var upClientCPU: Double
    var downClientCPU: Double
    var upServerCPU: Double
    var downServerCPU: Double
    var byteExact: Bool
    /// CLOCK_MONOTONIC seconds at the start and end of the upload and of the download, to cut a
    /// profile (`perf record -k mono`) to the transfers alone.
    var phases: [Double]
}

/// CLOCK_MONOTONIC in seconds, the clock `perf record -k mono` stamps its samples with.
func monotonicSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

/// Clock ticks per second for /proc/PID/stat.
private let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

/// User + system CPU seconds of the processes `pids` so far (from /proc; a process gone counts 0).
func cpuSeconds(of pids: [Int32]) -> Double {
    pids.reduce(0) { sum, pid in
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return sum }
        // Fields after the command name: state is field 3, utime 14, stime 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return sum }
        return sum + (user + system) / ticksPerSecond
    }
}

/// The child side: runs inside the testnet's client namespace. Opens the client's wallet
/// (MOSAIC_HOME, MOSAIC_PASSPHRASE), reads the allocation from the node over TLS, then uploads
/// `input` and downloads it to `output`, timing each; `serverPIDs` are the blobber and node
/// processes whose CPU time is read around each transfer.
func testnetClient(
    allocationID: String, input: String, output: String, remotePath: String, serverPIDs: [Int32], batch: Int?
) async throws -> TestnetTransfer {
    let env = ProcessInfo.processInfo.environment
    guard let homePath = env["MOSAIC_HOME"], let passphrase = env["MOSAIC_PASSPHRASE"] else {
        throw BenchFailure("--testnet-client needs MOSAIC_HOME and MOSAIC_PASSPHRASE")
    }
    let home = URL(fileURLWithPath: homePath)
    let network = try ClientConfig.load(home: home).resolve(nil)
    let ledger = try LedgerClient(network: network)
    let keystore = Keystore(home: home, environment: env)
    let wallet = try keystore.unlock(name: try keystore.resolveName(nil), passphrase: passphrase)
    guard let onLedger = try await ledger.storageAllocation(allocationID) else {
        throw BenchFailure("allocation \(allocationID) is not on the testnet's ledger")
    }
    let allocation = try StorageAllocation(onLedger)
    var config = StorageClient.Configuration()
    if let batch { config.chunksPerBatch = batch }
    // Its own folder for journals and listings, as each in-process run has a fresh client.
    let clientHome = URL(fileURLWithPath: output + ".home")
    let client = StorageClient(wallet: wallet, home: clientHome, configuration: config)
    defer { try? FileManager.default.removeItem(at: clientHome) }
    let clock = ContinuousClock()
    var phases = [monotonicSeconds()]
    var (t, cpu, servers) = (clock.now, cpuSeconds(), cpuSeconds(of: serverPIDs))
    _ = try await client.upload(localFile: URL(fileURLWithPath: input), remotePath: remotePath, allocation: allocation)
    let up = (seconds(clock.now - t), cpuSeconds() - cpu, cpuSeconds(of: serverPIDs) - servers)
    phases += [monotonicSeconds(), monotonicSeconds()]
    (t, cpu, servers) = (clock.now, cpuSeconds(), cpuSeconds(of: serverPIDs))
    _ = try await client.download(remotePath: remotePath, to: URL(fileURLWithPath: output), allocation: allocation)
    let down = (seconds(clock.now - t), cpuSeconds() - cpu, cpuSeconds(of: serverPIDs) - servers)
    phases.append(monotonicSeconds())
    let same = FileManager.default.contentsEqual(atPath: input, andPath: output)
    try? FileManager.default.removeItem(atPath: output)
    return TestnetTransfer(
        upSeconds: up.0, downSeconds: down.0, upClientCPU: up.1, downClientCPU: down.1, upServerCPU: up.2, downServerCPU: down.2,
        byteExact: same, phases: phases)
}

struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

/// Drives scripts/testnet from the bench: up, allocations, the client child, and always down.
final class TestnetDriver: @unchecked Sendable {
    // @unchecked: used from the main task only, and from the signal handler once, to take it down.
    let script: String
    let directory: String
    let environment: [String: String]
    let logDirectory: String
    /// `up --plain`: servers without TLS.
    let plain: Bool

    /// - Parameters: the testnet script, the `mosaic` binary its servers run, the testnet folder
    ///   (one per testnet: its instance id comes from it).
    init(script: String, mosaic: String, directory: String, logDirectory: String, plain: Bool) {
        self.script = script
        self.directory = directory
        self.logDirectory = logDirectory
        self.plain = plain
        var env = ProcessInfo.processInfo.environment
        env["MOSAIC_BIN"] = mosaic
        env["MOSAIC_TESTNET_DIR"] = directory
        environment = env
    }

    /// Runs `scripts/testnet ARGS`; its exit status and output. Output goes through files, so a
    /// chatty command cannot fill a pipe and stall.
    @discardableResult
    func testnet(_ args: [String]) throws -> (status: Int32, out: String, err: String) {
        try run(["/usr/bin/env", "python3", script] + args, environment: environment)
    }

    func run(_ argv: [String], environment env: [String: String]) throws -> (status: Int32, out: String, err: String) {
        try FileManager.default.createDirectory(atPath: logDirectory, withIntermediateDirectories: true)
        let tag = Hex.encode(Random.bytes(4))
        let outPath = logDirectory + "/\(tag).out"
        let errPath = logDirectory + "/\(tag).err"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        defer {
            try? FileManager.default.removeItem(atPath: outPath)
            try? FileManager.default.removeItem(atPath: errPath)
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: argv[0])
        p.arguments = Array(argv.dropFirst())
        p.environment = env
        p.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        p.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        try p.run()
        p.waitUntilExit()
        let out = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        let err = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        return (p.terminationStatus, out, err)
    }

    func require(_ args: [String]) throws -> String {
        let r = try testnet(args)
        guard r.status == 0 else {
            throw BenchFailure("scripts/testnet \(args.joined(separator: " ")) exited \(r.status): \(r.err)\(r.out)")
        }
        return r.out
    }

    /// The testnet's state file (instance, namespaces, processes).
    func state() throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/state.json"))
        guard let json = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw BenchFailure("\(directory)/state.json is not a JSON object")
        }
        return json
    }

    /// The pids running in a namespace of the testnet (`ip netns pids`).
    func pids(inNamespace name: String) -> [Int32] {
        let r = try? run(["/usr/sbin/ip", "netns", "pids", name], environment: environment)
        return (r?.out ?? "").split(whereSeparator: \.isNewline).compactMap { Int32($0) }
    }

    /// `mosaic alloc new` by the testnet's client: d + p blobber hosts, room for `mib` MiB of files twice over.
    func allocate(data d: Int, parity p: Int, mib: Int) throws -> (id: String, hosts: [String]) {
        let size = max(1024, 2 * mib)
        let out = try require([
            "client", "alloc", "new", "--data", "\(d)", "--parity", "\(p)", "--size", "\(size)MiB", "--expire", "1d", "--name",
            "bench-\(d)-\(p)", "--json",
        ])
        guard let json = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any], let id = json["id"] as? String
        else { throw BenchFailure("alloc new printed no id: \(out)") }
        let urls = (json["blobbers"] as? [[String: Any]] ?? []).compactMap { $0["url"] as? String }
        return (id, urls)
    }

    /// Takes the testnet down (idempotent: a testnet already down is nothing to do).
    func down() {
        let r = try? testnet(["down"])
        if let r, r.status != 0 { FileHandle.standardError.write(Data("scripts/testnet down failed: \(r.err)\n".utf8)) }
    }
}

/// The testnets a bench brought up: all go down at the end, or on SIGINT, SIGTERM or SIGHUP.
final class TestnetTeardown: @unchecked Sendable {
    // @unchecked: `drivers` is behind the lock; the signal sources live as long as the bench.
    private let drivers = Mutex<[TestnetDriver]>([])
    private var sources: [any DispatchSourceSignal] = []

    init() {
        sources = [SIGINT, SIGTERM, SIGHUP].map { sig in
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { [unowned self] in
                FileHandle.standardError.write(Data("bench-storage: signal \(sig); taking the testnets down\n".utf8))
                self.downAll()
                exit(128 + sig)
            }
            return source
        }
    }

    /// Takes `driver` down with the others; the signals are caught from the first one on.
    func add(_ driver: TestnetDriver) {
        let first = drivers.withLock {
            $0.append(driver)
            return $0.count == 1
        }
        if first {
            for (sig, source) in zip([SIGINT, SIGTERM, SIGHUP], sources) {
                signal(sig, SIG_IGN)
                source.resume()
            }
        }
    }

    func downAll() {
        for d in drivers.withLock({ $0 }) { d.down() }
    }
}

/// A testnet that is up, with an allocation per layout made by its client wallet.
struct TestnetSession {
    let driver: TestnetDriver
    let bench: String
    let upLine: String
    let serverPIDs: [Int32]
    let allocations: [String: String]

    /// Removes what an earlier bench left in the driver's folder, brings the testnet up and makes an
    /// allocation for each layout with room for `mib` MiB of files.
    static func start(_ driver: TestnetDriver, bench: String, layouts: [(Int, Int)], mib: Int) throws -> TestnetSession {
        driver.down()
        guard getuid() == 0 else { throw BenchFailure("--testnet needs root (network namespaces), as scripts/testnet does") }
        let mosaic = driver.environment["MOSAIC_BIN"] ?? ""
        guard FileManager.default.isExecutableFile(atPath: mosaic) else {
            throw BenchFailure("\(mosaic) is missing: swift build -c release --product mosaic (or set MOSAIC_BIN)")
        }
        let out = try driver.require(driver.plain ? ["up", "--plain"] : ["up"])
        let state = try driver.state()
        let prefix = state["prefix"] as? String ?? "?"
        let servers = (["node"] + (1...6).map { "b\($0)" }).flatMap { driver.pids(inNamespace: prefix + $0) }
        var allocations: [String: String] = [:]
        for (d, p) in layouts {
            allocations["\(d)+\(p)"] = try driver.allocate(data: d, parity: p, mib: mib).id
        }
        return TestnetSession(
            driver: driver, bench: bench, upLine: out.split(whereSeparator: \.isNewline).last.map(String.init) ?? "",
            serverPIDs: servers, allocations: allocations)
    }

    /// One upload and download of `input` by the bench run again inside the client's namespace.
    func transfer(d: Int, p: Int, input: String, output: String, round: Int) throws -> TestnetTransfer {
        guard let id = allocations["\(d)+\(p)"] else { throw BenchFailure("no allocation for \(d)+\(p) on the testnet") }
        let r = try driver.testnet([
            "exec", "client", bench, "--testnet-client", id, input, output, serverPIDs.map(String.init).joined(separator: ","),
            "\(round)",
        ])
        guard r.status == 0, let line = r.out.split(whereSeparator: \.isNewline).last,
            let t = try? JSONDecoder().decode(TestnetTransfer.self, from: Data(line.utf8))
        else { throw BenchFailure("the client in the testnet failed (exit \(r.status)): \(r.err)\(r.out)") }
        return t
    }
}
