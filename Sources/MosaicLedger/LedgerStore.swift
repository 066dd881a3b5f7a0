import Foundation
import MosaicErrors
import MosaicPostgres
import MosaicProtocol

/// The ledger's database: schema, reads and the writes of one block, behind one interface so the
/// engine runs the same on an embedded SQLite file (`SQLiteLedgerStore`) and on a PostgreSQL
/// server (`PostgresLedgerStore`). All SQL lives in the implementations.
///
/// A store is one connection: not thread-safe by itself. The writer lives in `LedgerState` and is
/// used only while holding its mutex; views take their own from `ReaderPool`.
///
/// Semantics both keep: a block and everything it changes are written inside one `transaction`;
/// `readTransaction` sees one committed snapshot while the writer commits; `insert(block:)`
/// accepts only a block that extends the stored head, checked inside the same transaction, so a
/// writer with a stale idea of the head can never fork the chain.
package protocol LedgerStore: AnyObject {
    func close()

    /// Runs `body` in one write transaction: committed when it returns, rolled back when it
    /// throws. Nested calls join the outer transaction.
    func transaction<R>(_ body: () throws -> R) throws -> R
    /// Runs `body` in one read-only snapshot. Must not be nested in `transaction`.
    func readTransaction<R>(_ body: () throws -> R) throws -> R

    /// Takes or keeps the producer lease: true while this connection is the one allowed to make
    /// blocks on the database (issue 14 §2). Only a lease, not the protection: `insert(block:)`'s
    /// head check inside the block's transaction still refuses a block from a stalled former
    /// holder. Called again by the holder, it stays held (it does not stack).
    func holdProducerLease() throws -> Bool
    /// How long this connection may sit idle (or idle inside a transaction) before the database
    /// ends its session, and with it the lease: a holder that is paused or hung, not dead, then
    /// loses the lease too, and its next command finds the session gone (issue 14 §2).
    func setLeaseTimeout(_ timeout: Duration) throws
    /// True when other nodes may write the same database (PostgreSQL): the ledger then follows
    /// the stored head and the shared `pending` table. False for the embedded SQLite file, whose
    /// one writer is this ledger, so nothing is re-read.
    var isShared: Bool { get }

    // Meta: small named values (genesis, clock offset, recovery records).
    func meta(_ key: String) throws -> String?
    func setMeta(_ key: String, _ value: String) throws
    func deleteMeta(_ key: String) throws

    // State.
    func account(_ id: String) throws -> AccountState?
    func contractValue(_ contract: String, _ key: String) throws -> [UInt8]?
    /// The first rows of `range` in the committed contract state, in UTF-8 byte order.
    func scan(_ contract: String, _ range: KeyRange, limit: Int) throws -> [ContractEntry]
    /// What `key` held at the end of `round`, when it changed after that round: `.some(old)`
    /// (old nil if it did not exist then); nil when it has not changed since.
    func valueBeforeChanges(_ contract: String, _ key: String, after round: UInt64) throws -> [UInt8]??
    /// Whether any key of `contract` changed after `round` (if not, current state is that round's).
    func hasChanges(_ contract: String, after round: UInt64) throws -> Bool
    /// For every key of `range` between `low` and `high` (inclusive) changed after `round`, its
    /// value at the end of `round` (nil: absent).
    func undoOverlay(_ contract: String, _ range: KeyRange, after round: UInt64, low: String, high: String) throws
        -> [String: [UInt8]?]
    /// Records the value `key` holds before `round` changes it (once per key and round).
    func recordUndo(_ contract: String, _ key: String, round: UInt64) throws
    /// Forgets history of rounds up to `round`: reads as of earlier rounds are then refused.
    func pruneUndo(through round: UInt64, contracts: [String]) throws
    /// Sum of all balances, checked for overflow (`.max` when it overflows: corruption).
    func balanceSum() throws -> (sum: UInt64, accounts: Int)

    // Blocks.
    func latestBlock() throws -> Block?
    /// Round of the latest block with transactions.
    func lastNonEmptyRound() throws -> UInt64?
    func block(round: UInt64) throws -> Block?
    func blocks(before round: UInt64, limit: Int) throws -> [Block]
    func block(hash: String) throws -> Block?

    // Transactions.
    func transactionExists(_ hash: String) throws -> Bool
    func transaction(_ hash: String, chainID: String) throws -> (Transaction, TransactionReceipt)?
    /// Round of an included transaction, without decoding it.
    func round(of hash: String) throws -> UInt64?
    func transactions(of clientID: String, limit: Int, offset: Int, chainID: String) throws -> [(Transaction, TransactionReceipt)]
    /// How many included transactions `clientID` sent or received.
    func transactionCount(of clientID: String) throws -> Int
    func transactions(inRound round: UInt64, limit: Int, offset: Int, chainID: String) throws -> [(Transaction, TransactionReceipt)]
    func isExpired(_ hash: String) throws -> Bool
    /// Which of `hashes` are included in a block, and which were recorded as expired.
    func knownHashes(_ hashes: [String]) throws -> (included: Set<String>, expired: Set<String>)
    func expired(_ hash: String) throws -> Transaction?

    // Writing a block (inside one `transaction` opened by the caller).
    /// Stores `block`; round 0 only into an empty chain, any other only on top of the stored head
    /// (`LedgerStoreError.notOnHead` otherwise).
    func insert(block: Block) throws
    /// Stores a block's transactions with their receipts, in block order.
    func insert(transactions: [StoredTransaction]) throws
    func upsert(accounts: [(id: String, state: AccountState)]) throws
    func setContractValue(_ contract: String, _ key: String, _ value: [UInt8]?) throws
    /// A block's contract changes: first each key's value before `round` goes into the undo log
    /// (`recordUndo`), then its new value is written (nil deletes). Each key appears once.
    func write(contractChanges: [ContractChange], round: UInt64) throws

    // The pending pool.
    /// Keeps an accepted transaction (its canonical bytes and signature) until a block includes it.
    func insertPending(_ rows: [(tx: Transaction, seq: UInt64, round: UInt64)]) throws
    func removePending(_ hashes: [String]) throws
    /// Pending transactions in arrival order with the round each was accepted at.
    func pendingTransactions() throws -> [(hash: String, round: UInt64, bytes: [UInt8])]
    /// Every pending hash: what a node sharing the database compares its pool with each tick,
    /// fetching only the rows it does not hold (`pendingTransactions(_:)`).
    func pendingHashes() throws -> [String]
    /// The pending rows of `hashes` that are still there, in arrival order.
    func pendingTransactions(_ hashes: [String]) throws -> [(hash: String, round: UInt64, bytes: [UInt8])]
    /// Records transactions that left the pool unincluded (a hash listed twice is recorded once).
    func insertExpired(_ txs: [Transaction], round: UInt64) throws
    /// Forgets expired transactions created before `cutoff`: admission refuses their
    /// `creation_date` by now, so the record is no longer what keeps them out.
    func pruneExpired(createdBefore cutoff: Int64) throws
}

/// One key's new value in a block (nil: deleted).
package struct ContractChange {
    let contract: String
    let key: String
    let value: [UInt8]?
}

/// One included transaction as a block stores it.
package struct StoredTransaction {
    let tx: Transaction
    let receipt: TransactionReceipt
    /// The receipt's events as JSON, nil when there are none.
    let eventsJSON: String?
}

extension LedgerStore {
    func upsert(account id: String, _ a: AccountState) throws { try upsert(accounts: [(id, a)]) }
    func removePending(_ hash: String) throws { try removePending([hash]) }
    func insertPending(_ tx: Transaction, seq: UInt64, round: UInt64) throws { try insertPending([(tx, seq, round)]) }
}

/// Where a ledger keeps its state.
package enum LedgerDatabase: Sendable, Equatable, CustomStringConvertible {
    /// `ledger.sqlite` (WAL) in the ledger's directory: the embedded default.
    case sqlite
    /// A PostgreSQL database, by `postgres://user@host:port/database` URL (or libpq `key=value`
    /// string). The ledger's tables live in it; the directory still holds genesis.json.
    case postgres(url: String)

    /// Opens a connection; `reader` skips the schema (the writer made it).
    func open(directory: String, reader: Bool) throws -> any LedgerStore {
        switch self {
        case .sqlite: return try SQLiteLedgerStore(path: LedgerDatabase.sqlitePath(in: directory), reader: reader)
        case .postgres(let url): return try PostgresLedgerStore(url: url, reader: reader)
        }
    }

    /// The SQLite file of a ledger in `directory`.
    package static func sqlitePath(in directory: String) -> String {
        (directory as NSString).appendingPathComponent("ledger.sqlite")
    }

    /// For messages: the file, or the URL without its password.
    package var description: String {
        switch self {
        case .sqlite: return "SQLite"
        case .postgres(let url): return "PostgreSQL at \(PostgresConnection.redact(url))"
        }
    }
}

/// What a store itself refuses (beyond its database's own errors).
package enum LedgerStoreError: CodedError, Sendable, Equatable {
    /// A block that does not extend the stored head: another writer moved it, or this one is stale.
    case notOnHead(round: UInt64, previousHash: String)
    /// A round, nonce or sequence number past what a 63-bit SQL integer holds.
    case outOfRange(UInt64)

    package var code: String {
        switch self {
        case .notOnHead: return "ledger_store.not_on_head"
        case .outOfRange: return "ledger_store.out_of_range"
        }
    }

    package var description: String {
        switch self {
        case .notOnHead(let round, let previous):
            return "block \(round) (after \(previous.prefix(16))…) does not extend the stored chain head; it was not written"
        case .outOfRange(let value): return "\(value) does not fit a 63-bit SQL integer"
        }
    }
}
