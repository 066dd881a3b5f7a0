import Foundation
import MosaicCrypto
import MosaicTestSupport
import Testing

/// A running `mosaic devnet` in a test's home folder.
struct CLIDevnet {
    let process: MosaicProcess
    let node: String
    let blobbers: [String]
    let dir: URL
    /// The whole ready line.
    let ready: [String: Any]

    /// SIGTERM, then its exit status (nil: still running after `timeout` seconds).
    @discardableResult
    func stop(timeout: Double = 15) async -> Int32? { await process.terminate(timeout: timeout) }

    /// `stop` for `defer`, which cannot await.
    func stopBlocking(timeout: Double = 15) { process.terminateBlocking(timeout: timeout) }
}

/// What the CLI suites share: a CLI runner with the test passphrase, a devnet with fast
/// blocks in its home, and commands that must succeed (their `--json` object) or fail.
protocol DevnetCLITesting {}

extension DevnetCLITesting {
    func cli() throws -> CLIRunner {
        var c = try CLIRunner()
        c.environment["MOSAIC_PASSPHRASE"] = "correct horse"
        return c
    }

    /// `mosaic devnet --json` in `dir` (default `cli.home/dn`) with `blobbers` blobbers, blocks every
    /// `blockTime` sealed after `confirmations` (nil: the devnet's defaults) and, unless `app`, no
    /// web app. The timeout only stops a hung start; how fast a devnet starts is bench-storage's to show.
    func devnet(
        _ cli: CLIRunner, blobbers: Int? = 4, blockTime: String = "100ms", confirmations: Int? = 1, app: Bool = false,
        dir: URL? = nil
    ) async throws -> CLIDevnet {
        let dir = dir ?? cli.home.appendingPathComponent("dn")
        var args = ["devnet", "--dir", dir.path, "--port", "0", "--block-time", blockTime, "--json"]
        if !app { args.append("--no-app") }
        if let confirmations { args += ["--confirmations", String(confirmations)] }
        if let blobbers { args += ["--blobbers", String(blobbers)] }
        let p = try MosaicProcess(args, environment: ["MOSAIC_HOME": cli.home.path])
        let ready = try #require(await p.firstJSON(timeout: 60))
        return CLIDevnet(
            process: p, node: try #require(ready["node"] as? String), blobbers: try #require(ready["blobbers"] as? [String]), dir: dir,
            ready: ready)
    }

    /// Creates wallet `name` (with the test's cheap key derivation) and pours faucet tokens to it; its client id.
    @discardableResult
    func funded(_ cli: CLIRunner, _ name: String = "default") async throws -> String {
        let id = try cli.cheapWallet(name)
        let pour = try await cli.run(["wallet", "faucet", "--wallet", name, "--json"])
        #expect(pour.code == 0, "\(pour.err)")
        return id
    }

    /// A JSON object from a node or blobber route.
    func get(_ url: String) throws -> [String: Any] {
        let data = try Data(contentsOf: try #require(URL(string: url)))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// A file of `count` random bytes in the test's home.
    func randomFile(_ cli: CLIRunner, _ name: String, _ count: Int) throws -> URL {
        let url = cli.home.appendingPathComponent(name)
        try Data(Random.bytes(count)).write(to: url)
        return url
    }

    /// Runs a command that must succeed, returning its `--json` object.
    @discardableResult
    func ok(_ cli: CLIRunner, _ args: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws -> [String: Any] {
        let r = try await cli.run(args + ["--json"])
        #expect(r.code == 0, "\(args.joined(separator: " ")): \(r.err)", sourceLocation: sourceLocation)
        return r.json
    }

    /// Runs a command that must fail; returns its error message.
    func fails(_ cli: CLIRunner, _ args: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let r = try await cli.run(args)
        #expect(r.code != 0, "\(args.joined(separator: " ")) should fail: \(r.out)", sourceLocation: sourceLocation)
        return r.err
    }

    /// Runs a command that must fail, with `--json`; returns its message and its error code.
    func failsWithCode(_ cli: CLIRunner, _ args: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws -> (
        message: String, code: String
    ) {
        let r = try await cli.run(args + ["--json"])
        #expect(r.code != 0, "\(args.joined(separator: " ")) should fail: \(r.out)", sourceLocation: sourceLocation)
        return (r.err, (r.json["error"] as? [String: Any])?["code"] as? String ?? "")
    }
}
