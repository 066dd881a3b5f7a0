import Foundation
import MosaicCrypto
import MosaicSDK
import MosaicStorage

// Storage throughput on loopback (run in release): `swift run -c release bench-storage [MiB] [d+p ...]`.
// Starts d + p blobbers in this process, uploads a random file of MiB mebibytes through the SDK,
// downloads it, checks it, and prints MB/s and the process's peak memory (VmHWM).

func peakRSS() -> String {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return "?" }
    return text.split(separator: "\n").first { $0.hasPrefix("VmHWM") }.map { String($0.dropFirst(6)).trimmingCharacters(in: .whitespaces) } ?? "?"
}

// MOSAIC_BENCH_BATCH overrides the client's chunks per batch (one PUT per blobber per batch).
let batch = ProcessInfo.processInfo.environment["MOSAIC_BENCH_BATCH"].flatMap { Int($0) }
let args = CommandLine.arguments.dropFirst()
let mib = Int(args.first ?? "") ?? 256
let layouts: [(Int, Int)] = args.dropFirst().compactMap { spec in
    let parts = spec.split(separator: "+").compactMap { Int($0) }
    return parts.count == 2 ? (parts[0], parts[1]) : nil
}
let root = NSTemporaryDirectory() + "mosaic-bench-" + Hex.encode(Random.bytes(4))
try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: root) }

// The input file, written in 4 MiB pieces.
let input = URL(fileURLWithPath: root + "/input")
FileManager.default.createFile(atPath: input.path, contents: nil)
let handle = try FileHandle(forWritingTo: input)
for _ in 0..<(mib / 4) { try handle.write(contentsOf: Random.bytes(4 << 20)) }
try handle.close()
let bytes = Double(mib << 20)
/// MB/s per layout, for the comparison with Tahoe-LAFS below.
var measured: [String: (up: Double, down: Double)] = [:]

for (d, p) in layouts.isEmpty ? [(2, 2), (4, 2)] : layouts {
    var servers: [BlobberServer] = []
    for i in 0..<(d + p) {
        let s = try BlobberServer(configuration: .init(directory: root + "/\(d)+\(p)-blobber\(i)"))
        try s.start()
        servers.append(s)
    }
    let owner = Ed25519.SigningKey.generate()
    var assignment = AllocationAssignment(allocationID: Hex.encode(Random.bytes(32)), ownerPublicKey: owner.publicKey,
                                          dataShards: d, parityShards: p, size: 1 << 40,
                                          expiration: Int64(Date().timeIntervalSince1970) + 3600, blobbers: servers.map(\.blobberID))
    assignment.sign(with: owner)
    let allocation = try StorageAllocation(assignment: assignment, urls: servers.map(\.baseURL))
    var config = StorageClient.Configuration()
    if let batch { config.chunksPerBatch = batch }
    let client = StorageClient(signingKey: owner, home: URL(fileURLWithPath: root + "/home"), configuration: config)
    _ = await client.assign(assignment, to: allocation)

    let clock = ContinuousClock()
    var t = clock.now
    try await client.upload(localFile: input, remotePath: "/bench.bin", allocation: allocation)
    let up = clock.now - t
    let output = URL(fileURLWithPath: root + "/output")
    t = clock.now
    try await client.download(remotePath: "/bench.bin", to: output, allocation: allocation)
    let down = clock.now - t
    let same = FileManager.default.contentsEqual(atPath: input.path, andPath: output.path)
    func rate(_ d: Duration) -> String {
        let s = Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
        return String(format: "%.0f MB/s (%.2f s)", bytes / s / 1e6, s)
    }
    func mbps(_ d: Duration) -> Double {
        bytes / (Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18) / 1e6
    }
    measured["\(d)+\(p)"] = (mbps(up), mbps(down))
    print("\(d)+\(p) \(mib) MiB, \(config.chunksPerBatch) chunks per batch: upload \(rate(up)), download \(rate(down)), byte-exact \(same), peak RSS \(peakRSS())")
    try? FileManager.default.removeItem(at: output)
    for s in servers { await s.stop() }
}

// The hardware bounds of the pipeline's parts, measured in this run on one core each: what the
// upload and download could reach if nothing but this step cost time.
func throughput(_ label: String, bytes n: Int, repeat times: Int = 4, _ body: () throws -> Void) rethrows {
    let clock = ContinuousClock()
    let t = clock.now
    for _ in 0..<times { try body() }
    let d = clock.now - t
    let s = Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    print(String(format: "bound: %@ %.0f MB/s", label, Double(n * times) / s / 1e6))
}
let block = Random.bytes(64 << 20)
let sealer = try AES256GCM.Sealer(key: SecretBytes(Random.bytes(32)))
let nonce = Random.bytes(12)
try throughput("AES-256-GCM seal (libcrypto, 64 KiB segments)", bytes: block.count) {
    var i = 0
    while i < block.count {
        _ = try sealer.seal(Array(block[i..<min(i + 65_536, block.count)]), nonce: nonce)
        i += 65_536
    }
}
throughput("SHA-256 (libcrypto)", bytes: block.count) { _ = SHA256.hash(block) }
let coder = try ErasureCoder(dataShards: 2, parityShards: 2)
try throughput("ISA-L encode 2+2", bytes: block.count) { _ = try coder.encode(block, fragmentSize: block.count / 2) }
throughput("memory copy", bytes: block.count) { var copy = block; copy[0] ^= 1; _ = copy.count }

// The peer in the same run: Tahoe-LAFS 2-of-4 on loopback through ../shared/bench/tahoe_grid.sh
// (installed from PyPI into /tmp/tahoe on first use). MOSAIC_BENCH_TAHOE=0 skips it.
let script = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).deletingLastPathComponent()
    .appendingPathComponent("shared/bench/tahoe_grid.sh").path
if ProcessInfo.processInfo.environment["MOSAIC_BENCH_TAHOE"] != "0", FileManager.default.fileExists(atPath: script) {
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
    try tahoe.run()
    tahoe.waitUntilExit()
    let results = URL(fileURLWithPath: (env["BASE"] ?? "/tmp/tahoe") + "/results/putget_https.json")
    if let data = try? Data(contentsOf: results),
       let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
       let cli = json["tahoe-cli"] as? [String: Any], let row = cli["\(mib)MiB"] as? [String: Any],
       let put = (row["put_median_MBps"] as? NSNumber)?.doubleValue, let get = (row["get_median_MBps"] as? NSNumber)?.doubleValue,
       put > 0, get > 0 {
        print(String(format: "Tahoe-LAFS 2-of-4 %d MiB: put %.1f MB/s, get %.1f MB/s", mib, put, get))
        for (layout, r) in measured.sorted(by: { $0.key < $1.key }) {
            print(String(format: "Mosaic %@ vs Tahoe 2-of-4: upload %.1f×, download %.1f× (target ≥ 6×)", layout, r.up / put, r.down / get))
        }
    } else {
        print("Tahoe-LAFS did not produce results (exit \(tahoe.terminationStatus)); see /tmp/tahoe for its logs")
    }
} else {
    print("Tahoe-LAFS comparison skipped (\(script) not found or MOSAIC_BENCH_TAHOE=0)")
}
