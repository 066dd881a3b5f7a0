import CSQLite

/// A prepared statement owned by its `Database`. Statements are cached by SQL text and reset
/// before every use, so callers bind, step and read without managing their lifetime.
package final class Statement {
    let handle: OpaquePointer
    private unowned let database: Database
    /// The SQL text, for error messages.
    public let sql: String

    init(handle: OpaquePointer, database: Database, sql: String) {
        self.handle = handle
        self.database = database
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    /// Clears earlier results and bindings, then binds `values` to ?1, ?2, ….
    public func bind(_ values: [DatabaseValue]) throws(DatabaseError) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (i, value) in values.enumerated() {
            let index = Int32(i + 1)
            let rc: Int32
            switch value {
            case .integer(let v): rc = sqlite3_bind_int64(handle, index, v)
            // The explicit byte length keeps text with embedded NUL characters intact.
            case .text(let s): rc = sqlite3_bind_text(handle, index, s, Int32(s.utf8.count), csqlite_transient())
            case .blob(let b):
                rc = b.withUnsafeBytes { raw in
                    // An empty array has no base address; SQLite needs a non-null pointer for a
                    // zero-length blob (a null pointer would bind NULL instead).
                    sqlite3_bind_blob(
                        handle, index, raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
                        Int32(b.count), csqlite_transient())
                }
            case .null: rc = sqlite3_bind_null(handle, index)
            }
            guard rc == SQLITE_OK else { throw database.error(rc) }
        }
    }

    /// Ends the current query early so the statement can be reused (also releases read locks).
    public func reset() { sqlite3_reset(handle) }

    /// Advances to the next row; false when the statement is done.
    public func step() throws(DatabaseError) -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let err = database.error(rc)
            sqlite3_reset(handle)
            throw err
        }
    }

    /// Binds and runs a statement that returns no rows.
    public func run(_ values: DatabaseValue...) throws(DatabaseError) {
        try run(values)
    }

    public func run(_ values: [DatabaseValue]) throws(DatabaseError) {
        try bind(values)
        while try step() {}
        sqlite3_reset(handle)
    }

    /// Binds, then maps every row through `row`; the statement is reset afterwards.
    public func query<T>(_ values: [DatabaseValue] = [], _ row: (Statement) throws(DatabaseError) -> T) throws(DatabaseError) -> [T] {
        try bind(values)
        var out: [T] = []
        do {
            while try step() { out.append(try row(self)) }
        } catch {
            sqlite3_reset(handle)
            throw error
        }
        sqlite3_reset(handle)
        return out
    }

    /// The first row mapped through `row`, or nil when there is none.
    public func queryOne<T>(_ values: [DatabaseValue] = [], _ row: (Statement) throws(DatabaseError) -> T) throws(DatabaseError) -> T? {
        try bind(values)
        defer { sqlite3_reset(handle) }
        guard try step() else { return nil }
        return try row(self)
    }

    // MARK: Columns of the current row (0-based).

    public func isNull(_ column: Int) -> Bool {
        sqlite3_column_type(handle, Int32(column)) == SQLITE_NULL
    }

    public func int64(_ column: Int) -> Int64 {
        sqlite3_column_int64(handle, Int32(column))
    }

    public func string(_ column: Int) -> String {
        guard let p = sqlite3_column_text(handle, Int32(column)) else { return "" }
        let n = Int(sqlite3_column_bytes(handle, Int32(column)))
        return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
    }

    public func optionalString(_ column: Int) -> String? {
        isNull(column) ? nil : string(column)
    }

    public func bytes(_ column: Int) -> [UInt8] {
        let n = Int(sqlite3_column_bytes(handle, Int32(column)))
        guard n > 0, let p = sqlite3_column_blob(handle, Int32(column)) else { return [] }
        return Array(UnsafeRawBufferPointer(start: p, count: n))
    }

    /// Reads a `UInt64` stored with `DatabaseValue.uint64`.
    public func uint64(_ column: Int) throws(DatabaseError) -> UInt64 {
        let n = Int(sqlite3_column_bytes(handle, Int32(column)))
        guard n == 8, let p = sqlite3_column_blob(handle, Int32(column)),
            let v = DatabaseValue.uint64(fromBigEndian: UnsafeRawBufferPointer(start: p, count: 8))
        else { throw .typeMismatch(column: column, expected: "an 8-byte unsigned integer") }
        return v
    }
}
