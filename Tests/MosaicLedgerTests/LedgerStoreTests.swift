import Foundation
import MosaicCrypto
import MosaicProtocol
import MosaicTestSupport
import Testing

@testable import MosaicLedger

/// What both stores promise beyond the engine's own tests (which run on each store in turn,
/// `MOSAIC_LEDGER_STORE`): the head guard inside the block's transaction, and how a ledger on a
/// database it cannot reach fails.
@Suite struct LedgerStoreTests {
    /// A block written by a writer with a stale head: refused by the store inside the transaction,
    /// and nothing else of that transaction stays.
    @Test func aBlockThatDoesNotExtendTheStoredHeadIsRefusedAndNothingIsWritten() throws {
        let net = try TestNet()
        // The run is on the store it was asked for: on PostgreSQL no SQLite file appears.
        #expect(FileManager.default.fileExists(atPath: LedgerDatabase.sqlitePath(in: net.directory)) == !TestLedgerDatabase.isPostgres)
        let head = try net.ledger.produceBlock()
        let forks = [
            // The next round on top of a block that is not the head.
            Block(
                round: head.round + 1, previousHash: String(repeating: "ab", count: 32), timestamp: head.timestamp,
                transactionRoot: Block.merkleRoot([]), stateRoot: head.stateRoot, transactionCount: 0, minerID: net.genesis.nodeID),
            // A second block for the head's own round (a stalled writer's twin).
            Block(
                round: head.round, previousHash: head.previousHash, timestamp: head.timestamp + 1,
                transactionRoot: Block.merkleRoot([]), stateRoot: head.stateRoot, transactionCount: 0, minerID: net.genesis.nodeID),
            // A block further on than the next round.
            Block(
                round: head.round + 2, previousHash: head.hash, timestamp: head.timestamp,
                transactionRoot: Block.merkleRoot([]), stateRoot: head.stateRoot, transactionCount: 0, minerID: net.genesis.nodeID),
        ]
        for fork in forks {
            let refusal: LedgerStoreError? = try net.ledger.locked { _, store throws(LedgerError) in
                do {
                    try store.transaction {
                        try store.setMeta("fork_probe", "written")
                        try store.insert(block: fork)
                    }
                    return nil
                } catch let e as LedgerStoreError {
                    return e
                } catch {
                    throw .storage("\(error)")
                }
            }
            #expect(refusal == .notOnHead(round: fork.round, previousHash: fork.previousHash))
            #expect(try net.ledger.locked { _, store throws(LedgerError) in try? store.meta("fork_probe") } == nil)
        }
        #expect(try net.ledger.block(round: head.round) == head)
        #expect(try net.ledger.block(round: head.round + 1) == nil)
        // The real next block still goes on the head.
        #expect(try net.ledger.produceBlock().previousHash == head.hash)
    }

    /// `--db` naming a server that is not there: the open fails with a storage error at once and
    /// the directory gets no SQLite file instead.
    @Test func aLedgerOnAnUnreachablePostgresFailsToOpenWithAStorageError() throws {
        let dir = NSTemporaryDirectory() + "mosaic-store-test-" + Hex.encode(Random.bytes(6))
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let url = "postgresql://postgres@127.0.0.1:\(freeLoopbackPorts(1))/mosaic?connect_timeout=5"
        var failure: LedgerError?
        do {
            let ledger = try Ledger(directory: dir, database: .postgres(url: url))
            ledger.close()
        } catch {
            failure = error
        }
        guard case .storage = try #require(failure) else {
            Issue.record("expected a storage error, got \(String(describing: failure))")
            return
        }
        #expect(!FileManager.default.fileExists(atPath: LedgerDatabase.sqlitePath(in: dir)))
    }
}
