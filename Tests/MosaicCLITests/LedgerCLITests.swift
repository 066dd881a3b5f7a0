import Foundation
import MosaicTestSupport
import Testing

/// The wallet's ledger commands and `mosaic devnet`, run as real processes against a devnet
/// started by the test in the CLI's own home folder.
@Suite(.timeLimit(.minutes(3))) struct LedgerCLITests: DevnetCLITesting {
    /// The devnet these tests run: its defaults (blobbers, web app, confirmations), blocks on demand.
    func devnet(_ cli: CLIRunner) async throws -> CLIDevnet {
        try await devnet(cli, blobbers: nil, blockTime: "0", confirmations: nil, app: true)
    }

    @Test func devnetJSONListsItsRegisteredServersAndStopsOnSIGTERM() async throws {
        let cli = try cli()
        defer { cli.cleanup() }
        let p = try MosaicProcess(
            [
                "devnet", "--dir", cli.home.appendingPathComponent("dn").path, "--port", "0",
                "--app-port", "0", "--json",
            ],
            environment: ["MOSAIC_HOME": cli.home.path])
        // A bound on a hung start only: on a loaded 2-core box six blobber registrations took 11 s.
        let line = try #require(await p.firstLine(timeout: 60))
        let json = try #require((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any])
        #expect(Set(json.keys) == ["node", "nodes", "app", "blobbers", "dir"])
        #expect(json["app"] is String, "the web app starts with the devnet unless --no-app")
        // Six blobbers by default, each registered on the ledger before the line is printed.
        let blobbers = try #require(json["blobbers"] as? [String])
        #expect(blobbers.count == 6)
        #expect(blobbers.allSatisfy { $0.hasPrefix("http://127.0.0.1:") })
        #expect(json["dir"] as? String == cli.home.appendingPathComponent("dn").path)
        let node = try #require(json["node"] as? String)
        #expect(node.hasPrefix("http://127.0.0.1:"))
        // One node on SQLite by default: `nodes` lists it alone.
        #expect(json["nodes"] as? [String] == [node])
        // The network is registered and current.
        let shown = try await cli.run(["network", "show", "--json"])
        #expect(shown.json["name"] as? String == "devnet")
        #expect(shown.json["node"] as? String == node)
        let registered = try Data(contentsOf: try #require(URL(string: node + "/v1/storage/blobbers")))
        let urls = ((try JSONSerialization.jsonObject(with: registered) as? [String: Any])?["blobbers"] as? [[String: Any]])?.compactMap {
            $0["url"] as? String
        }
        #expect(Set(urls ?? []) == Set(blobbers))
        let info = try Data(contentsOf: try #require(URL(string: node + "/v1/network")))
        #expect(String(decoding: info, as: UTF8.self).contains("mosaic-devnet"))
        #expect(await p.terminate(timeout: 10) == 0)
    }

    @Test func balanceFaucetSendTxnsAndTx() async throws {
        let cli = try cli()
        defer { cli.cleanup() }
        let net = try await devnet(cli)
        defer { net.stopBlocking(timeout: 10) }
        let node = net.node
        let a = try await cli.run(["wallet", "create", "--name", "a", "--json"]).json
        let b = try await cli.run(["wallet", "create", "--name", "b", "--json"]).json
        let aID = try #require(a["client_id"] as? String)
        let bID = try #require(b["client_id"] as? String)

        let empty = try await cli.run(["wallet", "balance", "--json"])
        #expect(empty.code == 0)
        #expect(empty.json["balance"] as? Int == 0)

        let pour = try await cli.run(["wallet", "faucet", "--json"])
        #expect(pour.code == 0, "\(pour.err)")
        #expect(pour.json["status"] as? String == "sealed")
        #expect((pour.json["hash"] as? String)?.count == 64)
        #expect(pour.json["explorer_url"] as? String == node + "/explorer/tx/" + (pour.json["hash"] as? String ?? ""))

        let bal = try await cli.run(["wallet", "balance", "--json"]).json
        #expect(bal["client_id"] as? String == aID)
        #expect(bal["balance"] as? Int == 10_000_000_000)
        #expect(bal["tokens"] as? String == "1")
        #expect(bal["usd"] as? String == "0.10")
        let text = try await cli.run(["wallet", "balance"])
        #expect(text.out.contains("1 MSC"))
        #expect(text.out.contains("$0.10"))

        let sent = try await cli.run(["wallet", "send", "--to", bID, "--amount", "0.25", "--desc", "lunch", "--json"])
        #expect(sent.code == 0, "\(sent.err)")
        #expect(sent.json["status"] as? String == "sealed")
        #expect(sent.json["value"] as? Int == 2_500_000_000)
        #expect(sent.json["tokens"] as? String == "0.25")
        let hash = try #require(sent.json["hash"] as? String)
        #expect(try await cli.run(["wallet", "balance", "--json"]).json["balance"] as? Int == 7_499_000_000)
        #expect(try await cli.run(["wallet", "balance", "--wallet", "b", "--json"]).json["balance"] as? Int == 2_500_000_000)
        let human = try await cli.run(["wallet", "send", "--to", bID, "--amount", "0.1"])
        #expect(human.code == 0)
        #expect(human.out.contains("transaction: "))
        #expect(human.out.contains("status:      sealed"))
        #expect(human.out.contains(node + "/explorer/tx/"))

        let txns = try await cli.run(["wallet", "txns", "--json"]).json
        #expect(txns["total"] as? Int == 3)
        let list = try #require(txns["transactions"] as? [[String: Any]])
        #expect(list[1]["hash"] as? String == hash)
        #expect(list[1]["description"] as? String == "lunch")
        let page = try await cli.run(["wallet", "txns", "--limit", "1", "--offset", "1", "--json"]).json
        #expect((page["transactions"] as? [[String: Any]])?.first?["hash"] as? String == hash)
        let table = try await cli.run(["wallet", "txns"])
        #expect(table.out.contains("HASH"))
        #expect(table.out.contains("-0.25"))
        #expect(table.out.contains("of 3"))

        let shown = try await cli.run(["wallet", "tx", hash, "--wait", "sealed", "--json"]).json
        #expect(shown["status"] as? String == "sealed")
        #expect(shown["to_client_id"] as? String == bID)
        #expect(shown["fee"] as? Int == 1_000_000)
        // The nonce, output hash and signature are shown, in the JSON and in the text.
        let signature = try #require(shown["signature"] as? String)
        #expect(signature.count == 128 && shown["nonce"] != nil && shown["output_hash"] as? String != nil)
        let shownText = try await cli.run(["wallet", "tx", hash])
        #expect(shownText.out.contains("lunch"))
        #expect(shownText.out.contains("signature:") && shownText.out.contains(signature) && shownText.out.contains("nonce:"))
        let unknown = try await cli.run(["wallet", "tx", String(repeating: "0", count: 64)])
        #expect(unknown.code == 1)
        #expect(unknown.err.contains("unknown"))
    }

    @Test func sendRefusesBeforeBroadcasting() async throws {
        let cli = try cli()
        defer { cli.cleanup() }
        let net = try await devnet(cli)
        defer { net.stopBlocking(timeout: 10) }
        let a = try await cli.run(["wallet", "create", "--name", "a", "--json"]).json
        let b = try await cli.run(["wallet", "create", "--name", "b", "--json"]).json
        let aID = try #require(a["client_id"] as? String)
        let bID = try #require(b["client_id"] as? String)
        #expect(try await cli.run(["wallet", "faucet"]).code == 0)
        let before = try await cli.run(["wallet", "balance", "--json"]).json
        let cases: [([String], String)] = [
            (["--to", bID, "--amount", "1.2.3"], "invalid amount"),
            (["--to", "nope", "--amount", "1"], "invalid address"),
            (["--to", bID, "--amount", "0"], "amount cannot be zero"),
            (["--to", bID, "--amount", "5"], "amount cannot be greater than balance"),
            (["--to", aID, "--amount", "0.5"], "cannot send to own wallet"),
        ]
        for (args, message) in cases {
            let r = try await cli.run(["wallet", "send"] + args)
            #expect(r.code == 1, "\(args)")
            #expect(r.err.hasPrefix("error: " + message), "\(r.err)")
        }
        let after = try await cli.run(["wallet", "balance", "--json"]).json
        #expect(after["nonce"] as? Int == before["nonce"] as? Int)
        #expect(after["balance"] as? Int == before["balance"] as? Int)
        #expect(try await cli.run(["wallet", "txns", "--json"]).json["total"] as? Int == 1)
        #expect(try await cli.run(["wallet", "balance", "--wallet", "b", "--json"]).json["balance"] as? Int == 0)
    }

    @Test func networkSelectionAndUnreachableNode() async throws {
        let cli = try cli()
        defer { cli.cleanup() }
        let net = try await devnet(cli)
        defer { net.stopBlocking(timeout: 10) }
        let node = net.node
        #expect(try await cli.run(["wallet", "create", "--name", "a"]).code == 0)
        #expect(try await cli.run(["network", "add", "dead", "http://127.0.0.1:9"]).code == 0)
        let dead = try await cli.run(["wallet", "balance", "--network", "dead"])
        #expect(dead.code == 1)
        #expect(dead.err.contains("cannot reach the node at http://127.0.0.1:9"))
        #expect(try await cli.run(["network", "use", "dead"]).code == 0)
        #expect(try await cli.run(["wallet", "balance"]).code == 1)
        #expect(try await cli.run(["network", "use", "devnet"]).code == 0)
        #expect(try await cli.run(["wallet", "balance"]).code == 0)
        // A network listing a dead node first and the devnet's after it: commands go on through the live one.
        let both = try await cli.run(["network", "add", "both", "http://127.0.0.1:9", node, "--json"])
        #expect(both.code == 0, "\(both.err)")
        #expect(both.json["fallback_nodes"] as? [String] == [node])
        let through = try await cli.run(["wallet", "balance", "--network", "both", "--json"])
        #expect(through.code == 0, "\(through.err)")
        #expect(through.json["balance"] as? Int == 0)
        let list = try await cli.run(["network", "list", "--json"]).json
        #expect(list["current"] as? String == "devnet")
        #expect(((list["networks"] as? [[String: Any]]) ?? []).contains { $0["node"] as? String == node })
        let advanced = try await cli.run(["devnet", "time", "advance", "2h", "--json"])
        #expect(advanced.code == 0, "\(advanced.err)")
        #expect(advanced.json["offset_seconds"] as? Int == 7200)
    }

    /// `mosaic node --db` naming a PostgreSQL server that is not there stops at once with an error
    /// that names the database, never its password, and leaves no SQLite file in the directory.
    @Test func nodeOnAnUnreachableDatabaseFailsClearlyWithoutItsPassword() async throws {
        let cli = try cli()
        defer { cli.cleanup() }
        let dir = cli.home.path + "/node"
        let url = "postgres://mosaic:hunter2secret@127.0.0.1:\(freeLoopbackPorts(1))/ledger?connect_timeout=5"
        let r = try await cli.run(["node", "--dir", dir, "--db", url, "--port", "0", "--quiet"])
        #expect(r.code == 1)
        #expect(r.err.contains("PostgreSQL at postgres://mosaic:***@127.0.0.1"), "\(r.err)")
        #expect(!r.err.contains("hunter2secret"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/ledger.sqlite"))
        let bad = try await cli.run(["node", "--dir", dir, "--db", "mysql://x"])
        #expect(bad.code == 2, "\(bad.err)")
        #expect(bad.err.contains("--db mysql://x: give sqlite or postgres://USER@HOST:PORT/DATABASE"))
    }
}
