import Foundation
import MosaicTestSupport
import Testing

/// `mosaic blobber` as its own process against a devnet node: key created with mode 0600,
/// registered (signed, staked from the faucet), usable by an allocation, and stopped by SIGTERM.
@Suite(.timeLimit(.minutes(3))) struct BlobberProcessTests: DevnetCLITesting {
    @Test func standaloneBlobbersRegisterServeAndStopOnSIGTERM() async throws {
        let cli = try cli()
        defer { cli.cleanup() }
        let dn = try await devnet(cli, blobbers: 0)
        defer { dn.stopBlocking(timeout: 10) }
        let node = dn.node

        var blobbers: [MosaicProcess] = []
        var ids: [String] = []
        for i in 0..<2 {
            let dir = cli.home.appendingPathComponent("b\(i)")
            let b = try MosaicProcess(
                ["blobber", "--dir", dir.path, "--node", node, "--capacity", "1GiB", "--write-price", "0.01", "--json"],
                environment: ["MOSAIC_HOME": cli.home.path])
            blobbers.append(b)
            let line = try #require(await b.firstJSON(timeout: 30))
            ids.append(try #require(line["blobber_id"] as? String))
            let attrs = try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent("blobber.key").path)
            #expect((attrs[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        }
        let data = try Data(contentsOf: try #require(URL(string: node + "/v1/storage/blobbers")))
        let listed = ((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["blobbers"] as? [[String: Any]]) ?? []
        #expect(Set(listed.compactMap { $0["id"] as? String }) == Set(ids))
        #expect(listed.allSatisfy { ($0["stake"] as? Int ?? 0) >= 10_000_000_000 && ($0["capacity"] as? Int) == 1 << 30 })

        // A 1+1 allocation on them holds a file.
        #expect(try await cli.run(["wallet", "create"]).code == 0)
        #expect(try await cli.run(["wallet", "faucet"]).code == 0)
        let made = try await cli.run(["alloc", "new", "--data", "1", "--parity", "1", "--size", "1MiB", "--expire", "1d", "--json"])
        #expect(made.code == 0, "\(made.err)")
        let file = cli.home.appendingPathComponent("f")
        try Data("hello blobbers".utf8).write(to: file)
        let up = try await cli.run(["upload", file.path, "/f"])
        #expect(up.code == 0, "\(up.err)")
        let back = cli.home.appendingPathComponent("g")
        #expect(try await cli.run(["download", "/f", back.path]).code == 0)
        #expect(try Data(contentsOf: back) == Data("hello blobbers".utf8))

        for b in blobbers { b.signal(SIGTERM) }
        for b in blobbers { #expect(await b.waitForExit(timeout: 10) == 0) }
    }

    /// A blobber down during an upload misses it (the upload still succeeds), and `mosaic repair`
    /// rebuilds its fragment once it is back on the same port.
    @Test func repairRestoresABlobberThatMissedAnUpload() async throws {
        let cli = try cli()
        defer { cli.cleanup() }
        let dn = try await devnet(cli, blobbers: 0)
        defer { dn.stopBlocking(timeout: 10) }
        let node = dn.node
        let base = freeLoopbackPorts(3)
        func blobber(_ i: Int) throws -> MosaicProcess {
            try MosaicProcess(
                [
                    "blobber", "--dir", cli.home.appendingPathComponent("b\(i)").path, "--node", node,
                    "--port", String(base + UInt16(i)), "--json",
                ], environment: ["MOSAIC_HOME": cli.home.path])
        }
        var running = try (0..<3).map(blobber)
        for b in running { _ = try #require(await b.firstJSON(timeout: 30)) }
        defer {
            for b in running {
                b.terminateBlocking(timeout: 10)
            }
        }

        #expect(try await cli.run(["wallet", "create"]).code == 0)
        #expect(try await cli.run(["wallet", "faucet"]).code == 0)
        let made = try await cli.run(["alloc", "new", "--data", "1", "--parity", "2", "--size", "1MiB", "--expire", "1d", "--json"])
        #expect(made.code == 0, "\(made.err)")
        let urls = (made.json["blobbers"] as? [[String: Any]] ?? []).compactMap { $0["url"] as? String }
        let down = try #require(running.indices.first { urls.first == "http://127.0.0.1:\(base + UInt16($0))" })
        #expect(await running[down].terminate(timeout: 10) == 0)

        let file = cli.home.appendingPathComponent("f")
        try Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 * 7) }).write(to: file)
        let up = try await cli.run(["upload", file.path, "/f", "--json"])
        #expect(up.code == 0, "\(up.err)")
        #expect((up.json["failed"] as? [String: Any])?.keys.sorted() == ["0"])

        running[down] = try blobber(down)
        _ = try #require(await running[down].firstJSON(timeout: 30))
        let fixed = try await cli.run(["repair", "--json"])
        #expect(fixed.code == 0, "\(fixed.err)")
        let repaired = fixed.json["repaired"] as? [[String: Any]] ?? []
        #expect(repaired.contains { $0["blobber"] as? Int == 0 && $0["path"] as? String == "/f" })
        let back = cli.home.appendingPathComponent("g")
        #expect(try await cli.run(["download", "/f", back.path]).code == 0)
        #expect(try Data(contentsOf: back) == Data(contentsOf: file))
    }
}
