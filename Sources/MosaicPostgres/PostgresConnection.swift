import CPQ

/// One PostgreSQL connection (libpq) with a cache of prepared statements.
///
/// Every value from outside travels as a bound parameter in the binary format (`PQexecPrepared`,
/// `PQexecParams`), never spliced into SQL text. Results are decoded into `PostgresRow` values
/// before the call returns, so no libpq pointer leaves this type.
///
/// Not thread-safe by itself (one connection runs one command at a time), so it is not `Sendable`:
/// an owner that shares it across threads must serialize every call, as `Ledger` does with its lock.
package final class PostgresConnection {
    /// The wire protocol carries at most this many parameters in one statement.
    package static let maxParameters = 65_535

    private var handle: OpaquePointer?
    /// The libpq connection for this module's extensions (notifications); never handed out.
    var connectionHandle: OpaquePointer? { handle }
    /// Prepared statement names by SQL text and parameter type signature.
    private var prepared: [PreparedKey: String] = [:]
    private var transactionDepth = 0
    /// The connection string, without its password (for logs).
    package let redactedURL: String
    private let url: String

    private struct PreparedKey: Hashable {
        let sql: String
        let types: [UInt32]
    }

    /// When set, a command outside a transaction whose session was lost (the server restarted, or
    /// ended an idle session) reconnects and runs once more; `onReconnect` then restores the
    /// session's settings. Inside a transaction the loss is the caller's: its work was rolled back.
    package var reconnectsOutsideTransactions = false
    /// Runs after each reconnect (`reconnect()` or the automatic one), e.g. to set session options again.
    package var onReconnect: (() throws(PostgresError) -> Void)?

    /// Connects to `url`: a `postgres://user@host:port/database?…` URI or a libpq `key=value` string.
    package init(url: String) throws(PostgresError) {
        self.url = url
        self.redactedURL = PostgresConnection.redact(url)
        let conn = PQconnectdb(url)
        guard let conn, PQstatus(conn) == CONNECTION_OK else {
            let message = conn.map { PostgresConnection.text(PQerrorMessage($0)) } ?? "out of memory"
            PQfinish(conn)
            throw .connect(message: message)
        }
        handle = conn
        PostgresConnection.silenceNotices(conn)
    }

    deinit { close() }

    /// Closes the connection; later calls throw `.closed`.
    package func close() {
        if let handle { PQfinish(handle) }
        handle = nil
        prepared.removeAll()
    }

    /// True while the connection is up (it may still break on the next command).
    package var isConnected: Bool {
        handle.map { PQstatus($0) == CONNECTION_OK } ?? false
    }

    /// Reconnects with the same URL after `.connectionLost` (the server restarted). Prepared
    /// statements and an open transaction do not survive it.
    package func reconnect() throws(PostgresError) {
        guard let handle else { throw .closed }
        prepared.removeAll()
        transactionDepth = 0
        PQreset(handle)
        guard PQstatus(handle) == CONNECTION_OK else {
            throw .connect(message: PostgresConnection.text(PQerrorMessage(handle)))
        }
        PostgresConnection.silenceNotices(handle)
        // Its own commands are not retried: a session lost again fails the reconnect.
        let retries = reconnectsOutsideTransactions
        reconnectsOutsideTransactions = false
        defer { reconnectsOutsideTransactions = retries }
        try onReconnect?()
    }

    /// `body`, and when `reconnectsOutsideTransactions` allows, once more after reconnecting.
    private func retried<R>(_ body: () throws(PostgresError) -> R) throws(PostgresError) -> R {
        do { return try body() } catch {
            guard case .connectionLost = error, reconnectsOutsideTransactions, transactionDepth == 0 else { throw error }
            try reconnect()
            return try body()
        }
    }

    /// Runs one or more statements that take no parameters (schema, settings).
    package func execute(_ sql: String) throws(PostgresError) {
        try retried { () throws(PostgresError) in try executeOnce(sql) }
    }

    /// Never retried: a COMMIT sent again on a new session would answer "no transaction in
    /// progress" with success while the transaction was lost.
    private func executeOnce(_ sql: String) throws(PostgresError) {
        guard let handle else { throw .closed }
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result, sql: sql)
    }

    /// Runs `sql` with `parameters` bound to $1, $2, … and returns every row.
    ///
    /// By default the statement is prepared once per parameter type signature and reused. With
    /// `prepared: false` it is planned with these values on each call: for text that varies (a
    /// list of `$n` as long as a batch), which would otherwise fill the session with statements,
    /// and for lookups in a table that grows, where the generic plan PostgreSQL settles on after
    /// five calls on a still-empty table is a sequential scan that it keeps as the table fills.
    package func query(_ sql: String, _ parameters: [PostgresValue] = [], prepared: Bool = true) throws(PostgresError)
        -> [PostgresRow]
    {
        try retried { () throws(PostgresError) in
            let result = try prepared ? executePrepared(sql, parameters) : executeUnnamed(sql, parameters)
            defer { PQclear(result) }
            return try PostgresConnection.rows(of: result)
        }
    }

    /// The first row of `query`, or nil when there is none.
    package func queryOne(_ sql: String, _ parameters: [PostgresValue] = []) throws(PostgresError) -> PostgresRow? {
        try query(sql, parameters).first
    }

    /// Runs a statement that returns no rows; the number of rows it changed.
    /// `prepared` as in `query`.
    @discardableResult
    package func run(_ sql: String, _ parameters: [PostgresValue] = [], prepared: Bool = true) throws(PostgresError) -> Int {
        try retried { () throws(PostgresError) in
            let result = try prepared ? executePrepared(sql, parameters) : executeUnnamed(sql, parameters)
            defer { PQclear(result) }
            return PostgresConnection.affectedRows(result)
        }
    }

    /// Inserts `rows` into `table` with multi-row `INSERT … VALUES (…), (…)` statements, as few as
    /// the parameter limit allows; `suffix` (written by the caller's code, e.g. an `ON CONFLICT`
    /// clause) follows each. Table and column names must be plain identifiers. The number of rows
    /// changed.
    @discardableResult
    package func insert(
        into table: String, columns: [String], rows: [[PostgresValue]], suffix: String = "", rowsPerStatement: Int = 1000
    ) throws(PostgresError) -> Int {
        for name in [table] + columns where !PostgresConnection.isPlainIdentifier(name) { throw .invalidIdentifier(name) }
        guard !rows.isEmpty, !columns.isEmpty else { return 0 }
        for row in rows where row.count != columns.count { throw .noSuchColumn(column: min(row.count, columns.count)) }
        let perStatement = max(1, min(rowsPerStatement, PostgresConnection.maxParameters / columns.count))
        let head = "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES "
        var changed = 0
        var start = 0
        while start < rows.count {
            let chunk = rows[start..<min(start + perStatement, rows.count)]
            var sql = head
            var n = 0
            for (i, _) in chunk.enumerated() {
                if i > 0 { sql += ", " }
                sql += "("
                for c in 0..<columns.count {
                    n += 1
                    sql += c == 0 ? "$\(n)" : ", $\(n)"
                }
                sql += ")"
            }
            if !suffix.isEmpty { sql += " " + suffix }
            let result = try executeUnnamed(sql, chunk.flatMap { $0 })
            changed += PostgresConnection.affectedRows(result)
            PQclear(result)
            start += chunk.count
        }
        return changed
    }

    /// Runs `body` inside a transaction: committed when it returns, rolled back when it throws.
    /// Nested calls join the outer transaction.
    package func transaction<R>(_ body: () throws -> R) throws -> R {
        try transaction(begin: "BEGIN", body)
    }

    /// Runs `body` inside a read-only REPEATABLE READ transaction: every query sees one snapshot
    /// even while other connections commit. Must not be nested in `transaction`.
    package func readTransaction<R>(_ body: () throws -> R) throws -> R {
        try transaction(begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
    }

    private func transaction<R>(begin: String, _ body: () throws -> R) throws -> R {
        if transactionDepth > 0 {
            transactionDepth += 1
            defer { transactionDepth -= 1 }
            return try body()
        }
        try execute(begin)
        transactionDepth = 1
        do {
            let result = try body()
            transactionDepth = 0
            try executeOnce("COMMIT")
            return result
        } catch {
            transactionDepth = 0
            try? executeOnce("ROLLBACK")
            throw error
        }
    }

    // MARK: libpq calls

    private func executePrepared(_ sql: String, _ parameters: [PostgresValue]) throws(PostgresError) -> OpaquePointer {
        guard let handle else { throw .closed }
        guard parameters.count <= PostgresConnection.maxParameters else { throw .tooManyParameters(count: parameters.count) }
        let types = parameters.map(\.typeOID)
        let key = PreparedKey(sql: sql, types: types)
        let name: String
        if let existing = prepared[key] {
            name = existing
        } else {
            name = "mosaic_\(prepared.count + 1)"
            let result = types.withUnsafeBufferPointer { PQprepare(handle, name, sql, Int32(types.count), $0.baseAddress) }
            defer { PQclear(result) }
            try check(result, sql: sql, preparing: true)
            prepared[key] = name
        }
        let result = PostgresConnection.withWireParameters(parameters) { values, lengths, formats in
            PQexecPrepared(handle, name, Int32(parameters.count), values, lengths, formats, 1)
        }
        return try checked(result, sql: sql)
    }

    private func executeUnnamed(_ sql: String, _ parameters: [PostgresValue]) throws(PostgresError) -> OpaquePointer {
        guard let handle else { throw .closed }
        guard parameters.count <= PostgresConnection.maxParameters else { throw .tooManyParameters(count: parameters.count) }
        let types = parameters.map(\.typeOID)
        let result = types.withUnsafeBufferPointer { typePointer in
            PostgresConnection.withWireParameters(parameters) { values, lengths, formats in
                PQexecParams(handle, sql, Int32(parameters.count), typePointer.baseAddress, values, lengths, formats, 1)
            }
        }
        return try checked(result, sql: sql)
    }

    /// Lays every parameter's binary form out in one buffer and calls `body` with libpq's three
    /// parallel arrays (value pointers, lengths, formats); NULL is a null pointer.
    private static func withWireParameters<R>(
        _ parameters: [PostgresValue],
        _ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) -> R
    ) -> R {
        // A leading byte keeps the buffer non-empty, so a zero-length value still has a non-null pointer.
        var buffer: [UInt8] = [0]
        var offsets: [Int?] = []
        var lengths: [Int32] = []
        for p in parameters {
            if let bytes = p.wireBytes {
                offsets.append(buffer.count)
                lengths.append(Int32(clamping: bytes.count))
                buffer.append(contentsOf: bytes)
            } else {
                offsets.append(nil)
                lengths.append(0)
            }
        }
        let formats = [Int32](repeating: 1, count: parameters.count)
        return buffer.withUnsafeBufferPointer { raw in
            let base = UnsafeRawPointer(raw.baseAddress)
            let values: [UnsafePointer<CChar>?] = offsets.map { offset in
                offset.flatMap { base?.advanced(by: $0).assumingMemoryBound(to: CChar.self) }
            }
            return values.withUnsafeBufferPointer { v in
                lengths.withUnsafeBufferPointer { l in
                    formats.withUnsafeBufferPointer { f in body(v.baseAddress, l.baseAddress, f.baseAddress) }
                }
            }
        }
    }

    /// The result when the command succeeded; otherwise clears it and throws the classified error.
    private func checked(_ result: OpaquePointer?, sql: String) throws(PostgresError) -> OpaquePointer {
        do {
            try check(result, sql: sql)
        } catch {
            PQclear(result)
            throw error
        }
        guard let result else { throw .execute(sqlState: "", message: "no result") }
        return result
    }

    private func check(_ result: OpaquePointer?, sql: String, preparing: Bool = false) throws(PostgresError) {
        guard let handle else { throw .closed }
        guard let result else {
            let message = PostgresConnection.text(PQerrorMessage(handle))
            if PQstatus(handle) != CONNECTION_OK { throw .connectionLost(message: message) }
            throw .execute(sqlState: "", message: message)
        }
        let status = PQresultStatus(result)
        if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_EMPTY_QUERY { return }
        let state = PostgresConnection.text(PQresultErrorField(result, Int32(UInt8(ascii: "C"))))
        let message = PostgresConnection.text(PQresultErrorMessage(result))
        if PQstatus(handle) != CONNECTION_OK || (state.isEmpty && status == PGRES_FATAL_ERROR && message.isEmpty) {
            throw .connectionLost(message: message.isEmpty ? PostgresConnection.text(PQerrorMessage(handle)) : message)
        }
        // Class 42 (syntax, undefined table or column) while preparing is the caller's SQL.
        if preparing && state.hasPrefix("42") { throw .prepare(sql: sql, sqlState: state, message: message) }
        throw PostgresError.classify(sqlState: state, message: message)
    }

    private static func rows(of result: OpaquePointer) throws(PostgresError) -> [PostgresRow] {
        let rowCount = Int(PQntuples(result))
        let columnCount = Int(PQnfields(result))
        let types = (0..<columnCount).map { UInt32(PQftype(result, Int32($0))) }
        var rows: [PostgresRow] = []
        rows.reserveCapacity(rowCount)
        for r in 0..<Int32(rowCount) {
            var values: [PostgresValue] = []
            values.reserveCapacity(columnCount)
            for c in 0..<columnCount {
                let column = Int32(c)
                if PQgetisnull(result, r, column) != 0 {
                    values.append(.null)
                    continue
                }
                let length = Int(PQgetlength(result, r, column))
                let bytes: [UInt8] =
                    if length > 0, let p = PQgetvalue(result, r, column) {
                        Array(UnsafeRawBufferPointer(start: UnsafeRawPointer(p), count: length))
                    } else { [] }
                values.append(try PostgresValue.decode(bytes, oid: types[c], column: c))
            }
            rows.append(PostgresRow(values: values))
        }
        return rows
    }

    private static func affectedRows(_ result: OpaquePointer) -> Int {
        Int(text(PQcmdTuples(result))) ?? 0
    }

    private static func text(_ p: UnsafePointer<CChar>?) -> String {
        guard let p else { return "" }
        return String(cString: p).trimmingSuffixWhitespace()
    }

    private static func text(_ p: UnsafeMutablePointer<CChar>?) -> String {
        text(UnsafePointer(p))
    }

    /// Notices ("relation already exists, skipping") would go to stderr; the store has no use for them.
    private static func silenceNotices(_ conn: OpaquePointer) {
        PQsetNoticeProcessor(conn, { _, _ in }, nil)
    }

    static func isPlainIdentifier(_ name: String) -> Bool {
        guard let first = name.utf8.first, first == UInt8(ascii: "_") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first) else {
            return false
        }
        return name.utf8.allSatisfy {
            $0 == UInt8(ascii: "_") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
        }
    }

    /// `postgres://user:secret@host/db` → `postgres://user:***@host/db`; `password=…` likewise.
    package static func redact(_ url: String) -> String {
        if let schemeEnd = url.firstIndex(of: ":"), url[schemeEnd...].hasPrefix("://") {
            let rest = url[url.index(schemeEnd, offsetBy: 3)...]
            // The user info ends at the first "@" before the path.
            guard let at = rest.prefix(while: { $0 != "/" }).lastIndex(of: "@") else { return url }
            let userInfo = rest[..<at]
            guard let colon = userInfo.firstIndex(of: ":") else { return url }
            return String(url[..<colon]) + ":***" + String(rest[at...])
        }
        return url.split(separator: " ").map { $0.hasPrefix("password=") ? "password=***" : String($0) }.joined(separator: " ")
    }
}

extension String {
    fileprivate func trimmingSuffixWhitespace() -> String {
        var s = Substring(self)
        while let last = s.last, last.isWhitespace { s.removeLast() }
        return String(s)
    }
}
