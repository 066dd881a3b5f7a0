import Foundation
import MosaicTestSupport
import Testing

/// `mosaic devnet --nodes 3 --db postgres` (issue 14 §4) as a user runs it: one process starts a
/// real PostgreSQL under its folder and three nodes on it; a transfer through the second node is
/// sealed and seen by the third; SIGTERM stops the server with the devnet; a restart on the same
/// folder resumes the chain, also after the devnet was killed and left its server running.
@Suite(.serialized, .timeLimit(.minutes(3))) struct DevnetPostgresCLITests: DevnetCLITesting {
    /// A running postgres devnet: its process and the URLs of its ready line.
    struct Net {
        let process: MosaicProcess
        let nodes: [String]
        let ready: [String: Any]
    }

    func start(_ cli: CLIRunner, _ dir: URL) async throws -> Net {
        let p = try MosaicProcess(
            [
                "devnet", "--dir", dir.path, "--nodes", "3", "--db", "postgres", "--port", "0", "--blobbers", "2", "--no-app",
                "--block-time", "200ms", "--confirmations", "1", "--json",
            ],
            environment: ["MOSAIC_HOME": cli.home.path])
        guard let ready = await p.firstJSON(timeout: 60) else {
            await p.terminate(timeout: 30)
            throw DevnetFailure("the devnet printed no ready line within 60 s")
        }
        return Net(process: p, nodes: ready["nodes"] as? [String] ?? [], ready: ready)
    }

    struct DevnetFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// SIGTERM, then the exit status (nil: still running after 30 s).
    func stop(_ net: Net) async -> Int32? {
        return await net.process.terminate(timeout: 30)
    }

    @Test func threeNodesOnOneLocalPostgresShareTheChainStopWithTheDevnetAndResumeOnRestart() async throws {
        guard try PostgresServer.installedOrSkip() else { return }
        let cli = try cli()
        let dir = cli.home.appendingPathComponent("dn")
        let cluster = dir.appendingPathComponent("postgres")
        let pidFile = cluster.appendingPathComponent("data/postmaster.pid").path
        let other = cli.home.appendingPathComponent("dn-taken-port")
        var running: Net?
        defer {
            if let running {
                running.process.signal(SIGKILL)
                _ = running.process.waitForExitBlocking(timeout: 10)
            }
            // A failed run may leave its server behind; the folder goes either way.
            PostgresServer.stopLeftover(in: cluster.path)
            PostgresServer.stopLeftover(in: other.appendingPathComponent("postgres").path)
            cli.cleanup()
        }
        let net = try await start(cli, dir)
        running = net

        // Three distinct nodes, the first also as `node`, and the same in the client config.
        #expect(net.nodes.count == 3 && Set(net.nodes).count == 3, "\(net.ready)")
        #expect(net.ready["node"] as? String == net.nodes.first)
        let config = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: cli.home.appendingPathComponent("config.json"))) as? [String: Any])
        let devnet = try #require((config["networks"] as? [[String: Any]])?.first { $0["name"] as? String == "devnet" })
        #expect(devnet["node"] as? String == net.nodes.first)
        #expect(devnet["fallback_nodes"] as? [String] == Array(net.nodes.dropFirst()))

        // One chain: the same id, genesis block and producers (all three keys) everywhere, one producer.
        let infos = try net.nodes.map { try get($0 + "/v1/network") }
        let genesis = try net.nodes.map { try get($0 + "/v1/blocks/0")["hash"] as? String }
        #expect(Set(infos.map { $0["chain_id"] as? String }).count == 1)
        #expect(genesis[0] != nil && Set(genesis).count == 1, "\(genesis)")
        let producers = infos.map { Set($0["producers"] as? [String] ?? []) }
        #expect(producers[0].count == 3 && Set(producers).count == 1, "\(producers)")
        #expect(Set(infos.compactMap { $0["node_key"] as? String }) == producers[0])
        let healths = try net.nodes.map { try get($0 + "/health")["producer"] as? Bool }
        #expect(healths.filter { $0 == true }.count == 1, "\(healths)")

        // A pour submitted through node 2 is sealed, and node 3 shows it.
        try cli.cheapWallet()
        try await ok(cli, ["network", "add", "second", net.nodes[1]])
        let pour = try await ok(cli, ["wallet", "faucet", "--network", "second"])
        let hash = try #require(pour["hash"] as? String)
        #expect(pour["status"] as? String == "sealed", "\(pour)")
        let seen = try get(net.nodes[2] + "/v1/transactions/\(hash)?wait=sealed&timeout=30")
        #expect(seen["status"] as? String == "sealed", "\(seen)")
        let round = try #require(seen["round"] as? Int)

        // SIGTERM stops the devnet and its PostgreSQL.
        #expect(await stop(net) == 0)
        running = nil
        #expect(!FileManager.default.fileExists(atPath: pidFile), "the devnet's PostgreSQL is still running")

        // The same folder again: the same cluster and chain, the pour and its round still there.
        let again = try await start(cli, dir)
        running = again
        #expect(again.nodes.count == 3)
        let after = try get(again.nodes[2] + "/v1/transactions/\(hash)")
        #expect(after["status"] as? String == "sealed" && after["round"] as? Int == round, "\(after)")
        #expect(try get(again.nodes[0] + "/v1/blocks/0")["hash"] as? String == genesis[0])
        #expect((try get(again.nodes[0] + "/health")["latest_round"] as? Int ?? 0) >= round)

        // A second devnet on the running one's folder is refused and leaves its server alone.
        let quick = ["--db", "postgres", "--nodes", "2", "--blobbers", "0", "--no-app"]
        let busy = try await cli.run(["devnet", "--dir", dir.path, "--port", "0"] + quick)
        #expect(busy.code != 0 && busy.err.contains("another running process"), "\(busy.err)")
        #expect(try get(again.nodes[1] + "/health")["latest_round"] != nil)
        // A devnet whose node cannot listen stops the PostgreSQL it had started.
        let port = try #require(URL(string: again.nodes[0])?.port)
        let taken = try await cli.run(["devnet", "--dir", other.path, "--port", String(port)] + quick)
        #expect(taken.code != 0 && taken.err.contains("cannot listen"), "\(taken.err)")
        #expect(FileManager.default.fileExists(atPath: other.appendingPathComponent("postgres/data/PG_VERSION").path))
        #expect(!FileManager.default.fileExists(atPath: other.appendingPathComponent("postgres/data/postmaster.pid").path))

        // Killed outright, the devnet leaves its server running; the next start takes it over.
        again.process.signal(SIGKILL)
        _ = await again.process.waitForExit(timeout: 30)
        running = nil
        #expect(FileManager.default.fileExists(atPath: pidFile))
        let third = try await start(cli, dir)
        running = third
        #expect(try get(third.nodes[1] + "/v1/transactions/\(hash)")["status"] as? String == "sealed")
        #expect(await stop(third) == 0)
        running = nil
        #expect(!FileManager.default.fileExists(atPath: pidFile), "the devnet's PostgreSQL is still running after the restart")
    }
}
