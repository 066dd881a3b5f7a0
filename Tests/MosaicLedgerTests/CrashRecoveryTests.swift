import Foundation
import MosaicCrypto
import MosaicProtocol
import Testing

@testable import MosaicLedger

/// The bisection of docs/PROTOCOL.md §2.7, step by step: the execution record a dying process
/// leaves behind is written here by hand, then the ledger reopened as after the crash. The
/// real crash, with a contract that traps, is `PoisonedTransactionTests` (MosaicNodeTests).
@Suite struct CrashRecoveryTests {
    /// Submits `count` transfers alice→bob, bob→alice alternating, all in the pool.
    static func pending(_ net: TestNet, _ count: Int) throws -> [Transaction] {
        var nonces: [UInt64] = [0, 0]
        var txs: [Transaction] = []
        for i in 0..<count {
            let s = i % 2
            nonces[s] += 1
            txs.append(net.transfer(s == 0 ? net.alice : net.bob, to: s == 0 ? net.bob : net.alice, UInt64(i + 1), nonce: nonces[s]))
        }
        for tx in txs { try net.ledger.submit(tx) }
        return txs
    }

    /// What a process leaves when it dies inside block `round` (the record was committed first).
    static func die(_ net: TestNet, in record: ExecutionRecord) throws {
        try net.ledger.locked { _, store throws(LedgerError) in try net.ledger.writeExecutionRecord(record, store) }
        try net.reopen()
    }

    @Test func aBlockThatDiedRunsAgainInHalvesEachInItsOwnBlock() throws {
        let net = try TestNet(confirmations: 1)
        let txs = try Self.pending(net, 5)
        let round = net.ledger.latestBlock.round + 1
        try Self.die(net, in: ExecutionRecord(round: round, hashes: txs.map(\.hash), bisecting: false, phase: .transactions))
        #expect(net.ledger.recovery.groups == [Array(txs.prefix(2)).map(\.hash), Array(txs.suffix(3)).map(\.hash)])
        // Recovery is durable: a second restart before any block keeps it, with nothing new.
        try net.reopen()
        #expect(net.ledger.recovery.groups.count == 2)
        let first = try net.ledger.produceBlock()
        #expect(first.transactionCount == 2)
        let second = try net.ledger.produceBlock()
        #expect(second.transactionCount == 3)
        #expect(!net.ledger.recovery.isRecovering)
        for tx in txs { #expect(try net.ledger.transaction(tx.hash)?.receipt?.outcome == .success) }
        try net.reopen()
        #expect(net.ledger.recovery == RecoveryState())
        #expect(try net.ledger.supply().isConserved)
    }

    @Test func aGroupOfOneThatDiedIsIncludedAsFailedAndTheSendersNextRuns() throws {
        let net = try TestNet(confirmations: 1)
        let txs = try Self.pending(net, 4)
        // The bisection reached [alice's nonce 1] alone, and it died again.
        try Self.die(
            net,
            in: ExecutionRecord(round: net.ledger.latestBlock.round + 1, hashes: txs.map(\.hash), bisecting: false, phase: .transactions))
        try Self.die(
            net,
            in: ExecutionRecord(
                round: net.ledger.latestBlock.round + 1, hashes: [txs[0].hash, txs[1].hash], bisecting: true, phase: .transactions))
        #expect(net.ledger.recovery.groups.first == [txs[0].hash])
        try Self.die(
            net, in: ExecutionRecord(round: net.ledger.latestBlock.round + 1, hashes: [txs[0].hash], bisecting: true, phase: .transactions))
        #expect(net.ledger.recovery.setAside == [txs[0].hash])
        #expect(net.ledger.recovery.groups == [[txs[1].hash], [txs[2].hash, txs[3].hash]])
        let alice = try net.balance(net.alice)
        let bob = try net.balance(net.bob)

        let aside = try net.ledger.produceBlock()
        #expect(aside.transactionCount == 1)
        let record = try #require(try net.ledger.transaction(txs[0].hash))
        #expect(record.receipt?.outcome == .failure)
        #expect(record.receipt?.error?.message == Ledger.setAsideReason)
        #expect(record.receipt?.error?.code == "set_aside")
        // Fee and nonce are taken as for any failed transaction; its value did not move.
        #expect(try net.balance(net.alice) == alice - net.genesis.minimumFee)
        #expect(try net.balance(net.bob) == bob)
        #expect(try net.nonce(net.alice) == 1)
        while net.ledger.recovery.isRecovering { try net.ledger.produceBlock() }
        for tx in txs.dropFirst() { #expect(try net.ledger.transaction(tx.hash)?.receipt?.outcome == .success) }
        #expect(try net.nonce(net.alice) == 2)
        #expect(try net.ledger.supply().isConserved)
    }

    @Test func suspectsNeitherRunInNormalBlocksNorExpireWhileBisected() throws {
        let net = try TestNet(confirmations: 1, expiryBlocks: 1)
        let txs = try Self.pending(net, 2)
        try Self.die(
            net,
            in: ExecutionRecord(round: net.ledger.latestBlock.round + 1, hashes: txs.map(\.hash), bisecting: false, phase: .transactions))
        let carol = net.transfer(net.carol, to: net.alice, 1, nonce: 1)
        // Carol has nothing: refused, so the pool holds only the suspects and normal production waits.
        #expect(rejection { try net.ledger.submit(carol) }?.code == "insufficient_balance")
        let one = try net.ledger.produceBlock()
        #expect(one.transactionCount == 1)
        #expect(try net.ledger.transaction(txs[1].hash)?.status == .pending)
        try net.ledger.produceBlock()
        #expect(try net.ledger.transaction(txs[1].hash)?.receipt?.outcome == .success)
    }

    /// The hook's marker is written apart from the record (a few bytes per hook, not the hashes again).
    @Test func aHookThatDiedIsSkippedForAWhileAndTheTransactionsRun() throws {
        let net = try TestNet(confirmations: 1)
        let txs = try Self.pending(net, 3)
        let round = net.ledger.latestBlock.round + 1
        try net.ledger.locked { _, store throws(LedgerError) in
            do { try store.setMeta(Ledger.executingHookKey, "\(round) storage") } catch { throw .storage("\(error)") }
        }
        try Self.die(net, in: ExecutionRecord(round: round, hashes: txs.map(\.hash), bisecting: false, phase: .transactions))
        #expect(net.ledger.recovery.skippedHooks == ["storage": round + Ledger.hookSkipRounds])
        #expect(!net.ledger.recovery.isRecovering)
        try net.ledger.produceBlock()
        for tx in txs { #expect(try net.ledger.transaction(tx.hash)?.receipt?.outcome == .success) }
    }

    @Test func aSetAsideBlockThatDiedDropsItsTransactionsForGood() throws {
        let net = try TestNet(confirmations: 1)
        let txs = try Self.pending(net, 2)
        try Self.die(
            net, in: ExecutionRecord(round: net.ledger.latestBlock.round + 1, hashes: [txs[0].hash], bisecting: false, phase: .transactions)
        )
        try Self.die(
            net, in: ExecutionRecord(round: net.ledger.latestBlock.round + 1, hashes: [txs[0].hash], bisecting: false, phase: .setAside))
        #expect(!net.ledger.recovery.isRecovering)
        #expect(try net.ledger.transaction(txs[0].hash)?.status == .expired)
        #expect(rejection { try net.ledger.submit(txs[0]) }?.code == "already_expired")
        try net.ledger.produceBlock()
        #expect(try net.ledger.transaction(txs[1].hash)?.receipt?.outcome == .success)
    }

    /// A block that commits leaves no record: an ordinary restart recovers nothing.
    @Test func aCommittedBlockLeavesNoRecord() throws {
        let net = try TestNet(confirmations: 1)
        _ = try Self.pending(net, 3)
        try net.ledger.produceBlock()
        #expect(
            try net.ledger.locked { _, store throws(LedgerError) in
                do { return try store.meta(Ledger.executingKey) } catch { throw .storage("\(error)") }
            } == nil)
        try net.reopen()
        #expect(net.ledger.recovery == RecoveryState())
    }
}
