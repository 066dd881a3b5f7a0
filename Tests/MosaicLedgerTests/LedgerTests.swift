import Foundation
import MosaicCrypto
import MosaicProtocol
import MosaicTestSupport
import Testing

@testable import MosaicLedger

@Suite(.timeLimit(.minutes(1))) struct LedgerTests {
    @Test func transferIsIncludedWithExactBalancesAndFee() throws {
        let net = try TestNet()
        let fee = net.genesis.minimumFee
        let tx = net.transfer(net.alice, to: net.carol, 15 * token / 10, nonce: 1)
        try net.ledger.submit(tx)
        #expect(try net.ledger.transaction(tx.hash)?.status == .pending)
        let block = try net.ledger.produceBlock()
        #expect(block.round == 1)
        #expect(block.transactionCount == 1)
        #expect(block.transactionRoot == Block.merkleRoot([tx.hash]))
        #expect(block.hash == block.computedHash)
        #expect(try net.balance(net.alice) == 100 * token - 15 * token / 10 - fee)
        #expect(try net.balance(net.carol) == 15 * token / 10)
        #expect(try net.ledger.account(net.genesis.nodeID).balance == fee)
        #expect(try net.nonce(net.alice) == 1)
        let record = try #require(try net.ledger.transaction(tx.hash))
        #expect(record.status == .finalized)
        #expect(record.receipt?.outcome == .success)
        #expect(record.receipt?.blockHash == block.hash)
        #expect(record.receipt?.outputHash == Ledger.outputHash(tx.hash, .success, nil, record.receipt?.output ?? ""))
        #expect(record.transaction == tx)
        #expect(try net.ledger.block(hash: block.hash) == block)
        #expect(try net.ledger.block(round: 1) == block)
        #expect(try net.ledger.transactions(inRound: 1).map(\.transaction.hash) == [tx.hash])
        #expect(try net.ledger.supply().isConserved)
    }

    @Test func nonceRulesNextWaitingStaleAndTooFar() throws {
        let net = try TestNet()
        try net.ledger.submit(net.transfer(net.alice, to: net.bob, token, nonce: 1))
        // 10 ahead of the next nonce (2) waits in the pool; 11 ahead is refused.
        let waiting = net.transfer(net.alice, to: net.bob, token, nonce: 12)
        try net.ledger.submit(waiting)
        let tooFar = rejection { try net.ledger.submit(net.transfer(net.alice, to: net.bob, token, nonce: 13)) }
        #expect(tooFar == .nonceTooFarAhead(nonce: 13, next: 2, maxAhead: 10))
        try net.ledger.produceBlock()
        #expect(try net.nonce(net.alice) == 1)
        #expect(try net.ledger.transaction(waiting.hash)?.status == .pending)
        // Fill the gap: everything up to 12 is included in the next block, in nonce order.
        for n in UInt64(2)...11 { try net.ledger.submit(net.transfer(net.alice, to: net.bob, token, nonce: n)) }
        let block = try net.ledger.produceBlock()
        #expect(block.transactionCount == 11)
        #expect(try net.nonce(net.alice) == 12)
        #expect(try net.ledger.transaction(waiting.hash)?.status == .finalized)
        #expect(try net.ledger.transactions(inRound: block.round).map(\.transaction.nonce) == Array(2...12))
        let stale = rejection { try net.ledger.submit(net.transfer(net.alice, to: net.bob, 2 * token, nonce: 7)) }
        #expect(stale == .staleNonce(nonce: 7, next: 13))
        #expect(stale?.description == "nonce 7 already used; next is 13")
        #expect(stale?.code == "stale_nonce")
        #expect(try net.ledger.nextNonce(for: net.alice.publicKey.clientID) == 13)
        // Replaying an included transaction is a duplicate.
        let replay = net.transfer(net.alice, to: net.bob, token, nonce: 7)
        #expect(rejection { try net.ledger.submit(replay) } == .duplicate(hash: replay.hash))
    }

    @Test func invalidSubmissionsAreRejectedAndChangeNothing() throws {
        let net = try TestNet()
        let good = net.transfer(net.alice, to: net.bob, token, nonce: 1)
        try net.ledger.submit(good)
        let before = (
            try net.ledger.account(net.alice.publicKey.clientID), try net.ledger.account(net.bob.publicKey.clientID),
            net.ledger.pendingCount
        )

        var badSig = net.transfer(net.alice, to: net.bob, token, nonce: 2)
        badSig.signature = String(badSig.signature.dropLast(2)) + (badSig.signature.hasSuffix("00") ? "01" : "00")
        #expect(rejection { try net.ledger.submit(badSig) } == .invalidSignature)

        var altered = net.transfer(net.alice, to: net.bob, token, nonce: 2)
        altered.value = 99 * token
        #expect(rejection { try net.ledger.submit(altered) } == .invalidHash)

        var forged = net.transfer(net.carol, to: net.bob, token, nonce: 1)
        forged.clientID = net.alice.publicKey.clientID
        #expect(rejection { try net.ledger.submit(forged) } == .keyMismatch)

        let wrongChain = net.transfer(net.alice, to: net.bob, token, nonce: 2, chainID: "mosaic-other")
        #expect(rejection { try net.ledger.submit(wrongChain) } == .wrongChain(expected: "mosaic-test", got: "mosaic-other"))

        let fee = net.genesis.minimumFee
        let overdraft = net.transfer(net.alice, to: net.bob, 99 * token, nonce: 2)
        #expect(
            rejection { try net.ledger.submit(overdraft) } == .insufficientBalance(needed: 99 * token + fee, available: 99 * token - fee))

        let cheap = net.transfer(net.alice, to: net.bob, token, fee: 1, nonce: 2)
        #expect(rejection { try net.ledger.submit(cheap) } == .feeTooLow(minimum: fee, got: 1))

        var badAddress = net.transfer(net.alice, to: net.bob, token, nonce: 2)
        badAddress.toClientID = "not-an-address"
        badAddress.sign(with: net.alice)
        #expect(rejection { try net.ledger.submit(badAddress) }?.code == "malformed")

        let zero = net.transfer(net.alice, to: net.bob, 0, nonce: 2)
        #expect(rejection { try net.ledger.submit(zero) }?.code == "malformed")

        #expect(rejection { try net.ledger.submit(good) } == .duplicate(hash: good.hash))

        let unknown = Transaction.signed(
            by: net.alice, chainID: "mosaic-test", to: ContractCall.address(of: "faucet"), value: 0,
            fee: fee, nonce: 2, type: .contractCall,
            data: ContractCall(contract: "faucet", method: "drain").json, creationDate: net.now)
        #expect(rejection { try net.ledger.submit(unknown) }?.code == "unknown_contract")

        let after = (
            try net.ledger.account(net.alice.publicKey.clientID), try net.ledger.account(net.bob.publicKey.clientID),
            net.ledger.pendingCount
        )
        #expect(before == after)
        try net.ledger.produceBlock()
        #expect(try net.balance(net.bob) == 51 * token)
        #expect(try net.ledger.supply().isConserved)
    }

    @Test func faucetPoursUntilItsLimitThenSaysWhen() throws {
        let clock = LedgerClock(source: { 1_900_000_000_000 })
        let net = try TestNet(
            faucet: FaucetConfig(pourAmount: token, accountLimit: 2 * token, accountWindowSeconds: 3600),
            clock: clock)
        let fresh = try testKey(9)
        try net.ledger.submit(net.pour(fresh, nonce: 1))
        try net.ledger.submit(net.pour(fresh, nonce: 2))
        try net.ledger.produceBlock()
        #expect(try net.balance(fresh) == 2 * token)

        // The third pour pays a fee, fails in execution, and is recorded as failed with the fee charged.
        let fee = net.genesis.minimumFee
        let third = net.pour(fresh, nonce: 3, fee: fee)
        try net.ledger.submit(third)
        try net.ledger.produceBlock()
        let record = try #require(try net.ledger.transaction(third.hash))
        #expect(record.receipt?.outcome == .failure)
        #expect(record.receipt?.error?.code == "rate_limited")
        #expect(
            record.receipt?.error?.message
                == "faucet limit reached for this account; next pour possible at 2030-03-17T18:46:40Z (in 3600 s)")
        #expect(try net.balance(fresh) == 2 * token - fee)
        #expect(try net.nonce(fresh) == 3)

        let status = try net.faucetStatus(fresh.publicKey.clientID)
        #expect(status.pouredInWindow == 2 * token)
        #expect(status.nextPourAt == 1_900_003_600)
        try net.ledger.advanceClock(by: 3600)
        #expect(try net.faucetStatus(fresh.publicKey.clientID).nextPourAt == nil)
        let fourth = net.pour(fresh, nonce: 4)
        try net.ledger.submit(fourth)
        try net.ledger.produceBlock()
        #expect(try net.ledger.transaction(fourth.hash)?.receipt?.outcome == .success)
        #expect(try net.ledger.transaction(fourth.hash)?.receipt?.events.first?.name == "pour")
        #expect(try net.balance(fresh) == 3 * token - fee)
        let supply = try net.ledger.supply()
        #expect(supply.isConserved)
        #expect(supply.faucetRemaining == net.genesis.faucet.supply - 3 * token)
    }

    @Test func sealedAfterConfirmationsAndExpiredWhenNeverIncluded() throws {
        let net = try TestNet(confirmations: 3, expiryBlocks: 5)
        let tx = net.transfer(net.alice, to: net.bob, token, nonce: 1)
        let gapped = net.transfer(net.bob, to: net.alice, token, nonce: 2)
        try net.ledger.submit(tx)
        try net.ledger.submit(gapped)
        try net.ledger.produceBlock()
        for expected: TransactionStatus in [.finalized, .finalized, .sealed] {
            try net.ledger.produceBlock()
            let record = try net.ledger.transaction(tx.hash)
            #expect(record?.status == expected)
        }
        #expect(try net.ledger.transaction(gapped.hash)?.status == .pending)
        try net.ledger.produceBlock()
        #expect(try net.ledger.transaction(gapped.hash)?.status == .expired)
        #expect(net.ledger.pendingCount == 0)
        // The expired transaction's reservation is released: bob can spend everything again.
        try net.ledger.submit(net.transfer(net.bob, to: net.alice, 50 * token - net.genesis.minimumFee, nonce: 1))
    }

    @Test func waitReturnsAtOnceWhenReachedAndCurrentStatusOnTimeout() async throws {
        let net = try TestNet(confirmations: 2)
        let tx = net.transfer(net.alice, to: net.bob, token, nonce: 1)
        try net.ledger.submit(tx)
        let start = ContinuousClock.now
        #expect(await net.ledger.wait(for: tx.hash, until: .finalized, timeout: .milliseconds(200)) == .pending)
        #expect(ContinuousClock.now - start >= .milliseconds(150))
        try net.ledger.produceBlock()
        #expect(await net.ledger.wait(for: tx.hash, until: .finalized, timeout: .seconds(30)) == .finalized)
        #expect(await net.ledger.wait(for: String(repeating: "0", count: 64), until: .sealed, timeout: .seconds(30)) == nil)

        // A waiter is resumed by the block that seals the transaction, long before its timeout
        // (60 s). The bound only tells "woken by the block" from "woken by the timeout": other
        // suites' blocking calls can hold the 2-thread cooperative pool for seconds.
        let ledger = net.ledger
        async let sealed = ledger.wait(for: tx.hash, until: .sealed, timeout: .seconds(60))
        try await Task.sleep(for: .milliseconds(50))
        try ledger.produceBlock()
        try ledger.produceBlock()
        let began = ContinuousClock.now
        #expect(await sealed == .sealed)
        #expect(ContinuousClock.now - began < .seconds(30))
    }

    @Test func blockTimerZeroSealsSubmittedTransactions() async throws {
        let net = try TestNet(confirmations: 3)
        net.ledger.start(blockTime: .zero)
        let tx = net.transfer(net.alice, to: net.bob, token, nonce: 1)
        try net.ledger.submit(tx)
        #expect(await net.ledger.wait(for: tx.hash, until: .sealed, timeout: .seconds(20)) == .sealed)
        net.ledger.stop()
        #expect(net.ledger.latestBlock.round == 4)
    }

    @Test func blockTimerMakesBlocksOnlyWhileThereIsWork() async throws {
        let net = try TestNet(confirmations: 2)
        net.ledger.start(blockTime: .milliseconds(20))
        try await Task.sleep(for: .milliseconds(100))
        #expect(net.ledger.latestBlock.round == 0)
        let tx = net.transfer(net.alice, to: net.bob, token, nonce: 1)
        try net.ledger.submit(tx)
        #expect(await net.ledger.wait(for: tx.hash, until: .sealed, timeout: .seconds(20)) == .sealed)
        let round = net.ledger.latestBlock.round
        try await Task.sleep(for: .milliseconds(150))
        #expect(net.ledger.latestBlock.round == round)
        net.ledger.stop()
    }

    @Test func reopeningKeepsEverythingCommitted() throws {
        let net = try TestNet()
        var hashes: [String] = []
        for n in UInt64(1)...5 {
            let tx = net.transfer(net.alice, to: net.carol, token, nonce: n)
            try net.ledger.submit(tx)
            hashes.append(tx.hash)
            try net.ledger.produceBlock()
        }
        try net.ledger.advanceClock(by: 120)
        let latest = net.ledger.latestBlock
        let alice = try net.ledger.account(net.alice.publicKey.clientID)
        try net.reopen()
        #expect(net.ledger.latestBlock == latest)
        #expect(try net.ledger.blocks(limit: 3).map(\.round) == [5, 4, 3])
        #expect(try net.ledger.blocks(before: 2).map(\.round) == [1, 0])
        #expect(try net.ledger.account(net.alice.publicKey.clientID) == alice)
        #expect(try net.balance(net.carol) == 5 * token)
        #expect(try net.ledger.transactions(of: net.carol.publicKey.clientID).map(\.transaction.hash) == hashes.reversed())
        #expect(
            try net.ledger.transactions(of: net.alice.publicKey.clientID, limit: 2, offset: 1).map(\.transaction.hash)
                == [hashes[3], hashes[2]])
        #expect(net.ledger.clock.offsetSeconds == 120)
        // The chain continues from the stored block.
        try net.ledger.submit(net.transfer(net.alice, to: net.carol, token, nonce: 6))
        let next = try net.ledger.produceBlock()
        #expect(next.previousHash == latest.hash)
        #expect(try net.ledger.supply().isConserved)
    }

    @Test func pendingTransactionsSurviveAReopenAndAreIncludedAfterIt() throws {
        let net = try TestNet()
        let txs = (UInt64(1)...3).map { net.transfer(net.alice, to: net.carol, token, nonce: $0) }
        #expect(net.ledger.submit(Array(txs.prefix(2))).allSatisfy { $0 == nil })
        try net.ledger.submit(txs[2])
        try net.reopen()
        for tx in txs { #expect(try net.ledger.transaction(tx.hash)?.status == .pending) }
        #expect(try net.ledger.nextNonce(for: net.alice.publicKey.clientID) == 4)
        let block = try net.ledger.produceBlock()
        #expect(block.transactionCount == 3)
        #expect(try net.balance(net.carol) == 3 * token)
        // Included transactions leave the pending table: a second reopen finds nothing to redo.
        try net.reopen()
        #expect(try net.ledger.produceBlock().transactionCount == 0)
        #expect(try net.ledger.transaction(txs[0].hash)?.status == .finalized)
    }

    @Test func memoTextSurvivesStorageExactly() throws {
        let net = try TestNet()
        let memo = "café ☕ \u{0}after-nul \"quoted\""
        let tx = Transaction.signed(
            by: net.alice, chainID: "mosaic-test", to: net.bob.publicKey.clientID, value: token,
            fee: net.genesis.minimumFee, nonce: 1, data: memo, creationDate: net.now - 5)
        try net.ledger.submit(tx)
        try net.ledger.produceBlock()
        try net.reopen()
        let stored = try #require(try net.ledger.transaction(tx.hash)).transaction
        #expect(stored == tx)
        try stored.verify()
    }

    @Test func concurrentSubmittersAllGetSealed() async throws {
        let net = try TestNet(confirmations: 1)
        net.ledger.start(blockTime: .zero)
        let senders = [net.alice, net.bob]
        let ledger = net.ledger
        let genesis = net.genesis
        let created = net.now
        let hashes = try await withThrowingTaskGroup(of: [String].self) { group in
            for (i, key) in senders.enumerated() {
                let to = senders[(i + 1) % senders.count].publicKey.clientID
                group.addTask {
                    var out: [String] = []
                    for n in UInt64(1)...25 {
                        let tx = Transaction.signed(
                            by: key, chainID: genesis.chainID, to: to, value: 1000, fee: genesis.minimumFee,
                            nonce: n, creationDate: created)
                        try ledger.submit(tx)
                        out.append(tx.hash)
                    }
                    return out
                }
            }
            var all: [String] = []
            for try await h in group { all += h }
            return all
        }
        #expect(hashes.count == 50)
        for h in hashes {
            #expect(await ledger.wait(for: h, until: .sealed, timeout: .seconds(20)) == .sealed)
        }
        ledger.stop()
        #expect(try net.nonce(net.alice) == 25)
        #expect(try net.nonce(net.bob) == 25)
        #expect(try ledger.supply().isConserved)
    }

    @Test func reopeningWithAnotherChainFails() throws {
        let net = try TestNet()
        net.ledger.close()
        var other = net.genesis
        other.chainID = "mosaic-elsewhere"
        #expect(throws: LedgerError.self) {
            _ = try Ledger(directory: net.directory, database: try TestLedgerDatabase.forDirectory(net.directory), genesis: other)
        }
        net.ledger = try Ledger(directory: net.directory, database: try TestLedgerDatabase.forDirectory(net.directory))
        #expect(net.ledger.genesis.chainID == "mosaic-test")
        // The genesis as given, with the producer the new chain filled in: this node's key.
        var written = net.genesis
        written.producers = [try Ledger.nodeKey(directory: net.directory).publicKey.hex]
        #expect(try Genesis.load(from: net.directory + "/genesis.json") == written)
    }

    /// A batch reads which hashes the chain knows once and writes its pending rows together; each
    /// transaction still gets its own answer, and the accepted ones survive a restart.
    @Test func batchAdmissionRefusesKnownAndRepeatedHashesAndKeepsTheRestDurable() throws {
        let net = try TestNet(confirmations: 1, expiryBlocks: 1)
        let included = net.transfer(net.alice, to: net.bob, token, nonce: 1)
        let gapped = net.transfer(net.bob, to: net.alice, token, nonce: 2)
        try net.ledger.submit(included)
        try net.ledger.submit(gapped)
        try net.ledger.produceBlock()
        try net.ledger.produceBlock()
        #expect(try net.ledger.transaction(gapped.hash)?.status == .expired)
        let pooled = net.transfer(net.alice, to: net.carol, token, nonce: 2)
        try net.ledger.submit(pooled)
        let fresh = [
            net.transfer(net.alice, to: net.carol, token, nonce: 3), net.transfer(net.bob, to: net.carol, token / 2, nonce: 1),
        ]
        let results = net.ledger.submit([included, fresh[0], gapped, pooled, fresh[1], fresh[0]])
        #expect(results.map { $0?.code } == ["duplicate", nil, "already_expired", "duplicate", nil, "duplicate"])
        // Refusals in the batch did not take the earlier pooled transaction out.
        #expect(try net.ledger.transaction(pooled.hash)?.status == .pending)
        net.ledger.close()
        net.ledger = try Ledger(directory: net.directory, database: try TestLedgerDatabase.forDirectory(net.directory))
        #expect(net.ledger.pendingCount == 3)
        try net.ledger.produceBlock()
        for tx in [pooled] + fresh { #expect(try net.ledger.transaction(tx.hash)?.receipt?.outcome == .success) }
        #expect(try net.ledger.supply().isConserved)
    }

    @Test func supplyIsConservedAcrossManyRandomTransfers() throws {
        let net = try TestNet()
        let keys = [net.alice, net.bob, net.carol, try testKey(4), try testKey(5)]
        var nonces = [String: UInt64]()
        var rng = SystemRandomNumberGenerator()
        for round in 0..<10 {
            var batch: [Transaction] = []
            for _ in 0..<40 {
                let from = keys[Int.random(in: 0..<keys.count, using: &rng)]
                let to = keys[Int.random(in: 0..<keys.count, using: &rng)]
                let id = from.publicKey.clientID
                let n = (nonces[id] ?? 0) + 1
                let tx = net.transfer(from, to: to, UInt64.random(in: 1...(3 * token), using: &rng), nonce: n)
                batch.append(tx)
                nonces[id] = n
            }
            let results = net.ledger.submit(batch)
            // Rejected ones (overdrafts) leave a nonce gap; rewind those senders to what the ledger expects.
            for (tx, error) in zip(batch, results) where error != nil {
                nonces[tx.clientID] = try net.ledger.nextNonce(for: tx.clientID) - 1
            }
            try net.ledger.produceBlock()
            if round % 3 == 0 {
                try net.ledger.submit(
                    net.pour(keys[round % keys.count], nonce: (nonces[keys[round % keys.count].publicKey.clientID] ?? 0) + 1))
                nonces[keys[round % keys.count].publicKey.clientID, default: 0] += 1
            }
            let supply = try net.ledger.supply()
            #expect(supply.isConserved)
        }
        try net.ledger.produceBlock()
        #expect(try net.ledger.supply().isConserved)
    }
}
