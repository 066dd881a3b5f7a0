import Foundation
import MosaicSDK
import MosaicTestSupport
import Testing

/// Storage end to end through real processes: `mosaic devnet` with its in-process blobbers, and
/// the `alloc`, file, `share` and `download --ticket` commands of the CLI binary.
@Suite(.serialized, .timeLimit(.minutes(4))) struct StorageCLITests: DevnetCLITesting {
    typealias Net = CLIDevnet

    @Test func allocUploadDownloadShareAndRevoke() async throws {
        let cli = try cli()
        defer { cli.cleanup() }
        let net = try await devnet(cli)
        defer { net.stopBlocking(timeout: 10) }
        #expect(net.blobbers.count == 4)
        let listed = try get(net.node + "/v1/storage/blobbers")["blobbers"] as? [[String: Any]]
        #expect(listed?.count == 4)

        try cli.cheapWallet("alice")
        try cli.cheapWallet("bob")
        try await ok(cli, ["wallet", "faucet", "--wallet", "alice"])
        try await ok(cli, ["wallet", "faucet", "--wallet", "bob"])

        let created = try await ok(
            cli,
            [
                "alloc", "new", "--wallet", "alice", "--data", "2", "--parity", "2", "--size", "16MiB",
                "--expire", "30d", "--name", "docs",
            ])
        let id = try #require(created["id"] as? String)
        #expect(created["data_shards"] as? Int == 2)
        #expect((created["blobbers"] as? [Any])?.count == 4)

        // Upload, list, download byte-exact (the allocation is the wallet's only one: no --alloc).
        let file = try randomFile(cli, "in.bin", 200_000)
        let up = try await ok(cli, ["upload", "--wallet", "alice", file.path, "/docs/in.bin"])
        #expect(up["size"] as? Int == 200_000)
        let ls = try await ok(cli, ["ls", "--wallet", "alice", "--alloc", id, "/docs"])
        let entries = try #require(ls["entries"] as? [[String: Any]])
        #expect(entries.map { $0["name"] as? String } == ["in.bin"])
        #expect(entries.first?["size"] as? Int == 200_000)
        let out = cli.home.appendingPathComponent("out.bin")
        let down = try await ok(cli, ["download", "--wallet", "alice", "/docs/in.bin", out.path])
        #expect(try Data(contentsOf: out) == Data(contentsOf: file))
        // Every blobber up: none dropped (the testnet tests see slow and cut-off ones listed).
        #expect((down["dropped"] as? [String: Any])?.isEmpty == true, "\(down)")
        let part = cli.home.appendingPathComponent("part.bin")
        try await ok(cli, ["download", "--wallet", "alice", "/docs/in.bin", part.path, "--range", "1000-1999"])
        #expect(try Data(contentsOf: part) == Data(contentsOf: file).subdata(in: 1000..<2000))

        // alloc show has every field of the seed's allocation screen.
        let shown = try await ok(cli, ["alloc", "show", id, "--wallet", "alice"])
        for key in [
            "id", "name", "expiration", "size", "used_size", "data_shards", "parity_shards", "num_writes", "num_reads",
            "successful_challenges", "failed_challenges", "latest_closed_challenge", "blobbers",
        ] {
            #expect(shown.keys.contains(key), "alloc show lacks \(key)")
        }
        #expect(shown["name"] as? String == "docs")
        let text = try await cli.run(["alloc", "show", id, "--wallet", "alice"]).out
        for label in [
            "expiration:", "used size:", "data shards:", "parity shards:", "writes:", "reads:", "successful challenges:",
            "failed challenges:", "latest closed challenge:", "blobbers:",
        ] {
            #expect(text.contains(label), "alloc show text lacks \(label)")
        }

        // Share with bob; bob downloads with the ticket; alice cannot open bob's key; revoke ends it.
        let bob = try await #require(try ok(cli, ["wallet", "show", "--wallet", "bob"])["client_id"] as? String)
        let shared = try await ok(cli, ["share", "--wallet", "alice", "/docs/in.bin", "--to", bob, "--expire", "7d"])
        let ticket = try #require(shared["ticket"] as? String)
        #expect(ticket.hasPrefix("mosaic-ticket:"))
        let got = cli.home.appendingPathComponent("bob.bin")
        try await ok(cli, ["download", "--wallet", "bob", "--ticket", ticket, got.path])
        #expect(try Data(contentsOf: got) == Data(contentsOf: file))
        await #expect(
            try fails(cli, ["download", "--wallet", "alice", "--ticket", ticket, cli.home.appendingPathComponent("x").path])
                .contains("not with this wallet"))

        // Bob paid from his read pool: the blobbers redeem his read markers from it.
        let bobTxs = try get(net.node + "/v1/accounts/\(bob)/transactions")["transactions"] as? [[String: Any]] ?? []
        let lockTx = bobTxs.first { ($0["transaction_data"] as? String ?? "").contains("lock_read_pool") }
        let locked = try #require(lockTx?["value"] as? Int)
        #expect(locked > 0)
        var redeemed = false
        for _ in 0..<100 where !redeemed {
            redeemed = (try get(net.node + "/v1/storage/read-pools/\(bob)")["balance"] as? Int ?? locked) < locked
            if !redeemed { try await Task.sleep(for: .milliseconds(150)) }
        }
        #expect(redeemed)
        // A public share as a web link (the key only after #, as the web app and a network with one
        // print it) is read by download --ticket too.
        let open = try await ok(cli, ["share", "--wallet", "alice", "/docs/in.bin"])
        #expect(open["link"] is NSNull, "no web app on this network, so no web link is printed")
        let link = try ShareToken.decode(try #require(open["ticket"] as? String)).link(
            base: try #require(URL(string: "http://127.0.0.1:7300")))
        #expect(link.contains("#key="))
        let viaLink = cli.home.appendingPathComponent("via-link.bin")
        try await ok(cli, ["download", "--wallet", "bob", "--ticket", link, viaLink.path])
        #expect(try Data(contentsOf: viaLink) == Data(contentsOf: file))

        let ticketID = try #require(shared["ticket_id"] as? String)
        try await ok(cli, ["share", "--wallet", "alice", "--revoke", ticketID])
        let revoked = try get(net.node + "/v1/storage/tickets/\(ticketID)/revoked?owner=" + (created["owner_id"] as? String ?? ""))
        #expect(revoked["revoked"] as? Bool == true)
        let again = cli.home.appendingPathComponent("again.bin")
        await #expect(try fails(cli, ["download", "--wallet", "bob", "--ticket", ticket, again.path]).contains("revoked"))
        #expect(!FileManager.default.fileExists(atPath: again.path))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: cli.home.path).filter { $0.contains(".mosaic-") }
        #expect(leftovers.isEmpty)
    }

    /// `mosaic upload` killed with SIGKILL part way, then the same command again: it continues
    /// from the bytes the blobbers kept (the journal under $MOSAIC_HOME/uploads) and the file
    /// comes back byte-exact.
    @Test func killedUploadResumesWhenTheSameCommandRunsAgain() async throws {
        let cli = try cli()
        defer { cli.cleanup() }
        let net = try await devnet(cli, blobbers: 3)
        defer { net.stopBlocking(timeout: 10) }
        try await funded(cli)
        try await ok(cli, ["alloc", "new", "--data", "2", "--parity", "1", "--size", "256MiB", "--expire", "30d"])
        let file = cli.home.appendingPathComponent("big.bin")
        let random = try #require(FileHandle(forReadingAtPath: "/dev/urandom"))
        try random.readData(ofLength: 128 << 20).write(to: file)

        // Held to 8 MiB/s, so it cannot finish (16 s) before the poll below sees its first MiBs,
        // however busy the box: unthrottled, a fast upload could end between two polls.
        let first = try MosaicProcess(
            ["upload", file.path, "/big.bin", "--json", "--limit-rate", "8MiB/s"],
            environment: ["MOSAIC_HOME": cli.home.path, "MOSAIC_PASSPHRASE": "correct horse"])
        // Kill it once the blobbers hold a few MiB of it. Only their open-upload folders are
        // listed (blobber-N/fragments/uploads/ALLOCATION/): a walk of the whole devnet folder
        // could end early on a file that vanished under it (tmp/, WAL files) and never see them.
        func partialBytes() -> Int {
            let fm = FileManager.default
            var total = 0
            for blobber in ((try? fm.contentsOfDirectory(atPath: net.dir.path)) ?? []) where blobber.hasPrefix("blobber-") {
                let uploads = net.dir.path + "/" + blobber + "/fragments/uploads"
                for allocation in (try? fm.contentsOfDirectory(atPath: uploads)) ?? [] {
                    for file in (try? fm.contentsOfDirectory(atPath: uploads + "/" + allocation)) ?? [] {
                        let size = (try? fm.attributesOfItem(atPath: uploads + "/" + allocation + "/" + file))?[.size] as? Int
                        total += size ?? 0
                    }
                }
            }
            return total
        }
        let deadline = ContinuousClock.now + .seconds(60)
        while partialBytes() < 4 << 20, first.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(first.isRunning, "the first upload was still running when the blobbers held 4 MiB of it; it printed: \(first.output)")
        first.signal(SIGKILL)
        _ = await first.waitForExit(timeout: 10)
        #expect(partialBytes() >= 4 << 20, "the blobbers kept the interrupted upload's bytes")
        let journals = try FileManager.default.contentsOfDirectory(atPath: cli.home.appendingPathComponent("uploads").path)
        #expect(journals.count == 1, "the killed upload left its journal: \(journals)")

        let again = try await ok(cli, ["upload", file.path, "/big.bin"])
        #expect(again["resumed"] as? Bool == true, "\(again)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cli.home.appendingPathComponent("uploads").path).isEmpty)
        let back = cli.home.appendingPathComponent("back.bin")
        try await ok(cli, ["download", "/big.bin", back.path])
        #expect(try Data(contentsOf: back) == Data(contentsOf: file))
    }

    @Test func filesStayReadableAfterTheDevnetRestartsOnNewPorts() async throws {
        let cli = try cli()
        defer { cli.cleanup() }
        var net = try await devnet(cli, blobbers: 3)
        try await funded(cli, "alice")
        try await ok(cli, ["alloc", "new", "--wallet", "alice", "--data", "2", "--parity", "1", "--size", "8MiB", "--expire", "30d"])
        let file = try randomFile(cli, "keep.bin", 150_000)
        try await ok(cli, ["upload", "--wallet", "alice", file.path, "/keep.bin"])
        let before = Set(net.blobbers)
        #expect(await net.stop(timeout: 20) == 0)

        // Same directory, new processes: blobbers come back on other ports and tell the ledger.
        net = try await devnet(cli, blobbers: 3)
        defer { net.stopBlocking(timeout: 10) }
        #expect(Set(net.blobbers) != before)
        let out = cli.home.appendingPathComponent("keep-out.bin")
        try await ok(cli, ["download", "--wallet", "alice", "/keep.bin", out.path])
        #expect(try Data(contentsOf: out) == Data(contentsOf: file))
        let shown = try await ok(cli, ["alloc", "show", "--wallet", "alice"])
        let urls = Set(((shown["blobbers"] as? [[String: Any]]) ?? []).compactMap { $0["url"] as? String })
        #expect(urls == Set(net.blobbers))
    }

    @Test func errorMessagesSayWhatToDo() async throws {
        let cli = try cli()
        defer { cli.cleanup() }
        let net = try await devnet(cli)
        defer { net.stopBlocking(timeout: 10) }
        try await funded(cli)

        await #expect(try fails(cli, ["upload", cli.home.path, "/x"]).contains("no active allocation"))
        let tooMany = try await fails(cli, ["alloc", "new", "--data", "4", "--parity", "2", "--size", "1MiB", "--expire", "1d"])
        #expect(tooMany.contains("not enough blobbers") && tooMany.contains("start more blobbers"))
        // Refused at the quote (no --lock), the network's code still reaches `--json`.
        let unquoted = try await cli.run(["alloc", "new", "--data", "4", "--parity", "2", "--size", "1MiB", "--expire", "1d", "--json"])
        #expect(unquoted.code == 1, "\(unquoted.err)")
        #expect((unquoted.json["error"] as? [String: Any])?["code"] as? String == "not_enough_blobbers", "\(unquoted.out)")
        let tooMuch = try await fails(
            cli, ["alloc", "new", "--data", "4", "--parity", "2", "--size", "1MiB", "--expire", "1d", "--lock", "0.5"])
        #expect(tooMuch.contains("not enough blobbers"))
        await #expect(
            try fails(cli, ["alloc", "new", "--data", "2", "--parity", "1", "--size", "1GiB", "--expire", "30d", "--lock", "0.0000000001"])
                .contains("lock at least"))
        // The receipt's code reaches `--json` and the exit code: a failure (1), not a usage mistake.
        let poor = try await cli.run(
            ["alloc", "new", "--data", "2", "--parity", "1", "--size", "1GiB", "--expire", "30d", "--lock", "0.0000000001", "--json"])
        #expect(poor.code == 1, "\(poor.err)")
        #expect((poor.json["error"] as? [String: Any])?["code"] as? String == "insufficient_value", "\(poor.out)")

        // 1 MiB on 2 data shards: each blobber holds at most 512 KiB.
        let id = try await #require(
            try ok(cli, ["alloc", "new", "--data", "2", "--parity", "1", "--size", "1MiB", "--expire", "1d"])["id"] as? String)
        let small = try randomFile(cli, "small.bin", 1000)
        try await ok(cli, ["upload", small.path, "/a/small.bin"])
        await #expect(try fails(cli, ["upload", small.path, "/a/small.bin"]).contains("already exists"))
        await #expect(try fails(cli, ["download", "/a/missing.bin", cli.home.appendingPathComponent("m").path]).contains("does not exist"))
        #expect(!FileManager.default.fileExists(atPath: cli.home.appendingPathComponent("m").path))
        await #expect(try fails(cli, ["rm", "/nothing/here"]).contains("does not exist"))

        let big = try randomFile(cli, "big.bin", 3 << 20)
        let full = try await fails(cli, ["upload", big.path, "/big.bin"])
        #expect(full.contains("full"), "\(full)")
        let names = await (try ok(cli, ["ls", "--recursive"])["entries"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
        #expect(names == ["/a", "/a/small.bin"])

        // After expiry writes are refused with what to do.
        try await ok(cli, ["devnet", "time", "advance", "2d"])
        let expired = try await fails(cli, ["upload", small.path, "/b.bin", "--alloc", id])
        #expect(expired.contains("expired") && expired.contains("alloc update"))
    }

    @Test func allocUpdateCancelAndFinalize() async throws {
        let cli = try cli()
        defer { cli.cleanup() }
        let net = try await devnet(cli, blobbers: 3)
        defer { net.stopBlocking(timeout: 10) }
        try await funded(cli)
        let a = try await ok(cli, ["alloc", "new", "--data", "2", "--parity", "1", "--size", "2MiB", "--expire", "2d"])
        let id = try #require(a["id"] as? String)
        // No --lock: the CLI locks the extra cost itself.
        let grown = try await ok(cli, ["alloc", "update", id, "--extend", "1d", "--grow", "2MiB"])
        #expect(grown["size"] as? Int == 4 << 20)
        #expect((grown["expiration"] as? Int ?? 0) - (a["expiration"] as? Int ?? 0) == 86_400)
        let canceled = try await ok(cli, ["alloc", "cancel", id])
        #expect(canceled["status"] as? String == "canceled")
        await #expect(try fails(cli, ["alloc", "update", id, "--extend", "1d"]).contains("cannot update allocation"))

        let b = try await #require(
            try ok(cli, ["alloc", "new", "--data", "1", "--parity", "1", "--size", "1MiB", "--expire", "1d"])["id"] as? String)
        await #expect(try fails(cli, ["alloc", "finalize", b]).contains("cannot finalize"))
        try await ok(cli, ["devnet", "time", "advance", "2d"])
        await #expect(try ok(cli, ["alloc", "finalize", b])["status"] as? String == "finalized")
        let list = try await #require(try ok(cli, ["alloc", "list"])["allocations"] as? [[String: Any]])
        #expect(list.compactMap { $0["status"] as? String } == ["canceled", "finalized"])
    }

    @Test func challengesPassForHeldDataAndFailForADeletedFragment() async throws {
        let cli = try cli()
        defer { cli.cleanup() }
        let net = try await devnet(cli, blobbers: 3)
        defer { net.stopBlocking(timeout: 10) }
        try await funded(cli)
        let alloc = try await ok(cli, ["alloc", "new", "--data", "2", "--parity", "1", "--size", "16MiB", "--expire", "30d"])
        let id = try #require(alloc["id"] as? String)
        let blobbers = try #require(alloc["blobbers"] as? [[String: Any]])
        let file = try randomFile(cli, "c.bin", 300_000)
        try await ok(cli, ["upload", file.path, "/c.bin"])

        // The victim: the allocation's first blobber; its folder is blobber-N in the devnet's order.
        let victimURL = try #require(blobbers.first?["url"] as? String)
        let victimID = try #require(blobbers.first?["blobber_id"] as? String)
        let n = try #require(net.blobbers.firstIndex(of: victimURL)) + 1
        let fragments = net.dir.appendingPathComponent("blobber-\(n)/fragments/alloc/\(id)")
        // Wait until the upload's write markers are on the ledger (roots are challengeable only then).
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let a = try get(net.node + "/v1/storage/allocations/\(id)")
            if (a["blobbers"] as? [[String: Any]] ?? []).allSatisfy({ ($0["used"] as? Int ?? 0) > 0 }) { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: fragments.path) {
            try FileManager.default.removeItem(at: fragments.appendingPathComponent(name))
        }

        var victim: [String: Any] = [:]
        var others: [[String: Any]] = []
        while ContinuousClock.now < deadline + .seconds(60) {
            victim = try get(net.node + "/v1/storage/blobbers/\(victimID)")
            others = try blobbers.dropFirst().map { try get(net.node + "/v1/storage/blobbers/\($0["blobber_id"] as? String ?? "")") }
            if (victim["failed_challenges"] as? Int ?? 0) > 0, others.contains(where: { ($0["successful_challenges"] as? Int ?? 0) > 0 }) {
                break
            }
            try await Task.sleep(for: .milliseconds(200))
        }
        #expect(victim["failed_challenges"] as? Int ?? 0 > 0)
        #expect(victim["penalties"] as? Int ?? 0 > 0)
        #expect(others.contains { ($0["successful_challenges"] as? Int ?? 0) > 0 })
        #expect(others.allSatisfy { ($0["failed_challenges"] as? Int ?? 0) == 0 })
        let shown = try await ok(cli, ["alloc", "show", id])
        #expect(shown["failed_challenges"] as? Int ?? 0 > 0)
        #expect(shown["successful_challenges"] as? Int ?? 0 > 0)
        #expect(!(shown["latest_closed_challenge"] is NSNull))
        // The node's /metrics says the same, per blobber: what an operator's alert watches.
        let metrics = MetricsScrape(String(decoding: try Data(contentsOf: try #require(URL(string: net.node + "/metrics"))), as: UTF8.self))
        #expect(metrics["mosaic_storage_blobber_challenges_total", ["blobber": victimID, "result": "failed"]].map { $0 > 0 } == true)
        #expect(metrics["mosaic_storage_challenges_total", ["result": "passed"]].map { $0 > 0 } == true)
        #expect(metrics["mosaic_storage_blobbers"] == 3)
    }
}
