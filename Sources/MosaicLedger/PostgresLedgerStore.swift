import Foundation
import MosaicPostgres
import MosaicProtocol

/// The ledger on a PostgreSQL database (`mosaic node --db postgres://…`): the same tables and
/// semantics as `SQLiteLedgerStore`, one database per ledger.
///
/// Every string column is `bytea` holding the string's UTF-8: PostgreSQL `text` cannot hold
/// U+0000, which transaction data and contract keys may, and `bytea` compares byte by byte, the
/// order SQLite gives TEXT and `KeyRange` expects. A block's rows go in with multi-row inserts,
/// so a block costs a few round trips, not one per row.
final class PostgresLedgerStore: LedgerStore {
    let connection: PostgresConnection

    /// Connects; a `reader` connection skips the schema (the writer made it).
    init(url: String, reader: Bool = false) throws(PostgresError) {
        connection = try PostgresConnection(url: url)
        // A restarted server, or a session it ended, costs the command in flight at most.
        connection.reconnectsOutsideTransactions = true
        if reader { return }
        do {
            try connection.execute(
                """
                CREATE TABLE IF NOT EXISTS meta(key BYTEA PRIMARY KEY, value BYTEA NOT NULL);
                CREATE TABLE IF NOT EXISTS accounts(client_id BYTEA PRIMARY KEY, balance BYTEA NOT NULL, nonce BIGINT NOT NULL);
                CREATE TABLE IF NOT EXISTS blocks(round BIGINT PRIMARY KEY, hash BYTEA NOT NULL UNIQUE, previous_hash BYTEA NOT NULL,
                    timestamp BIGINT NOT NULL, tx_root BYTEA NOT NULL, state_root BYTEA NOT NULL, tx_count BIGINT NOT NULL,
                    miner_id BYTEA NOT NULL, producer BYTEA NOT NULL DEFAULT '', signature BYTEA NOT NULL DEFAULT '');
                ALTER TABLE blocks ADD COLUMN IF NOT EXISTS producer BYTEA NOT NULL DEFAULT '';
                ALTER TABLE blocks ADD COLUMN IF NOT EXISTS signature BYTEA NOT NULL DEFAULT '';
                CREATE TABLE IF NOT EXISTS transactions(seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, hash BYTEA NOT NULL UNIQUE,
                    round BIGINT NOT NULL, idx BIGINT NOT NULL, client_id BYTEA NOT NULL, public_key BYTEA NOT NULL,
                    to_client_id BYTEA NOT NULL, value BYTEA NOT NULL, fee BYTEA NOT NULL, nonce BIGINT NOT NULL, type BYTEA NOT NULL,
                    data BYTEA NOT NULL, creation_date BIGINT NOT NULL, signature BYTEA NOT NULL, outcome BYTEA NOT NULL, error BYTEA,
                    output BYTEA NOT NULL, output_hash BYTEA NOT NULL, events BYTEA);
                CREATE INDEX IF NOT EXISTS transactions_from ON transactions(client_id);
                CREATE INDEX IF NOT EXISTS transactions_to ON transactions(to_client_id);
                CREATE INDEX IF NOT EXISTS transactions_round ON transactions(round);
                CREATE TABLE IF NOT EXISTS contract_state(contract BYTEA NOT NULL, key BYTEA NOT NULL, value BYTEA NOT NULL,
                    PRIMARY KEY(contract, key));
                CREATE TABLE IF NOT EXISTS contract_undo(contract BYTEA NOT NULL, round BIGINT NOT NULL, key BYTEA NOT NULL, old BYTEA,
                    PRIMARY KEY(contract, round, key));
                CREATE INDEX IF NOT EXISTS contract_undo_key ON contract_undo(contract, key, round);
                CREATE TABLE IF NOT EXISTS pending(hash BYTEA PRIMARY KEY, seq BIGINT NOT NULL, round BIGINT NOT NULL, tx BYTEA NOT NULL);
                CREATE TABLE IF NOT EXISTS expired(hash BYTEA PRIMARY KEY, round BIGINT NOT NULL, tx BYTEA NOT NULL,
                    creation_date BIGINT NOT NULL);
                CREATE INDEX IF NOT EXISTS expired_creation ON expired(creation_date);
                """)
        } catch {
            connection.close()
            throw error
        }
    }

    func close() { connection.close() }

    func transaction<R>(_ body: () throws -> R) throws -> R { try connection.transaction(body) }

    func readTransaction<R>(_ body: () throws -> R) throws -> R { try connection.readTransaction(body) }

    /// The advisory lock key of the producer lease ("MOSA"): one per database, as one database is one chain.
    static let producerLeaseKey: Int64 = 0x4D4F_5341

    /// A session advisory lock on this connection: released by PostgreSQL when the session ends
    /// (process killed, connection closed or lost), so a dead producer frees the lease without a
    /// timeout. The holder is asked `pg_locks` first, so holding it again does not stack, and a
    /// connection that was re-established (and so lost the lock) reports what is true now.
    ///
    /// A session the server ended (restarted, or `setLeaseTimeout` ran out while this process was
    /// paused) is reconnected by the next command (`reconnectsOutsideTransactions`), at the latest
    /// this ask on the block timer's next tick, which then finds whether another node took the lease.
    func holdProducerLease() throws -> Bool {
        let row = try connection.queryOne(
            """
            SELECT CASE WHEN EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()
                AND classid::bigint = 0 AND objid::bigint = $1 AND objsubid = 1 AND granted)
            THEN true ELSE pg_try_advisory_lock($1) END
            """, [.integer(Self.producerLeaseKey)])
        return try row?.bool(0) ?? false
    }

    /// `idle_session_timeout` and `idle_in_transaction_session_timeout` of this session: a
    /// producer stopped (SIGSTOP, a hung machine) keeps its TCP connection, so without them it
    /// would keep the advisory lock for ever.
    func setLeaseTimeout(_ timeout: Duration) throws {
        let ms = max(1, timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        let settings = "SET idle_session_timeout = \(ms); SET idle_in_transaction_session_timeout = \(ms)"
        // A reconnected session (PostgresConnection.reconnectsOutsideTransactions) gets them again.
        connection.onReconnect = { [weak connection] () throws(PostgresError) in try connection?.execute(settings) }
        try connection.execute(settings)
    }

    /// Any number of nodes may share one database (issue 14 §2).
    var isShared: Bool { true }

    /// A string column's value: its UTF-8 as `bytea`.
    private static func s(_ text: String) -> PostgresValue { .bytes(Array(text.utf8)) }

    /// A round, nonce or sequence number as a `bigint`; past Int64.max is refused, not trapped.
    private static func integer(_ value: UInt64) throws(LedgerStoreError) -> PostgresValue {
        guard let v = Int64(exactly: value) else { throw .outOfRange(value) }
        return .integer(v)
    }

    /// A bound that may exceed Int64.max, clamped (nothing stored lies past it).
    private static func clamped(_ value: UInt64) -> PostgresValue { .integer(Int64(clamping: value)) }

    // MARK: Meta

    func meta(_ key: String) throws -> String? {
        try connection.queryOne("SELECT value FROM meta WHERE key = $1", [Self.s(key)]).map { try $0.text(0) }
    }

    func setMeta(_ key: String, _ value: String) throws {
        try connection.run(
            "INSERT INTO meta(key, value) VALUES($1, $2) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            [Self.s(key), Self.s(value)])
    }

    func deleteMeta(_ key: String) throws {
        try connection.run("DELETE FROM meta WHERE key = $1", [Self.s(key)])
    }

    // MARK: State

    func account(_ id: String) throws -> AccountState? {
        try connection.queryOne("SELECT balance, nonce FROM accounts WHERE client_id = $1", [Self.s(id)]).map { row in
            AccountState(balance: try row.uint64(0), nonce: UInt64(clamping: try row.int64(1)))
        }
    }

    func contractValue(_ contract: String, _ key: String) throws -> [UInt8]? {
        try connection.queryOne("SELECT value FROM contract_state WHERE contract = $1 AND key = $2", [Self.s(contract), Self.s(key)])
            .map { try $0.bytes(0) }
    }

    func scan(_ contract: String, _ range: KeyRange, limit: Int) throws -> [ContractEntry] {
        let (low, lowInclusive, high) = range.seekBounds
        let sql =
            "SELECT key, value FROM contract_state WHERE contract = $1 AND key \(lowInclusive ? ">=" : ">") $2 AND key < $3 ORDER BY key\(range.reverse ? " DESC" : "") LIMIT $4"
        return try connection.query(sql, [Self.s(contract), Self.s(low), Self.s(high), .integer(Int64(max(limit, 0)))]).map { row in
            ContractEntry(key: try row.text(0), value: try row.bytes(1))
        }
    }

    func valueBeforeChanges(_ contract: String, _ key: String, after round: UInt64) throws -> [UInt8]?? {
        guard
            let row = try connection.queryOne(
                "SELECT old FROM contract_undo WHERE contract = $1 AND key = $2 AND round > $3 ORDER BY round LIMIT 1",
                [Self.s(contract), Self.s(key), Self.clamped(round)])
        else { return nil }
        return .some(try row.isNull(0) ? nil : row.bytes(0))
    }

    func hasChanges(_ contract: String, after round: UInt64) throws -> Bool {
        try connection.queryOne(
            "SELECT 1 FROM contract_undo WHERE contract = $1 AND round > $2 LIMIT 1", [Self.s(contract), Self.clamped(round)]) != nil
    }

    func undoOverlay(_ contract: String, _ range: KeyRange, after round: UInt64, low: String, high: String) throws
        -> [String: [UInt8]?]
    {
        let rows = try connection.query(
            """
            SELECT key, old FROM contract_undo
            WHERE contract = $1 AND key >= $2 AND key <= $3 AND round > $4 ORDER BY key, round DESC
            """, [Self.s(contract), Self.s(low), Self.s(high), Self.clamped(round)])
        var out: [String: [UInt8]?] = [:]
        // Per key, the earliest change after `round` (the last row of the key) holds the value as of `round`.
        for row in rows {
            let key = try row.text(0)
            if range.contains(key) { out[key] = .some(try row.isNull(1) ? nil : row.bytes(1)) }
        }
        return out
    }

    func recordUndo(_ contract: String, _ key: String, round: UInt64) throws {
        // One round trip: the old value is read by the insert itself.
        try connection.run(
            """
            INSERT INTO contract_undo(contract, round, key, old)
            VALUES($1, $2, $3, (SELECT value FROM contract_state WHERE contract = $1 AND key = $3)) ON CONFLICT DO NOTHING
            """, [Self.s(contract), try Self.integer(round), Self.s(key)])
    }

    func pruneUndo(through round: UInt64, contracts: [String]) throws {
        for c in contracts {
            try connection.run("DELETE FROM contract_undo WHERE contract = $1 AND round <= $2", [Self.s(c), Self.clamped(round)])
        }
        try setMeta("state_history_from", String(round))
    }

    func balanceSum() throws -> (sum: UInt64, accounts: Int) {
        let rows = try connection.query("SELECT balance FROM accounts")
        var sum: UInt64 = 0
        for row in rows {
            let (next, overflow) = sum.addingReportingOverflow(try row.uint64(0))
            if overflow { return (.max, rows.count) }
            sum = next
        }
        return (sum, rows.count)
    }

    // MARK: Blocks

    private static let blockColumns = "round, hash, previous_hash, timestamp, tx_root, state_root, tx_count, miner_id, producer, signature"

    private static func block(_ row: PostgresRow) throws -> Block {
        var b = Block(
            round: UInt64(clamping: try row.int64(0)), previousHash: try row.text(2), timestamp: try row.int64(3),
            transactionRoot: try row.text(4), stateRoot: try row.text(5), transactionCount: Int(clamping: try row.int64(6)),
            minerID: try row.text(7), producer: try row.text(8))
        b.hash = try row.text(1)
        b.signature = try row.text(9)
        return b
    }

    func latestBlock() throws -> Block? {
        try connection.queryOne("SELECT \(Self.blockColumns) FROM blocks ORDER BY round DESC LIMIT 1").map(Self.block)
    }

    func lastNonEmptyRound() throws -> UInt64? {
        guard let row = try connection.queryOne("SELECT MAX(round) FROM blocks WHERE tx_count > 0"), try !row.isNull(0) else { return nil }
        return UInt64(clamping: try row.int64(0))
    }

    func block(round: UInt64) throws -> Block? {
        guard let r = Int64(exactly: round) else { return nil }
        return try connection.queryOne("SELECT \(Self.blockColumns) FROM blocks WHERE round = $1", [.integer(r)]).map(Self.block)
    }

    func blocks(before round: UInt64, limit: Int) throws -> [Block] {
        try connection.query(
            "SELECT \(Self.blockColumns) FROM blocks WHERE round < $1 ORDER BY round DESC LIMIT $2",
            [Self.clamped(round), .integer(Int64(clamping: max(limit, 0)))]
        ).map(Self.block)
    }

    func block(hash: String) throws -> Block? {
        try connection.queryOne("SELECT \(Self.blockColumns) FROM blocks WHERE hash = $1", [Self.s(hash)]).map(Self.block)
    }

    // MARK: Transactions

    private static let txColumns = """
        t.hash, t.round, t.idx, t.client_id, t.public_key, t.to_client_id, t.value, t.fee, t.nonce, t.type, t.data,
        t.creation_date, t.signature, t.outcome, t.error, t.output, t.output_hash, t.events, b.hash
        """

    func transactionExists(_ hash: String) throws -> Bool {
        try connection.queryOne("SELECT 1 FROM transactions WHERE hash = $1", [Self.s(hash)]) != nil
    }

    private static func stored(_ row: PostgresRow, chainID: String) throws -> (Transaction, TransactionReceipt) {
        let tx = Transaction(
            hash: try row.text(0), clientID: try row.text(3), publicKey: try row.text(4), toClientID: try row.text(5),
            value: try row.uint64(6), fee: try row.uint64(7), nonce: UInt64(clamping: try row.int64(8)),
            transactionType: TransactionType(rawValue: try row.text(9)) ?? .transfer, transactionData: try row.text(10),
            creationDate: try row.int64(11), chainID: chainID, signature: try row.text(12))
        var events: [TransactionEvent] = []
        if let text = try row.optionalText(17), let decoded = try? JSONDecoder().decode([TransactionEvent].self, from: Data(text.utf8)) {
            events = decoded
        }
        let receipt = TransactionReceipt(
            transactionHash: tx.hash, blockHash: try row.text(18), round: UInt64(clamping: try row.int64(1)),
            index: Int(clamping: try row.int64(2)), outcome: ExecutionOutcome(rawValue: try row.text(13)) ?? .failure,
            error: try row.optionalText(14).map(ExecutionError.init(stored:)), output: try row.text(15), outputHash: try row.text(16),
            events: events)
        return (tx, receipt)
    }

    func transaction(_ hash: String, chainID: String) throws -> (Transaction, TransactionReceipt)? {
        try connection.queryOne(
            "SELECT \(Self.txColumns) FROM transactions t JOIN blocks b ON b.round = t.round WHERE t.hash = $1", [Self.s(hash)]
        ).map { try Self.stored($0, chainID: chainID) }
    }

    func round(of hash: String) throws -> UInt64? {
        try connection.queryOne("SELECT round FROM transactions WHERE hash = $1", [Self.s(hash)]).map { UInt64(clamping: try $0.int64(0)) }
    }

    func transactions(of clientID: String, limit: Int, offset: Int, chainID: String) throws -> [(Transaction, TransactionReceipt)] {
        try connection.query(
            """
            SELECT \(Self.txColumns) FROM transactions t JOIN blocks b ON b.round = t.round
            WHERE t.seq IN (SELECT seq FROM transactions WHERE client_id = $1 UNION SELECT seq FROM transactions WHERE to_client_id = $1)
            ORDER BY t.seq DESC LIMIT $2 OFFSET $3
            """, [Self.s(clientID), .integer(Int64(clamping: max(limit, 0))), .integer(Int64(clamping: max(offset, 0)))]
        ).map { try Self.stored($0, chainID: chainID) }
    }

    func transactionCount(of clientID: String) throws -> Int {
        let row = try connection.queryOne(
            """
            SELECT (SELECT COUNT(*) FROM transactions WHERE client_id = $1)
                + (SELECT COUNT(*) FROM transactions WHERE to_client_id = $1 AND client_id != $1)
            """, [Self.s(clientID)])
        return Int(clamping: try row?.int64(0) ?? 0)
    }

    func transactions(inRound round: UInt64, limit: Int, offset: Int, chainID: String) throws -> [(Transaction, TransactionReceipt)] {
        guard let r = Int64(exactly: round) else { return [] }
        return try connection.query(
            """
            SELECT \(Self.txColumns) FROM transactions t JOIN blocks b ON b.round = t.round
            WHERE t.round = $1 ORDER BY t.idx LIMIT $2 OFFSET $3
            """, [.integer(r), .integer(Int64(clamping: max(limit, 0))), .integer(Int64(clamping: max(offset, 0)))]
        ).map { try Self.stored($0, chainID: chainID) }
    }

    func isExpired(_ hash: String) throws -> Bool {
        try connection.queryOne("SELECT 1 FROM expired WHERE hash = $1", [Self.s(hash)]) != nil
    }

    func knownHashes(_ hashes: [String]) throws -> (included: Set<String>, expired: Set<String>) {
        var included = Set<String>()
        var expired = Set<String>()
        try forChunks(of: hashes) { list, values in
            for row in try connection.query("SELECT hash FROM transactions WHERE hash IN (\(list))", values, prepared: false) {
                included.insert(try row.text(0))
            }
            for row in try connection.query("SELECT hash FROM expired WHERE hash IN (\(list))", values, prepared: false) {
                expired.insert(try row.text(0))
            }
        }
        return (included, expired)
    }

    func expired(_ hash: String) throws -> Transaction? {
        guard let row = try connection.queryOne("SELECT tx FROM expired WHERE hash = $1", [Self.s(hash)]) else { return nil }
        return try? JSONDecoder().decode(Transaction.self, from: Data(try row.bytes(0)))
    }

    // MARK: Writing a block (inside one transaction opened by the caller)

    func insert(block b: Block) throws {
        // The head check is part of the insert: the row goes in only on top of the stored head
        // (or as round 0 of an empty chain), and the primary key on round stops a concurrent twin.
        let guardSQL =
            b.round == 0
            ? "NOT EXISTS (SELECT 1 FROM blocks)"
            : "(SELECT hash FROM blocks ORDER BY round DESC LIMIT 1) = $3 AND (SELECT MAX(round) FROM blocks) = $1 - 1"
        let changed = try connection.run(
            """
            INSERT INTO blocks(\(Self.blockColumns)) SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10 WHERE \(guardSQL)
            """,
            [
                try Self.integer(b.round), Self.s(b.hash), Self.s(b.previousHash), .integer(b.timestamp), Self.s(b.transactionRoot),
                Self.s(b.stateRoot), .integer(Int64(b.transactionCount)), Self.s(b.minerID), Self.s(b.producer),
                Self.s(b.signature),
            ])
        guard changed == 1 else { throw LedgerStoreError.notOnHead(round: b.round, previousHash: b.previousHash) }
        // Delivered when this transaction commits, to every node's `BlockListener`.
        try connection.run("SELECT pg_notify($1, $2)", [.text(BlockListener.channel), .text(String(b.round))])
    }

    func insert(transactions: [StoredTransaction]) throws {
        let rows = try transactions.map { t throws -> [PostgresValue] in
            let (tx, r) = (t.tx, t.receipt)
            return [
                Self.s(tx.hash), try Self.integer(r.round), .integer(Int64(r.index)), Self.s(tx.clientID), Self.s(tx.publicKey),
                Self.s(tx.toClientID), .uint64(tx.value), .uint64(tx.fee), try Self.integer(tx.nonce), Self.s(tx.transactionType.rawValue),
                Self.s(tx.transactionData), .integer(tx.creationDate), Self.s(tx.signature), Self.s(r.outcome.rawValue),
                r.error.map { Self.s($0.stored) } ?? .null, Self.s(r.output), Self.s(r.outputHash), t.eventsJSON.map(Self.s) ?? .null,
            ]
        }
        try connection.insert(
            into: "transactions",
            columns: [
                "hash", "round", "idx", "client_id", "public_key", "to_client_id", "value", "fee", "nonce", "type", "data",
                "creation_date", "signature", "outcome", "error", "output", "output_hash", "events",
            ], rows: rows)
    }

    func upsert(accounts: [(id: String, state: AccountState)]) throws {
        let rows = try accounts.map { a throws -> [PostgresValue] in
            [Self.s(a.id), .uint64(a.state.balance), try Self.integer(a.state.nonce)]
        }
        try connection.insert(
            into: "accounts", columns: ["client_id", "balance", "nonce"], rows: rows,
            suffix: "ON CONFLICT(client_id) DO UPDATE SET balance = excluded.balance, nonce = excluded.nonce")
    }

    /// Three kinds of statement for the whole block, not two per key: the undo rows read the old
    /// values in the insert itself (before anything changes), then one multi-row upsert of the
    /// new values and one delete of the removed keys, each in chunks under the parameter limit.
    func write(contractChanges: [ContractChange], round: UInt64) throws {
        guard !contractChanges.isEmpty else { return }
        let r = try Self.integer(round)
        let chunkSize = 1000
        var start = 0
        while start < contractChanges.count {
            let chunk = contractChanges[start..<min(start + chunkSize, contractChanges.count)]
            let pairs = (0..<chunk.count).map { "($\(2 * $0 + 2)::bytea, $\(2 * $0 + 3)::bytea)" }.joined(separator: ", ")
            try connection.run(
                """
                INSERT INTO contract_undo(contract, round, key, old)
                SELECT v.contract, $1, v.key, s.value FROM (VALUES \(pairs)) AS v(contract, key)
                LEFT JOIN contract_state s ON s.contract = v.contract AND s.key = v.key
                ON CONFLICT DO NOTHING
                """, [r] + chunk.flatMap { [Self.s($0.contract), Self.s($0.key)] }, prepared: false)
            start += chunk.count
        }
        let written = contractChanges.compactMap { c in c.value.map { [Self.s(c.contract), Self.s(c.key), PostgresValue.bytes($0)] } }
        try connection.insert(
            into: "contract_state", columns: ["contract", "key", "value"], rows: written,
            suffix: "ON CONFLICT(contract, key) DO UPDATE SET value = excluded.value")
        let removed = contractChanges.filter { $0.value == nil }
        start = 0
        while start < removed.count {
            let chunk = removed[start..<min(start + chunkSize, removed.count)]
            let pairs = (0..<chunk.count).map { "($\(2 * $0 + 1)::bytea, $\(2 * $0 + 2)::bytea)" }.joined(separator: ", ")
            try connection.run(
                "DELETE FROM contract_state WHERE (contract, key) IN (\(pairs))",
                chunk.flatMap { [Self.s($0.contract), Self.s($0.key)] }, prepared: false)
            start += chunk.count
        }
    }

    func setContractValue(_ contract: String, _ key: String, _ value: [UInt8]?) throws {
        if let value {
            try connection.run(
                """
                INSERT INTO contract_state(contract, key, value) VALUES($1, $2, $3)
                ON CONFLICT(contract, key) DO UPDATE SET value = excluded.value
                """, [Self.s(contract), Self.s(key), .bytes(value)])
        } else {
            try connection.run("DELETE FROM contract_state WHERE contract = $1 AND key = $2", [Self.s(contract), Self.s(key)])
        }
    }

    // MARK: Pending pool

    func insertPending(_ rows: [(tx: Transaction, seq: UInt64, round: UInt64)]) throws {
        // A hash appears once per batch (the pool refuses duplicates), as one multi-row upsert needs.
        try connection.insert(
            into: "pending", columns: ["hash", "seq", "round", "tx"],
            rows: rows.map {
                [Self.s($0.tx.hash), Self.clamped($0.seq), Self.clamped($0.round), .bytes(Array(BinaryBatch.encode([$0.tx])))]
            },
            suffix: "ON CONFLICT(hash) DO UPDATE SET seq = excluded.seq, round = excluded.round, tx = excluded.tx")
    }

    func removePending(_ hashes: [String]) throws {
        try forChunks(of: hashes) { list, values in
            try connection.run("DELETE FROM pending WHERE hash IN (\(list))", values, prepared: false)
        }
    }

    /// Runs `body` per chunk of at most 1000 hashes (well below the protocol's parameter limit),
    /// with the chunk's `$1, $2, …` list and its values. Callers run the chunk's statement
    /// unprepared (`prepared: false`): its text varies with the count, and a generic plan made
    /// while `transactions` was empty scans it whole once it holds a chain (87 ms a batch at
    /// 30,000 rows, most of a block's time, before this).
    private func forChunks(of hashes: [String], _ body: (String, [PostgresValue]) throws -> Void) throws {
        var start = 0
        while start < hashes.count {
            let chunk = hashes[start..<min(start + 1000, hashes.count)]
            try body((1...chunk.count).map { "$\($0)" }.joined(separator: ", "), chunk.map(Self.s))
            start += chunk.count
        }
    }

    func pendingTransactions() throws -> [(hash: String, round: UInt64, bytes: [UInt8])] {
        try connection.query("SELECT hash, round, tx FROM pending ORDER BY seq").map { row in
            (try row.text(0), UInt64(clamping: try row.int64(1)), try row.bytes(2))
        }
    }

    func pendingHashes() throws -> [String] {
        try connection.query("SELECT hash FROM pending").map { try $0.text(0) }
    }

    func pendingTransactions(_ hashes: [String]) throws -> [(hash: String, round: UInt64, bytes: [UInt8])] {
        var rows: [(seq: Int64, row: (hash: String, round: UInt64, bytes: [UInt8]))] = []
        try forChunks(of: hashes) { list, values in
            rows += try connection.query("SELECT hash, round, tx, seq FROM pending WHERE hash IN (\(list))", values, prepared: false).map {
                row in
                (try row.int64(3), (try row.text(0), UInt64(clamping: try row.int64(1)), try row.bytes(2)))
            }
        }
        return rows.sorted { $0.seq < $1.seq }.map(\.row)
    }

    /// One multi-row upsert (a hash listed twice would make it fail, so the last one is kept).
    func insertExpired(_ txs: [Transaction], round: UInt64) throws {
        let r = try Self.integer(round)
        var seen = Set<String>()
        let unique = txs.reversed().filter { seen.insert($0.hash).inserted }.reversed()
        let encoder = JSONEncoder()
        try connection.insert(
            into: "expired", columns: ["hash", "round", "tx", "creation_date"],
            rows: unique.map { tx in
                let json = (try? encoder.encode(tx)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
                return [Self.s(tx.hash), r, Self.s(json), .integer(tx.creationDate)]
            },
            suffix: "ON CONFLICT(hash) DO UPDATE SET round = excluded.round, tx = excluded.tx, creation_date = excluded.creation_date")
    }

    func pruneExpired(createdBefore cutoff: Int64) throws {
        try connection.run("DELETE FROM expired WHERE creation_date < $1", [.integer(cutoff)])
    }
}

extension PostgresRow {
    /// A string column (`bytea` of UTF-8) as text.
    fileprivate func text(_ column: Int) throws(PostgresError) -> String { String(decoding: try bytes(column), as: UTF8.self) }

    fileprivate func optionalText(_ column: Int) throws(PostgresError) -> String? { try isNull(column) ? nil : text(column) }
}
