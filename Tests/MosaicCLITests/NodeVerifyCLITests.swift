import Foundation
import MosaicDatabase
import MosaicTestSupport
import Testing

/// `mosaic node verify --from URL` (issue 14 §3) against a real devnet: a chain with transfers,
/// an allocation, an upload and answered storage challenges re-executes to the same blocks; the
/// same chain with one receipt changed in the node's database is reported at that block.
@Suite(.serialized, .timeLimit(.minutes(4))) struct NodeVerifyCLITests: DevnetCLITesting {
    @Test func verifyAgreesWithAnHonestDevnetAndNamesTheBlockWhoseReceiptWasChanged() async throws {
        let cli = try cli()
        defer { cli.cleanup() }
        let net = try await devnet(cli, blobbers: 3)
        var stopped = false
        defer { if !stopped { net.stopBlocking(timeout: 10) } }
        try await funded(cli)
        let alloc = try await ok(cli, ["alloc", "new", "--data", "2", "--parity", "1", "--size", "16MiB", "--expire", "30d"])
        let blobbers = try #require(alloc["blobbers"] as? [[String: Any]])
        try await ok(cli, ["upload", try randomFile(cli, "v.bin", 100_000).path, "/v.bin"])
        // Challenges answered: the storage contract's end-of-block work is part of what re-executes.
        let deadline = ContinuousClock.now + .seconds(90)
        var passed = 0
        while ContinuousClock.now < deadline, passed == 0 {
            try await Task.sleep(for: .milliseconds(200))
            passed = try blobbers.map { try get(net.node + "/v1/storage/blobbers/\($0["blobber_id"] as? String ?? "")") }
                .reduce(0) { $0 + ($1["successful_challenges"] as? Int ?? 0) }
        }
        #expect(passed > 0, "no storage challenge was answered")

        let report = try await ok(cli, ["node", "verify", "--from", net.node])
        #expect(report["agrees"] as? Bool == true)
        #expect((report["verified_through"] as? Int ?? 0) > 3)
        #expect((report["transactions"] as? Int ?? 0) > 3)
        #expect((report["producers"] as? [String])?.count == 1)
        let text = try await cli.run(["node", "verify", "--from", net.node])
        #expect(text.code == 0, "\(text.err)")
        #expect(text.out.contains("agrees: blocks 0–"), "\(text.out)")

        // The node's database changed under it: one successful receipt says something else.
        net.stopBlocking(timeout: 10)
        stopped = true
        let nodeDir = net.dir.appendingPathComponent("node")
        let db = try Database(path: nodeDir.appendingPathComponent("ledger.sqlite").path)
        try db.execute(
            """
            UPDATE transactions SET output = 'transferred 1000000 MSC'
            WHERE seq = (SELECT MIN(seq) FROM transactions WHERE outcome = 'success' AND round > 1)
            """)
        db.close()
        let node = try MosaicProcess(["node", "--dir", nodeDir.path, "--port", "0", "--quiet", "--json"])
        defer { node.terminateBlocking(timeout: 10) }
        let url = try #require(await node.firstJSON(timeout: 60)?["node"] as? String)
        let bad = try await cli.run(["node", "verify", "--from", url, "--json"])
        #expect(bad.code == 1)
        #expect((bad.json["error"] as? [String: Any])?["code"] as? String == "chain_diverges", "\(bad.out) \(bad.err)")
        let plain = try await cli.run(["node", "verify", "--from", url])
        #expect(plain.code == 1)
        #expect(plain.err.contains("diverges at block") && plain.err.contains("(receipt)"), "\(plain.err)")
    }
}
