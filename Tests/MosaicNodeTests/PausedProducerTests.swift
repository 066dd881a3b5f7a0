import Foundation
import MosaicCrypto
import MosaicLedger
import MosaicProtocol
import MosaicSDK
import MosaicTestSupport
import Testing

/// Issue 14 §2: a producer that is paused, not dead (SIGSTOP: its TCP connection and so its
/// PostgreSQL session stay up), loses the lease when its session times out; another node takes
/// over, and when the paused one resumes (SIGCONT) it makes no block: every block after the
/// takeover is signed by the new producer, and the chain re-executes as one.
@Suite(.sharedDatabase, .timeLimit(.minutes(4)))
struct PausedProducerTests {
    @Test func aProducerPausedUntilAnotherTookTheLeaseMakesNoBlockWhenItResumes() async throws {
        let root = NSTemporaryDirectory() + "mosaic-paused-" + Hex.encode(Random.bytes(6))
        defer { try? FileManager.default.removeItem(atPath: root) }
        let dirs = [root + "/a", root + "/b"]
        var keys: [String] = []
        for d in dirs {
            try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
            keys.append(try Ledger.nodeKey(directory: d).publicKey.hex)
        }
        let alice = try testKey(21)
        var genesis = Genesis(chainID: "mosaic-paused", allocations: [alice.publicKey.clientID: 100 * token])
        genesis.confirmations = 1
        genesis.producers = keys
        let genesisFile = root + "/genesis.json"
        try genesis.write(to: genesisFile)
        let database = try TestLedgerDatabase.url(for: dirs[0])
        func node(_ dir: String) throws -> MosaicProcess {
            try MosaicProcess([
                "node", "--dir", dir, "--db", database, "--genesis", genesisFile, "--port", "0", "--block-time", "200ms",
                "--quiet", "--json",
            ])
        }
        let a = try node(dirs[0])
        defer {
            a.signal(SIGCONT)
            a.terminateBlocking(timeout: 10)
        }
        let urlA = try #require((await a.firstJSON(timeout: 60)?["node"] as? String).flatMap(URL.init(string:)))
        let b = try node(dirs[1])
        defer { b.terminateBlocking(timeout: 10) }
        let urlB = try #require((await b.firstJSON(timeout: 60)?["node"] as? String).flatMap(URL.init(string:)))
        /// Whether A and B hold the lease as given (false while a health read fails).
        func leases(_ a: Bool, _ b: Bool) -> Bool {
            (try? NodeHealth.read(urlA).producer) == a && (try? NodeHealth.read(urlB).producer) == b
        }
        #expect(try await eventually(every: .milliseconds(100)) { leases(true, false) })

        let wallet = Wallet(signingKey: alice, client: LedgerClient(baseURLs: [urlB]))
        let bob = try testKey(22).publicKey.clientID
        let first = try await wallet.send(to: bob, amount: "1", fee: "0.001")
        #expect(try await wallet.wait(for: first.hash, until: .sealed, timeout: .seconds(60)).status == .sealed)

        // Paused: its session idles until PostgreSQL ends it, and the lease with it.
        a.signal(SIGSTOP)
        #expect(
            try await eventually(every: .milliseconds(100)) { (try? NodeHealth.read(urlB).producer) == true },
            "the other node never took the lease")
        let during = try await wallet.send(to: bob, amount: "1", fee: "0.001")
        #expect(try await wallet.wait(for: during.hash, until: .sealed, timeout: .seconds(60)).status == .sealed)

        // Resumed: it finds its session gone, asks again and follows.
        a.signal(SIGCONT)
        #expect(try await eventually(every: .milliseconds(100)) { leases(false, true) })
        let resumedWallet = Wallet(signingKey: alice, client: LedgerClient(baseURLs: [urlA]))
        let after = try await resumedWallet.send(to: bob, amount: "1", fee: "0.001")
        #expect(try await resumedWallet.wait(for: after.hash, until: .sealed, timeout: .seconds(60)).status == .sealed)

        // The chain: A's blocks, then B's, never A's again; and it re-executes as one.
        let client = LedgerClient(baseURLs: [urlB])
        let head = try await client.latestBlock().block.round
        var producers: [String] = []
        for round in 1...head { producers.append(try await client.block(round: round).block.producer) }
        let firstOfB = try #require(producers.firstIndex(of: keys[1]), "no block by the node that took over")
        #expect(producers[..<firstOfB].allSatisfy { $0 == keys[0] })
        #expect(producers[firstOfB...].allSatisfy { $0 == keys[1] }, "the paused node made a block after it lost the lease")
        let verify = try MosaicProcess(["node", "verify", "--from", urlB.absoluteString, "--json"])
        let report = await verify.firstJSON(timeout: 60)
        #expect(report?["agrees"] as? Bool == true, "\(report ?? [:])")
        #expect(await verify.waitForExit(timeout: 30) == 0)
        #expect(try await client.account(bob).balance == 3 * token)
    }
}
