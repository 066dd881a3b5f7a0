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

    /// The producer lease (issue 14 §2): on one database exactly one connection holds it; the
    /// holder keeps it when asking again; when the holder's session ends (a killed or closed
    /// producer) the next one that asks gets it. A SQLite file has one writer: it always holds it.
    @Test func exactlyOneConnectionHoldsTheProducerLeaseUntilItsSessionEnds() throws {
        let net = try TestNet()
        #expect(try net.ledger.locked { _, store throws(LedgerError) in try? store.holdProducerLease() } == true)
        guard TestLedgerDatabase.isPostgres else { return }
        let database = try TestLedgerDatabase.forDirectory(net.directory)
        let first = try database.open(directory: net.directory, reader: true)
        let second = try database.open(directory: net.directory, reader: true)
        defer { second.close() }
        // The ledger's own writer connection holds it now.
        #expect(try first.holdProducerLease() == false)
        #expect(try second.holdProducerLease() == false)
        net.ledger.close()
        #expect(try Self.acquires(first))
        #expect(try first.holdProducerLease() == true)
        #expect(try second.holdProducerLease() == false)
        first.close()
        #expect(try Self.acquires(second))
    }

    /// What a node sharing the database reads each tick: every pending hash, and the rows of the
    /// hashes it does not hold, still in arrival order; a hash no longer pending is left out.
    @Test func pendingHashesAndTheRowsOfChosenHashesAreWhatWasAccepted() throws {
        let net = try TestNet()
        let txs = (1...3).map { net.transfer(net.alice, to: net.bob, UInt64($0) * token, nonce: UInt64($0)) }
        for tx in txs { try net.ledger.submit(tx) }
        let absent = String(repeating: "cd", count: 32)
        let (hashes, rows) = try net.ledger.locked { _, store throws(LedgerError) in
            do {
                return (try store.pendingHashes(), try store.pendingTransactions([txs[2].hash, absent, txs[0].hash]))
            } catch { throw .storage("\(error)") }
        }
        #expect(Set(hashes) == Set(txs.map(\.hash)))
        #expect(rows.map(\.hash) == [txs[0].hash, txs[2].hash])
        #expect(try rows.map { try BinaryBatch.decode(Data($0.bytes)).first?.hash } == [txs[0].hash, txs[2].hash])
        #expect(rows.allSatisfy { $0.round == 0 })
    }

    /// Asks until the lease is granted (or gives up after many asks): PostgreSQL frees a closed
    /// session's locks as its backend exits, a moment after the client closed it.
    static func acquires(_ store: any LedgerStore) throws -> Bool {
        for _ in 0..<1000 {
            if try store.holdProducerLease() { return true }
            usleep(10_000)
        }
        return false
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
