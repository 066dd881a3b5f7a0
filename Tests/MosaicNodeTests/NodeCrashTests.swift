import Foundation
import MosaicCrypto
import MosaicLedger
import MosaicProtocol
import MosaicSDK
import MosaicTestSupport
import Synchronization
import Testing

/// SIGKILL of the real `mosaic node` binary in the middle of a burst of transfers: after a
/// restart on the same directory every transaction reported finalized is still there and the
/// total supply is unchanged.
@Suite(.timeLimit(.minutes(5))) struct NodeCrashTests {
    @Test func sigkillMidBurstLosesNothingFinalized() async throws {
        let dir = NSTemporaryDirectory() + "mosaic-node-crash-" + Hex.encode(Random.bytes(6))
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let keys = [try testKey(11), try testKey(12)]
        let genesis = Genesis(
            chainID: "mosaic-crash",
            allocations: [
                keys[0].publicKey.clientID: 1_000_000 * token,
                keys[1].publicKey.clientID: 1_000_000 * token,
            ])
        let genesisFile = dir + "/genesis-in.json"
        try genesis.write(to: genesisFile)
        let ledgerDir = dir + "/ledger"
        let args =
            ["node", "--dir", ledgerDir, "--port", "0", "--block-time", "100ms", "--quiet", "--json"]
            + (try TestLedgerDatabase.nodeArguments(for: ledgerDir))

        let first = try MosaicProcess(args + ["--genesis", genesisFile])
        let ready = try #require(await first.firstJSON(timeout: 30))
        let url = try #require((ready["node"] as? String).flatMap(URL.init(string:)))
        let client = LedgerClient(baseURL: url)

        let finalized = Mutex<[String]>([])
        let accepted = Mutex<[String]>([])
        let burst = Task {
            var nonces: [UInt64] = [0, 0]
            while !Task.isCancelled {
                var batch: [Transaction] = []
                for i in 0..<200 {
                    let s = i % 2
                    nonces[s] += 1
                    batch.append(
                        Transaction.signed(
                            by: keys[s], chainID: "mosaic-crash", to: keys[1 - s].publicKey.clientID,
                            value: UInt64(i + 1), fee: genesis.minimumFee, nonce: nonces[s],
                            creationDate: Int64(Date().timeIntervalSince1970)))
                }
                guard let results = try? await client.submit(batch: batch), results.allSatisfy({ $0.error == nil }) else { return }
                accepted.withLock { $0 += batch.map(\.hash) }
                // A sender's transactions are included in nonce order: its last one finalized means all are.
                // A loaded box may take longer than one wait: wait again until finalized (or killed).
                for last in batch.suffix(2) {
                    while true {
                        if Task.isCancelled { return }
                        if let v = try? await client.transaction(last.hash, wait: .finalized, timeout: .seconds(10)),
                            v.status == .finalized || v.status == .sealed
                        {
                            break
                        }
                    }
                }
                finalized.withLock { $0 += batch.map(\.hash) }
            }
        }
        // Kill once a good number are finalized, while the next batch is on its way. The bound is
        // for a hang only: a loaded box finalizes 2,000 in well over a minute (it had 1,400 at 60 s).
        let start = ContinuousClock.now
        while finalized.withLock({ $0.count }) < 2000 && ContinuousClock.now - start < .seconds(150) {
            try await Task.sleep(for: .milliseconds(20))
        }
        try await Task.sleep(for: .milliseconds(Int.random(in: 0...80)))
        first.signal(SIGKILL)
        #expect(await first.waitForExit(timeout: 10) != nil)
        burst.cancel()
        _ = await burst.value
        let reported = finalized.withLock { $0 }
        #expect(reported.count >= 2000)

        let second = try MosaicProcess(args)
        let again = try #require(await second.firstJSON(timeout: 30))
        let url2 = try #require((again["node"] as? String).flatMap(URL.init(string:)))
        let client2 = LedgerClient(baseURL: url2)
        var lost = 0
        for h in reported {
            let status = try? await client2.transaction(h).status
            if status != .finalized && status != .sealed { lost += 1 }
        }
        #expect(lost == 0)
        // Every transaction the node accepted (202) before the kill is still known after it, and sealed in the end.
        let acceptedHashes = accepted.withLock { $0 }
        var unknown = 0
        for h in acceptedHashes where (try? await client2.transaction(h)) == nil { unknown += 1 }
        #expect(unknown == 0, "accepted transactions forgotten by the restart")
        if let last = acceptedHashes.last {
            let v = try await client2.transaction(last, wait: .sealed, timeout: .seconds(20))
            #expect(v.status == .sealed)
        }
        let supply = try await client2.supply()
        #expect(supply.totalSupply == 2_000_000 * token + genesis.faucet.supply)
        #expect(supply.isConserved)
        // The restarted node stops cleanly on SIGTERM.
        #expect(await second.terminate(timeout: 10) == 0)
    }
}
