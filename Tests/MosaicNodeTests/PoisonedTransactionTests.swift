import Foundation
import MosaicCrypto
import MosaicLedger
import MosaicProtocol
import MosaicSDK
import MosaicTestSupport
import Testing

/// The attack of issue 11 item 2, with a contract bug that still traps: one transaction kills the
/// node while it makes a block, and the restored pool would kill it again on every start. The
/// node instead records each block before running it, bisects the suspects over restarts, sets
/// the one at fault aside as failed and carries on.
@Suite(.timeLimit(.minutes(3))) struct PoisonedTransactionTests {
    @Test func aTransactionThatKillsTheNodeIsSetAsideAfterRestartsAndTheRestRun() async throws {
        let dir = NSTemporaryDirectory() + "mosaic-poison-" + Hex.encode(Random.bytes(6))
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let keys = try (0..<4).map { try testKey(UInt8(30 + $0)) }
        let attacker = try testKey(40)
        var funds = Dictionary(uniqueKeysWithValues: keys.map { ($0.publicKey.clientID, 1000 * token) })
        funds[attacker.publicKey.clientID] = 10 * token
        var genesis = Genesis(chainID: "mosaic-poison", allocations: funds)
        genesis.contracts.append("trap")  // registered by the fixture
        let genesisFile = dir + "/genesis.json"
        try genesis.write(to: genesisFile)
        let fixture = MosaicProcess.sibling("ledger-trap-fixture")
        let args = [dir + "/ledger", genesisFile]
        // With MOSAIC_LEDGER_STORE=postgres every start of the fixture opens the same database.
        let env = try TestLedgerDatabase.environment(for: dir + "/ledger")
        let trap = ContractCall.address(of: "trap")
        let now = Int64(Date().timeIntervalSince1970)

        // 11 innocent transactions around one poisoned call, all in one batch, so in one block.
        var innocent: [Transaction] = []
        var nonces = [UInt64](repeating: 0, count: keys.count)
        func next(_ i: Int) -> UInt64 {
            nonces[i] += 1
            return nonces[i]
        }
        for round in 0..<3 {
            for (i, k) in keys.enumerated() where !(round == 2 && i == 3) {
                if (round + i) % 3 == 0 {
                    innocent.append(
                        Transaction.signed(
                            by: k, chainID: genesis.chainID, to: trap, value: 0, fee: genesis.minimumFee,
                            nonce: next(i), type: .contractCall,
                            data: ContractCall(contract: "trap", method: "noop").json, creationDate: now))
                } else {
                    innocent.append(
                        Transaction.signed(
                            by: k, chainID: genesis.chainID, to: keys[(i + 1) % keys.count].publicKey.clientID,
                            value: UInt64(round + 1) * token, fee: genesis.minimumFee, nonce: next(i), creationDate: now))
                }
            }
        }
        let poisoned = Transaction.signed(
            by: attacker, chainID: genesis.chainID, to: trap, value: 0, fee: genesis.minimumFee, nonce: 1,
            type: .contractCall, data: ContractCall(contract: "trap", method: "spring").json, creationDate: now)
        // The attacker's second transaction waits behind the poisoned one and must run after it.
        let follower = Transaction.signed(
            by: attacker, chainID: genesis.chainID, to: keys[0].publicKey.clientID, value: token,
            fee: genesis.minimumFee, nonce: 2, creationDate: now)
        let batch = Array(innocent[..<5]) + [poisoned] + Array(innocent[5...]) + [follower]
        let everyInnocent = innocent + [follower]

        var node = try MosaicProcess(args, environment: env, executable: fixture)
        var client = try #require(await Self.client(node))
        // The block can start (and the process die) before the answer is sent: the batch is
        // durable once admitted, and the receipts below show every transaction was taken.
        if let results = try? await client.submit(batch: batch) { #expect(results.allSatisfy { $0.error == nil }) }

        // Each death is followed by a restart, as a supervisor would; at most about log2(13) + 1.
        var restarts = 0
        let started = ContinuousClock.now
        while ContinuousClock.now - started < .seconds(120) {
            if await node.waitForExit(timeout: 0.2) != nil {
                restarts += 1
                try #require(restarts <= 8, "the node kept dying: it crash-loops")
                node = try MosaicProcess(args, environment: env, executable: fixture)
                client = try #require(await Self.client(node))
                continue
            }
            if let view = try? await client.transaction(poisoned.hash), view.status != .pending,
                let last = try? await client.transaction(follower.hash), last.status != .pending
            {
                break
            }
        }
        #expect(restarts >= 1, "the trap never fired")
        #expect(restarts <= 5)

        // The node serves, and makes blocks again.
        let health = try await client.latestBlock()
        #expect(health.block.round > 0)
        let view = try await client.transaction(poisoned.hash, wait: .finalized, timeout: .seconds(10))
        #expect(view.outcome == .failure)
        #expect(view.error?.message == Ledger.setAsideReason)
        #expect(view.error?.reason == .setAside)
        for tx in everyInnocent {
            let v = try await client.transaction(tx.hash, wait: .finalized, timeout: .seconds(10))
            #expect(v.outcome == .success, "\(tx.hash): \(v.error?.message ?? "")")
        }
        // Fee and nonce were taken from the poisoned one like any failed transaction; nothing else moved.
        let a = try await client.account(attacker.publicKey.clientID)
        #expect(a.nonce == 2)
        #expect(a.balance == 10 * token - 2 * genesis.minimumFee - token)
        #expect(try await client.supply().isConserved)
        // New work still flows after recovery.
        let later = Transaction.signed(
            by: keys[1], chainID: genesis.chainID, to: keys[2].publicKey.clientID, value: 7, fee: genesis.minimumFee,
            nonce: nonces[1] + 1, creationDate: Int64(Date().timeIntervalSince1970))
        _ = try await client.submit(later)
        #expect(try await client.transaction(later.hash, wait: .finalized, timeout: .seconds(10)).outcome == .success)
        await node.terminate(timeout: 5)
    }

    static func client(_ node: MosaicProcess) async -> LedgerClient? {
        guard let line = await node.firstJSON(timeout: 20), let url = (line["node"] as? String).flatMap(URL.init(string:)) else {
            return nil
        }
        return LedgerClient(baseURL: url)
    }
}
