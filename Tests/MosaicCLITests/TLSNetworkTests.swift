import Foundation
import MosaicHTTP
import MosaicProtocol
import MosaicSDK
import MosaicTestSupport
import Testing

/// A network on loopback that speaks only HTTPS: `mosaic node` and three `mosaic blobber`s serve
/// TLS from a CA made at test start, a client whose network names that CA uploads and downloads a
/// file byte-exact, a client without it is refused with a clear error, plain http to another
/// machine is refused without --insecure, and a blobber restarted with a new --public-url is found
/// again once it has re-registered.
@Suite(.timeLimit(.minutes(4))) struct TLSNetworkTests: DevnetCLITesting {
    @Test func nodeAndBlobbersServeHTTPSAndClientsVerifyThem() async throws {
        let certs = try TestCertificates.make()
        defer { certs.remove() }
        let cli = try cli()
        defer { cli.cleanup() }
        let tls = ["--tls-cert", certs.certificateFile, "--tls-key", certs.keyFile]
        let base = freeLoopbackPorts(5)
        let nodeURL = "https://127.0.0.1:\(base)"
        let node = try MosaicProcess(
            [
                "node", "--dir", cli.home.appendingPathComponent("node").path, "--listen", "127.0.0.1:\(base)",
                "--public-url", "https://localhost:\(base)", "--block-time", "100ms", "--confirmations", "1", "--quiet", "--json",
            ] + tls, environment: ["MOSAIC_HOME": cli.home.path])
        defer { node.terminateBlocking(timeout: 10) }
        #expect(try #require(await node.firstJSON(timeout: 60))["node"] as? String == "https://localhost:\(base)")

        // This test process reads the ledger over TLS too, trusting the same CA.
        try TLSTrust.addAuthority(file: certs.caFile)
        let ledger = LedgerClient(baseURL: try #require(URL(string: nodeURL)))
        #expect(try await ledger.network().publicURL == "https://localhost:\(base)")

        func blobber(_ i: Int, port: UInt16, publicURL: String? = nil) throws -> MosaicProcess {
            try MosaicProcess(
                [
                    "blobber", "--dir", cli.home.appendingPathComponent("b\(i)").path, "--node", nodeURL, "--ca", certs.caFile,
                    "--listen", "127.0.0.1:\(port)", "--capacity", "1GiB", "--json",
                ] + tls + (publicURL.map { ["--public-url", $0] } ?? []),
                environment: ["MOSAIC_HOME": cli.home.path])
        }
        var blobbers = try (0..<3).map { try blobber($0, port: base + 1 + UInt16($0)) }
        defer {
            for b in blobbers {
                b.terminateBlocking(timeout: 10)
            }
        }
        var ids: [String] = []
        for b in blobbers {
            let line = try #require(await b.firstJSON(timeout: 30))
            #expect((line["url"] as? String)?.hasPrefix("https://127.0.0.1:") == true)
            ids.append(try #require(line["blobber_id"] as? String))
        }

        // Plain http to another machine is refused unless --insecure says so.
        let plain = try await cli.run(["network", "add", "lan", "http://10.231.0.1:7100"])
        #expect(plain.code != 0)
        #expect(plain.err.contains("--insecure") && plain.err.contains("not encrypted"), "\(plain.err)")
        #expect(try await cli.run(["network", "add", "lan", "http://10.231.0.1:7100", "--insecure"]).code == 0)

        let added = try await cli.run(["network", "add", "tls", nodeURL, "--ca", certs.caFile, "--json"])
        #expect(added.code == 0, "\(added.err)")
        #expect(try await cli.run(["network", "use", "tls"]).code == 0)
        #expect(try await cli.run(["wallet", "create"]).code == 0)
        let poured = try await cli.run(["wallet", "faucet"])
        #expect(poured.code == 0, "\(poured.err)")
        let made = try await cli.run(["alloc", "new", "--data", "2", "--parity", "1", "--size", "16MiB", "--expire", "1d", "--json"])
        #expect(made.code == 0, "\(made.err)")
        let file = cli.home.appendingPathComponent("f")
        let content = Data((0..<(3 << 20)).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 7) })
        try content.write(to: file)
        let up = try await cli.run(["upload", file.path, "/f"])
        #expect(up.code == 0, "\(up.err)")
        let back = cli.home.appendingPathComponent("g")
        let down = try await cli.run(["download", "/f", back.path])
        #expect(down.code == 0, "\(down.err)")
        #expect(try Data(contentsOf: back) == content)

        // A client whose network does not name the CA is refused, and told what to do.
        var stranger = try CLIRunner()
        stranger.environment["MOSAIC_PASSPHRASE"] = "correct horse"
        defer { stranger.cleanup() }
        #expect(try await stranger.run(["network", "add", "tls", nodeURL]).code == 0)
        #expect(try await stranger.run(["wallet", "create"]).code == 0)
        let refused = try await stranger.run(["wallet", "faucet"])
        #expect(refused.code != 0)
        #expect(refused.err.contains("certificate rejected") && refused.err.contains("--ca FILE"), "\(refused.err)")

        // Blobber 0 moves: restarted on a new port with a new --public-url, it updates its ledger
        // record, and a download that needs it (blobber 1 stopped) finds it there.
        #expect(await blobbers[0].terminate(timeout: 10) == 0)
        let moved = "https://localhost:\(base + 4)"
        blobbers[0] = try blobber(0, port: base + 4, publicURL: moved)
        #expect(try #require(await blobbers[0].firstJSON(timeout: 30))["url"] as? String == moved)
        #expect(try await ledger.storageBlobber(ids[0])?.url == moved)
        #expect(await blobbers[1].terminate(timeout: 10) == 0)
        try? FileManager.default.removeItem(at: back)
        let again = try await cli.run(["download", "/f", back.path])
        #expect(again.code == 0, "\(again.err)")
        #expect(try Data(contentsOf: back) == content)
    }
}

/// A node listening on IPv6: it says its bracketed URL, and a client's network on that URL works.
@Suite(.timeLimit(.minutes(2))) struct IPv6NodeTests: DevnetCLITesting {
    @Test func aNodeOnIPv6LoopbackServesTheCLI() async throws {
        let cli = try cli()
        defer { cli.cleanup() }
        let port = freeLoopbackPorts(1)
        let node = try MosaicProcess(
            [
                "node", "--dir", cli.home.appendingPathComponent("node").path, "--listen", "[::1]:\(port)", "--block-time", "100ms",
                "--confirmations", "1", "--quiet", "--json",
            ], environment: ["MOSAIC_HOME": cli.home.path])
        defer { node.terminateBlocking(timeout: 10) }
        let url = "http://[::1]:\(port)"
        #expect(try #require(await node.firstJSON(timeout: 60))["node"] as? String == url)
        #expect(try await cli.run(["network", "add", "v6", url]).code == 0)
        #expect(try await cli.run(["wallet", "create"]).code == 0)
        let pour = try await cli.run(["wallet", "faucet", "--json"])
        #expect(pour.code == 0, "\(pour.err)")
        let balance = try await cli.run(["wallet", "balance", "--json"])
        #expect((balance.json["balance"] as? Int ?? 0) > 0, "\(balance.out) \(balance.err)")
    }
}
