import Foundation
import Testing

/// `mosaic blobber` as its own process against a devnet node: key created with mode 0600,
/// registered (signed, staked from the faucet), usable by an allocation, and stopped by SIGTERM.
@Suite(.timeLimit(.minutes(3))) struct BlobberProcessTests {
    @Test func standaloneBlobbersRegisterServeAndStopOnSIGTERM() async throws {
        var cli = try CLIRunner()
        cli.environment["MOSAIC_PASSPHRASE"] = "correct horse"
        defer { cli.cleanup() }
        let dn = try LedgerChildProcess(["devnet", "--dir", cli.home.appendingPathComponent("dn").path, "--port", "0", "--no-app",
                                         "--blobbers", "0", "--block-time", "100ms", "--confirmations", "1", "--json"],
                                        environment: ["MOSAIC_HOME": cli.home.path])
        defer { dn.signal(SIGTERM); _ = dn.waitForExit(timeout: 10) }
        let node = try #require(dn.firstJSON(timeout: 20)?["node"] as? String)

        var blobbers: [LedgerChildProcess] = []
        var ids: [String] = []
        for i in 0..<2 {
            let dir = cli.home.appendingPathComponent("b\(i)")
            let b = try LedgerChildProcess(["blobber", "--dir", dir.path, "--node", node, "--capacity", "1GiB", "--write-price", "0.01", "--json"],
                                           environment: ["MOSAIC_HOME": cli.home.path])
            blobbers.append(b)
            let line = try #require(b.firstJSON(timeout: 30))
            ids.append(try #require(line["blobber_id"] as? String))
            let attrs = try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent("blobber.key").path)
            #expect((attrs[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        }
        let data = try Data(contentsOf: try #require(URL(string: node + "/v1/storage/blobbers")))
        let listed = ((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["blobbers"] as? [[String: Any]]) ?? []
        #expect(Set(listed.compactMap { $0["id"] as? String }) == Set(ids))
        #expect(listed.allSatisfy { ($0["stake"] as? Int ?? 0) >= 10_000_000_000 && ($0["capacity"] as? Int) == 1 << 30 })

        // A 1+1 allocation on them holds a file.
        #expect(try cli.run(["wallet", "create"]).code == 0)
        #expect(try cli.run(["wallet", "faucet"]).code == 0)
        let made = try cli.run(["alloc", "new", "--data", "1", "--parity", "1", "--size", "1MiB", "--expire", "1d", "--json"])
        #expect(made.code == 0, "\(made.err)")
        let file = cli.home.appendingPathComponent("f")
        try Data("hello blobbers".utf8).write(to: file)
        let up = try cli.run(["upload", file.path, "/f"])
        #expect(up.code == 0, "\(up.err)")
        let back = cli.home.appendingPathComponent("g")
        #expect(try cli.run(["download", "/f", back.path]).code == 0)
        #expect(try Data(contentsOf: back) == Data("hello blobbers".utf8))

        for b in blobbers { b.signal(SIGTERM) }
        for b in blobbers { #expect(b.waitForExit(timeout: 10) == 0) }
    }
}
