import CSQLite

/// One SQLite connection in WAL mode with a statement cache.
///
/// Not thread-safe by itself (prepared statements hold cursor state), so it is not `Sendable`:
/// an owner that shares it across threads must serialize every call, as `Ledger` does with its lock.
package final class Database {
    /// How hard a commit waits for the disk. `normal` in WAL mode can lose the last commits on
    /// power loss but never corrupts and survives a process kill; `full` survives power loss.
    public enum Synchronous: String, Sendable {
        case normal = "NORMAL"
        case full = "FULL"
    }

    private var handle: OpaquePointer?
    private var cache: [String: Statement] = [:]
    private var transactionDepth = 0
    public let path: String

    /// Opens (creating if needed) the database at `path` with WAL journaling.
    public init(path: String, synchronous: Synchronous = .normal) throws(DatabaseError) {
        self.path = path
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(db)
            throw .open(path: path, message: message)
        }
        handle = db
        sqlite3_busy_timeout(db, 5000)
        do {
            try execute(
                "PRAGMA journal_mode=WAL; PRAGMA synchronous=\(synchronous.rawValue); PRAGMA foreign_keys=ON; PRAGMA temp_store=MEMORY; PRAGMA cache_size=-65536;"
            )
        } catch {
            close()
            throw .open(path: path, message: error.description)
        }
    }

    deinit { close() }

    /// Finalizes every cached statement and closes the connection; later calls throw `.closed`.
    public func close() {
        cache.removeAll()
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    /// Runs one or more statements that take no parameters (schema, pragmas).
    public func execute(_ sql: String) throws(DatabaseError) {
        guard let handle else { throw .closed }
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        if rc != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? "error \(rc)"
            sqlite3_free(message)
            throw DatabaseError.classify(rc, text)
        }
    }

    /// A prepared statement for `sql`, compiled once and reused.
    public func prepare(_ sql: String) throws(DatabaseError) -> Statement {
        if let s = cache[sql] { return s }
        guard let handle else { throw .closed }
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil)
        guard rc == SQLITE_OK, let stmt else {
            throw .prepare(sql: sql, message: String(cString: sqlite3_errmsg(handle)))
        }
        let s = Statement(handle: stmt, database: self, sql: sql)
        cache[sql] = s
        return s
    }

    /// Runs `body` inside a transaction: committed when it returns, rolled back when it throws.
    /// Nested calls join the outer transaction.
    public func transaction<R>(_ body: () throws -> R) throws -> R {
        if transactionDepth > 0 {
            transactionDepth += 1
            defer { transactionDepth -= 1 }
            return try body()
        }
        try execute("BEGIN IMMEDIATE")
        transactionDepth = 1
        do {
            let result = try body()
            transactionDepth = 0
            try execute("COMMIT")
            return result
        } catch {
            transactionDepth = 0
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Runs `body` inside a read transaction: every query sees one consistent snapshot even while
    /// another connection commits (WAL). Must not be nested in `transaction`.
    public func readTransaction<R>(_ body: () throws -> R) throws -> R {
        try execute("BEGIN DEFERRED")
        defer { try? execute("COMMIT") }
        return try body()
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public var changes: Int {
        handle.map { Int(sqlite3_changes($0)) } ?? 0
    }

    func error(_ rc: Int32) -> DatabaseError {
        let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "closed"
        return DatabaseError.classify(rc, message)
    }
}

extension DatabaseError {
    static func classify(_ rc: Int32, _ message: String) -> DatabaseError {
        switch rc & 0xff {
        case SQLITE_CONSTRAINT: return .constraint(message: message)
        case SQLITE_BUSY, SQLITE_LOCKED: return .busy(message: message)
        default: return .execute(code: rc, message: message)
        }
    }
}
