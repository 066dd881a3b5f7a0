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
}

/// What the storage suites share: a CLI runner with the test passphrase, a devnet with fast
/// blocks in its home, and commands that must succeed (their `--json` object) or fail.
protocol DevnetCLITesting {}

extension DevnetCLITesting {
    func cli() throws -> CLIRunner {
        var c = try CLIRunner()
        c.environment["MOSAIC_PASSPHRASE"] = "correct horse"
        return c
    }

    /// A devnet with fast blocks (sealed after one confirmation) and `blobbers` blobbers.
    func devnet(_ cli: CLIRunner, blobbers: Int = 4) async throws -> CLIDevnet {
        let dir = cli.home.appendingPathComponent("dn")
        let p = try MosaicProcess(
            [
                "devnet", "--dir", dir.path, "--port", "0", "--no-app", "--block-time", "100ms",
                "--confirmations", "1", "--blobbers", String(blobbers), "--json",
            ],
            environment: ["MOSAIC_HOME": cli.home.path])
        let ready = try #require(await p.firstJSON(timeout: 60))
        return CLIDevnet(
            process: p, node: try #require(ready["node"] as? String), blobbers: try #require(ready["blobbers"] as? [String]), dir: dir)
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
}
