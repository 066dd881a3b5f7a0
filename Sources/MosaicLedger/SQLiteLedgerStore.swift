import Foundation
import MosaicDatabase
import MosaicProtocol

/// The ledger on one SQLite file (WAL): the embedded store of `mosaic devnet` and single-node use.
/// The writer connection lives in `LedgerState`, used only while holding it.
final class SQLiteLedgerStore: LedgerStore {
    let db: Database

    /// Opens the database; a `reader` connection skips the schema (the writer made it).
    init(path: String, reader: Bool = false) throws(DatabaseError) {
        db = try Database(path: path, synchronous: .normal)
        if reader { return }
        try db.execute(
            """
            CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS accounts(client_id TEXT PRIMARY KEY, balance BLOB NOT NULL, nonce INTEGER NOT NULL) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS blocks(round INTEGER PRIMARY KEY, hash TEXT NOT NULL UNIQUE, previous_hash TEXT NOT NULL,
                timestamp INTEGER NOT NULL, tx_root TEXT NOT NULL, state_root TEXT NOT NULL, tx_count INTEGER NOT NULL, miner_id TEXT NOT NULL,
                producer TEXT NOT NULL DEFAULT '', signature TEXT NOT NULL DEFAULT '');
            CREATE TABLE IF NOT EXISTS transactions(seq INTEGER PRIMARY KEY, hash TEXT NOT NULL UNIQUE, round INTEGER NOT NULL,
                idx INTEGER NOT NULL, client_id TEXT NOT NULL, public_key TEXT NOT NULL, to_client_id TEXT NOT NULL,
                value BLOB NOT NULL, fee BLOB NOT NULL, nonce INTEGER NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL,
                creation_date INTEGER NOT NULL, signature TEXT NOT NULL, outcome TEXT NOT NULL, error TEXT,
                output TEXT NOT NULL, output_hash TEXT NOT NULL, events TEXT);
            CREATE INDEX IF NOT EXISTS transactions_from ON transactions(client_id);
            CREATE INDEX IF NOT EXISTS transactions_to ON transactions(to_client_id);
            CREATE INDEX IF NOT EXISTS transactions_round ON transactions(round);
            CREATE TABLE IF NOT EXISTS contract_state(contract TEXT NOT NULL, key TEXT NOT NULL, value BLOB NOT NULL,
                PRIMARY KEY(contract, key)) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS contract_undo(contract TEXT NOT NULL, round INTEGER NOT NULL, key TEXT NOT NULL, old BLOB,
                PRIMARY KEY(contract, round, key)) WITHOUT ROWID;
            CREATE INDEX IF NOT EXISTS contract_undo_key ON contract_undo(contract, key, round);
            CREATE TABLE IF NOT EXISTS pending(hash TEXT PRIMARY KEY, seq INTEGER NOT NULL, round INTEGER NOT NULL, tx BLOB NOT NULL) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS expired(hash TEXT PRIMARY KEY, round INTEGER NOT NULL, tx TEXT NOT NULL) WITHOUT ROWID;
            """)
        // The creation date of an expired transaction says when its record may go (see
        // `pruneExpired`); rows from before this column are kept for ever.
        let columns = try db.prepare("SELECT name FROM pragma_table_info('expired')").query { $0.string(0) }
        if !columns.contains("creation_date") {
            try db.execute("ALTER TABLE expired ADD COLUMN creation_date INTEGER NOT NULL DEFAULT \(Int64.max)")
        }
        try db.execute("CREATE INDEX IF NOT EXISTS expired_creation ON expired(creation_date)")
        // Blocks stored before blocks were signed have no producer (docs/PROTOCOL.md §2.9).
        let blockColumns = try db.prepare("SELECT name FROM pragma_table_info('blocks')").query { $0.string(0) }
        if !blockColumns.contains("producer") {
            try db.execute(
                """
                ALTER TABLE blocks ADD COLUMN producer TEXT NOT NULL DEFAULT '';
                ALTER TABLE blocks ADD COLUMN signature TEXT NOT NULL DEFAULT '';
                """)
        }
    }

    /// A round, nonce or sequence number as an SQL integer. A valid ledger never holds one past
    /// Int64.max (nonces are checked at submission, rounds count blocks), so such a value is
    /// refused as a database error instead of trapping.
    static func integer(_ value: UInt64) throws(DatabaseError) -> DatabaseValue {
        guard let v = Int64(exactly: value) else { throw .constraint(message: "\(value) does not fit a 63-bit SQL integer") }
        return .integer(v)
    }

    func close() { db.close() }

    /// One SQLite file has one writer process (the file is the node's own), so it always holds the lease.
    func holdProducerLease() -> Bool { true }

    /// One writer, no lease to lose.
    func setLeaseTimeout(_ timeout: Duration) {}

    var isShared: Bool { false }

    func transaction<R>(_ body: () throws -> R) throws -> R { try db.transaction(body) }

    func readTransaction<R>(_ body: () throws -> R) throws -> R { try db.readTransaction(body) }

    // MARK: Meta

    func meta(_ key: String) throws(DatabaseError) -> String? {
        try db.prepare("SELECT value FROM meta WHERE key = ?1").queryOne([.text(key)]) { $0.string(0) }
    }

    func setMeta(_ key: String, _ value: String) throws(DatabaseError) {
        try db.prepare("INSERT INTO meta(key, value) VALUES(?1, ?2) ON CONFLICT(key) DO UPDATE SET value = excluded.value")
            .run(.text(key), .text(value))
    }

    func deleteMeta(_ key: String) throws(DatabaseError) {
        try db.prepare("DELETE FROM meta WHERE key = ?1").run(.text(key))
    }

    // MARK: State

    func account(_ id: String) throws(DatabaseError) -> AccountState? {
        try db.prepare("SELECT balance, nonce FROM accounts WHERE client_id = ?1").queryOne([.text(id)]) { s throws(DatabaseError) in
            AccountState(balance: try s.uint64(0), nonce: UInt64(clamping: s.int64(1)))
        }
    }

    func contractValue(_ contract: String, _ key: String) throws(DatabaseError) -> [UInt8]? {
        try db.prepare("SELECT value FROM contract_state WHERE contract = ?1 AND key = ?2")
            .queryOne([.text(contract), .text(key)]) { $0.bytes(0) }
    }

    /// The first rows of `range` in the committed contract state.
    func scan(_ contract: String, _ range: KeyRange, limit: Int) throws(DatabaseError) -> [ContractEntry] {
        let (low, lowInclusive, high) = range.seekBounds
        let sql =
            "SELECT key, value FROM contract_state WHERE contract = ?1 AND key \(lowInclusive ? ">=" : ">") ?2 AND key < ?3 ORDER BY key\(range.reverse ? " DESC" : "") LIMIT ?4"
        return try db.prepare(sql).query([.text(contract), .text(low), .text(high), .integer(Int64(limit))]) {
            ContractEntry(key: $0.string(0), value: $0.bytes(1))
        }
    }

    /// What `key` held at the end of `round`, when it changed after that round: `.some(old)`
    /// (old nil if it did not exist then); nil when it has not changed since.
    func valueBeforeChanges(_ contract: String, _ key: String, after round: UInt64) throws(DatabaseError) -> [UInt8]?? {
        try db.prepare(
            """
            SELECT old FROM contract_undo INDEXED BY contract_undo_key WHERE contract = ?1 AND key = ?2 AND round > ?3 ORDER BY round LIMIT 1
            """
        ).queryOne([.text(contract), .text(key), .integer(Int64(clamping: round))]) { $0.isNull(0) ? nil : $0.bytes(0) }
    }

    /// Whether any key of `contract` changed after `round` (if not, current state is that round's).
    func hasChanges(_ contract: String, after round: UInt64) throws(DatabaseError) -> Bool {
        try db.prepare("SELECT 1 FROM contract_undo WHERE contract = ?1 AND round > ?2 LIMIT 1")
            .queryOne([.text(contract), .integer(Int64(clamping: round))]) { _ in true } ?? false
    }

    /// For every key of `range` between `low` and `high` (inclusive) changed after `round`, its
    /// value at the end of `round` (nil: absent). Walks the key index, so the cost follows the
    /// keys in the interval, not how busy the contract was lately.
    func undoOverlay(_ contract: String, _ range: KeyRange, after round: UInt64, low: String, high: String) throws(DatabaseError)
        -> [String: [UInt8]?]
    {
        // Per key, the earliest change after `round` holds the value as of `round`.
        let rows = try db.prepare(
            """
            SELECT key, old FROM contract_undo INDEXED BY contract_undo_key
            WHERE contract = ?1 AND key >= ?2 AND key <= ?3 AND round > ?4 ORDER BY key, round DESC
            """
        ).query([.text(contract), .text(low), .text(high), .integer(Int64(clamping: round))]) { s -> (String, [UInt8]?) in
            (s.string(0), s.isNull(1) ? nil : s.bytes(1))
        }
        var out: [String: [UInt8]?] = [:]
        for (key, old) in rows where range.contains(key) { out[key] = .some(old) }
        return out
    }

    /// Records the value `key` held before `round` changed it (once per key and round).
    func recordUndo(_ contract: String, _ key: String, round: UInt64) throws(DatabaseError) {
        let old = try contractValue(contract, key)
        try db.prepare("INSERT OR IGNORE INTO contract_undo(contract, round, key, old) VALUES(?1, ?2, ?3, ?4)")
            .run(.text(contract), try Self.integer(round), .text(key), old.map { .blob($0) } ?? .null)
    }

    /// Forgets history of rounds up to `round`: reads as of earlier rounds are then refused.
    func pruneUndo(through round: UInt64, contracts: [String]) throws(DatabaseError) {
        for c in contracts {
            try db.prepare("DELETE FROM contract_undo WHERE contract = ?1 AND round <= ?2").run(.text(c), .integer(Int64(clamping: round)))
        }
        try setMeta("state_history_from", String(round))
    }

    /// Sum of all balances, checked for overflow (which would itself mean corruption).
    func balanceSum() throws(DatabaseError) -> (sum: UInt64, accounts: Int) {
        let values = try db.prepare("SELECT balance FROM accounts").query { s throws(DatabaseError) in try s.uint64(0) }
        var sum: UInt64 = 0
        for v in values {
            let (next, overflow) = sum.addingReportingOverflow(v)
            // A sum past 64 bits can only mean corruption: report the largest, which never equals the supply.
            if overflow { return (.max, values.count) }
            sum = next
        }
        return (sum, values.count)
    }

    // MARK: Blocks

    private static let blockColumns = "round, hash, previous_hash, timestamp, tx_root, state_root, tx_count, miner_id, producer, signature"

    private static func block(_ s: Statement) -> Block {
        var b = Block(
            round: UInt64(clamping: s.int64(0)), previousHash: s.string(2), timestamp: s.int64(3), transactionRoot: s.string(4),
            stateRoot: s.string(5), transactionCount: Int(clamping: s.int64(6)), minerID: s.string(7), producer: s.string(8))
        b.hash = s.string(1)
        b.signature = s.string(9)
        return b
    }

    func latestBlock() throws(DatabaseError) -> Block? {
        try db.prepare("SELECT \(Self.blockColumns) FROM blocks ORDER BY round DESC LIMIT 1").queryOne([], Self.block)
    }

    /// Any round may be asked for: one past Int64.max simply does not exist.
    func block(round: UInt64) throws(DatabaseError) -> Block? {
        guard let r = Int64(exactly: round) else { return nil }
        return try db.prepare("SELECT \(Self.blockColumns) FROM blocks WHERE round = ?1").queryOne([.integer(r)], Self.block)
    }

    func blocks(before round: UInt64, limit: Int) throws(DatabaseError) -> [Block] {
        try db.prepare("SELECT \(Self.blockColumns) FROM blocks WHERE round < ?1 ORDER BY round DESC LIMIT ?2")
            .query([.integer(Int64(clamping: round)), .integer(Int64(clamping: max(limit, 0)))], Self.block)
    }

    func lastNonEmptyRound() throws(DatabaseError) -> UInt64? {
        try db.prepare("SELECT MAX(round) FROM blocks WHERE tx_count > 0")
            .queryOne { $0.isNull(0) ? nil : UInt64(clamping: $0.int64(0)) } ?? nil
    }

    func block(hash: String) throws(DatabaseError) -> Block? {
        try db.prepare("SELECT \(Self.blockColumns) FROM blocks WHERE hash = ?1").queryOne([.text(hash)], Self.block)
    }

    // MARK: Transactions

    private static let txColumns = """
        t.hash, t.round, t.idx, t.client_id, t.public_key, t.to_client_id, t.value, t.fee, t.nonce, t.type, t.data,
        t.creation_date, t.signature, t.outcome, t.error, t.output, t.output_hash, t.events, b.hash
        """

    func transactionExists(_ hash: String) throws(DatabaseError) -> Bool {
        try db.prepare("SELECT 1 FROM transactions WHERE hash = ?1").queryOne([.text(hash)]) { _ in true } ?? false
    }

    private func stored(_ s: Statement, chainID: String) throws(DatabaseError) -> (Transaction, TransactionReceipt) {
        let tx = Transaction(
            hash: s.string(0), clientID: s.string(3), publicKey: s.string(4), toClientID: s.string(5),
            value: try s.uint64(6), fee: try s.uint64(7), nonce: UInt64(clamping: s.int64(8)),
            transactionType: TransactionType(rawValue: s.string(9)) ?? .transfer, transactionData: s.string(10),
            creationDate: s.int64(11), chainID: chainID, signature: s.string(12))
        var events: [TransactionEvent] = []
        if let text = s.optionalString(17), let decoded = try? JSONDecoder().decode([TransactionEvent].self, from: Data(text.utf8)) {
            events = decoded
        }
        let receipt = TransactionReceipt(
            transactionHash: tx.hash, blockHash: s.string(18), round: UInt64(clamping: s.int64(1)),
            index: Int(clamping: s.int64(2)), outcome: ExecutionOutcome(rawValue: s.string(13)) ?? .failure,
            error: s.optionalString(14).map(ExecutionError.init(stored:)), output: s.string(15), outputHash: s.string(16), events: events)
        return (tx, receipt)
    }

    func transaction(_ hash: String, chainID: String) throws(DatabaseError) -> (Transaction, TransactionReceipt)? {
        let st = try db.prepare("SELECT \(Self.txColumns) FROM transactions t JOIN blocks b ON b.round = t.round WHERE t.hash = ?1")
        try st.bind([.text(hash)])
        defer { st.reset() }
        guard try st.step() else { return nil }
        return try stored(st, chainID: chainID)
    }

    /// Round of an included transaction, without decoding it.
    func round(of hash: String) throws(DatabaseError) -> UInt64? {
        try db.prepare("SELECT round FROM transactions WHERE hash = ?1").queryOne([.text(hash)]) { UInt64(clamping: $0.int64(0)) }
    }

    func transactions(of clientID: String, limit: Int, offset: Int, chainID: String) throws(DatabaseError) -> [(
        Transaction, TransactionReceipt
    )] {
        let st = try db.prepare(
            """
            SELECT \(Self.txColumns) FROM transactions t JOIN blocks b ON b.round = t.round
            WHERE t.seq IN (SELECT seq FROM transactions WHERE client_id = ?1 UNION SELECT seq FROM transactions WHERE to_client_id = ?1)
            ORDER BY t.seq DESC LIMIT ?2 OFFSET ?3
            """)
        return try rows(
            st, [.text(clientID), .integer(Int64(clamping: max(limit, 0))), .integer(Int64(clamping: max(offset, 0)))], chainID: chainID)
    }

    func transactionCount(of clientID: String) throws(DatabaseError) -> Int {
        try db.prepare(
            "SELECT (SELECT COUNT(*) FROM transactions WHERE client_id = ?1) + (SELECT COUNT(*) FROM transactions WHERE to_client_id = ?1 AND client_id != ?1)"
        )
        .queryOne([.text(clientID)]) { Int($0.int64(0)) } ?? 0
    }

    func transactions(inRound round: UInt64, limit: Int, offset: Int, chainID: String) throws(DatabaseError) -> [(
        Transaction, TransactionReceipt
    )] {
        guard let r = Int64(exactly: round) else { return [] }
        let st = try db.prepare(
            """
            SELECT \(Self.txColumns) FROM transactions t JOIN blocks b ON b.round = t.round
            WHERE t.round = ?1 ORDER BY t.idx LIMIT ?2 OFFSET ?3
            """)
        return try rows(
            st, [.integer(r), .integer(Int64(clamping: max(limit, 0))), .integer(Int64(clamping: max(offset, 0)))], chainID: chainID)
    }

    private func rows(_ st: Statement, _ values: [DatabaseValue], chainID: String) throws(DatabaseError) -> [(
        Transaction, TransactionReceipt
    )] {
        try st.bind(values)
        defer { st.reset() }
        var out: [(Transaction, TransactionReceipt)] = []
        while try st.step() { out.append(try stored(st, chainID: chainID)) }
        return out
    }

    func isExpired(_ hash: String) throws(DatabaseError) -> Bool {
        try db.prepare("SELECT 1 FROM expired WHERE hash = ?1").queryOne([.text(hash)]) { _ in true } ?? false
    }

    /// One indexed lookup per hash: on a local file that is as cheap as a batch.
    func knownHashes(_ hashes: [String]) throws(DatabaseError) -> (included: Set<String>, expired: Set<String>) {
        var included = Set<String>()
        var expired = Set<String>()
        for h in hashes {
            if try transactionExists(h) { included.insert(h) }
            if try isExpired(h) { expired.insert(h) }
        }
        return (included, expired)
    }

    func expired(_ hash: String) throws(DatabaseError) -> Transaction? {
        try db.prepare("SELECT tx FROM expired WHERE hash = ?1").queryOne([.text(hash)]) { s in
            try? JSONDecoder().decode(Transaction.self, from: Data(s.string(0).utf8))
        } ?? nil
    }

    // MARK: Writing a block (inside one transaction opened by the caller)

    func insert(block b: Block) throws {
        // The head check, in the caller's transaction: the database decides what the head is.
        let head = try db.prepare("SELECT round, hash FROM blocks ORDER BY round DESC LIMIT 1").queryOne { s in
            (UInt64(clamping: s.int64(0)), s.string(1))
        }
        if let head {
            guard b.round > 0, head.0 == b.round - 1, head.1 == b.previousHash else {
                throw LedgerStoreError.notOnHead(round: b.round, previousHash: b.previousHash)
            }
        } else if b.round != 0 {
            throw LedgerStoreError.notOnHead(round: b.round, previousHash: b.previousHash)
        }
        try db.prepare("INSERT INTO blocks(\(Self.blockColumns)) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)").run(
            try Self.integer(b.round), .text(b.hash), .text(b.previousHash), .integer(b.timestamp), .text(b.transactionRoot),
            .text(b.stateRoot), .integer(Int64(b.transactionCount)), .text(b.minerID), .text(b.producer), .text(b.signature))
    }

    func insert(transactions: [StoredTransaction]) throws(DatabaseError) {
        for t in transactions { try insert(transaction: t.tx, receipt: t.receipt, eventsJSON: t.eventsJSON) }
    }

    private func insert(transaction tx: Transaction, receipt r: TransactionReceipt, eventsJSON: String?) throws(DatabaseError) {
        try db.prepare(
            """
            INSERT INTO transactions(hash, round, idx, client_id, public_key, to_client_id, value, fee, nonce, type, data,
                creation_date, signature, outcome, error, output, output_hash, events)
            VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)
            """
        ).run(
            .text(tx.hash), try Self.integer(r.round), .integer(Int64(r.index)), .text(tx.clientID), .text(tx.publicKey),
            .text(tx.toClientID), .uint64(tx.value), .uint64(tx.fee), try Self.integer(tx.nonce), .text(tx.transactionType.rawValue),
            .text(tx.transactionData), .integer(tx.creationDate), .text(tx.signature), .text(r.outcome.rawValue),
            r.error.map { .text($0.stored) } ?? .null, .text(r.output), .text(r.outputHash), eventsJSON.map { .text($0) } ?? .null)
    }

    func upsert(accounts: [(id: String, state: AccountState)]) throws(DatabaseError) {
        let st = try db.prepare(
            """
            INSERT INTO accounts(client_id, balance, nonce) VALUES(?1, ?2, ?3)
            ON CONFLICT(client_id) DO UPDATE SET balance = excluded.balance, nonce = excluded.nonce
            """)
        for (id, a) in accounts { try st.run(.text(id), .uint64(a.balance), try Self.integer(a.nonce)) }
    }

    /// One key at a time: on a local file each statement is a function call, not a round trip.
    func write(contractChanges: [ContractChange], round: UInt64) throws(DatabaseError) {
        for c in contractChanges {
            try recordUndo(c.contract, c.key, round: round)
            try setContractValue(c.contract, c.key, c.value)
        }
    }

    func setContractValue(_ contract: String, _ key: String, _ value: [UInt8]?) throws(DatabaseError) {
        if let value {
            try db.prepare(
                """
                INSERT INTO contract_state(contract, key, value) VALUES(?1, ?2, ?3)
                ON CONFLICT(contract, key) DO UPDATE SET value = excluded.value
                """
            ).run(.text(contract), .text(key), .blob(value))
        } else {
            try db.prepare("DELETE FROM contract_state WHERE contract = ?1 AND key = ?2").run(.text(contract), .text(key))
        }
    }

    // MARK: Pending pool

    /// Keeps an accepted transaction (its canonical bytes and signature) until a block includes it.
    func insertPending(_ rows: [(tx: Transaction, seq: UInt64, round: UInt64)]) throws(DatabaseError) {
        let st = try db.prepare("INSERT OR REPLACE INTO pending(hash, seq, round, tx) VALUES(?1, ?2, ?3, ?4)")
        for (tx, seq, round) in rows {
            try st.run(
                .text(tx.hash), .integer(Int64(clamping: seq)), .integer(Int64(clamping: round)), .blob(Array(BinaryBatch.encode([tx]))))
        }
    }

    func removePending(_ hashes: [String]) throws(DatabaseError) {
        let st = try db.prepare("DELETE FROM pending WHERE hash = ?1")
        for h in hashes { try st.run(.text(h)) }
    }

    /// Pending transactions in arrival order with the round each was accepted at.
    func pendingTransactions() throws(DatabaseError) -> [(hash: String, round: UInt64, bytes: [UInt8])] {
        try db.prepare("SELECT hash, round, tx FROM pending ORDER BY seq").query { s in
            (s.string(0), UInt64(clamping: s.int64(1)), s.bytes(2))
        }
    }

    func pendingHashes() throws(DatabaseError) -> [String] {
        try db.prepare("SELECT hash FROM pending").query { s in s.string(0) }
    }

    func pendingTransactions(_ hashes: [String]) throws(DatabaseError) -> [(hash: String, round: UInt64, bytes: [UInt8])] {
        let st = try db.prepare("SELECT hash, round, tx, seq FROM pending WHERE hash = ?1")
        var rows: [(seq: Int64, row: (hash: String, round: UInt64, bytes: [UInt8]))] = []
        for h in hashes {
            rows += try st.query([.text(h)]) { s in (s.int64(3), (s.string(0), UInt64(clamping: s.int64(1)), s.bytes(2))) }
        }
        return rows.sorted { $0.seq < $1.seq }.map(\.row)
    }

    func insertExpired(_ txs: [Transaction], round: UInt64) throws(DatabaseError) {
        for tx in txs {
            let json = (try? JSONEncoder().encode(tx)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
            try db.prepare("INSERT OR REPLACE INTO expired(hash, round, tx, creation_date) VALUES(?1, ?2, ?3, ?4)")
                .run(.text(tx.hash), try Self.integer(round), .text(json), .integer(tx.creationDate))
        }
    }

    /// Forgets expired transactions created before `cutoff`: admission refuses their
    /// `creation_date` by now, so the record is no longer what keeps them out.
    func pruneExpired(createdBefore cutoff: Int64) throws(DatabaseError) {
        try db.prepare("DELETE FROM expired WHERE creation_date < ?1").run(.integer(cutoff))
    }
}
