import MosaicPostgres
import MosaicTestSupport
import Testing

/// The wrapper against a real server (Tests/Support/PostgresServer): binding, decoding, batches,
/// transactions, error codes, and a server restart.
@Suite struct PostgresConnectionTests {
    /// A connection to a fresh database with one table of every bound type, or nil when skipped.
    private func connection(_ test: String = #function) throws -> PostgresConnection? {
        guard let server = try PostgresServer.sharedOrSkip(test) else { return nil }
        let db = try PostgresConnection(url: try server.makeDatabase())
        try db.execute(
            """
            CREATE TABLE item (id BIGINT PRIMARY KEY, name TEXT, data BYTEA, flag BOOLEAN, amount BYTEA);
            CREATE TABLE IF NOT EXISTS item (id BIGINT PRIMARY KEY);
            """)
        return db
    }

    @Test func valuesRoundTripInBinaryFormat() throws {
        guard let db = try connection() else { return }
        // Text that would break string-built SQL is just a value when bound.
        let name = "Robert'); DROP TABLE item;--\\x00 é"
        try db.run(
            "INSERT INTO item (id, name, data, flag, amount) VALUES ($1, $2, $3, $4, $5)",
            [.integer(Int64.min), .text(name), .bytes([0, 1, 255]), .boolean(true), .uint64(UInt64.max)])
        try db.run(
            "INSERT INTO item (id, name, data, flag, amount) VALUES ($1, $2, $3, $4, $5)",
            [.integer(7), .null, .bytes([]), .boolean(false), .uint64(1)])
        let rows = try db.query("SELECT id, name, data, flag, amount FROM item ORDER BY id")
        #expect(rows.count == 2)
        #expect(try rows[0].int64(0) == Int64.min)
        #expect(try rows[0].string(1) == name)
        #expect(try rows[0].bytes(2) == [0, 1, 255])
        #expect(try rows[0].bool(3))
        #expect(try rows[0].uint64(4) == UInt64.max)
        #expect(try rows[1].isNull(1))
        #expect(try rows[1].optionalString(1) == nil)
        // An empty byte string is not NULL.
        #expect(try rows[1].bytes(2) == [])
        #expect(try !rows[1].bool(3))
        // Big-endian UInt64 bytes sort in numeric order on the server too.
        let ordered = try db.query("SELECT id FROM item ORDER BY amount").map { try $0.int64(0) }
        #expect(ordered == [7, Int64.min])
        #expect(try db.queryOne("SELECT count(*) FROM item")?.int64(0) == 2)
        #expect(try db.queryOne("SELECT id FROM item WHERE id = $1", [.integer(99)]) == nil)
    }

    /// Unlike SQLite, PostgreSQL text holds no NUL character: such a value is refused with a
    /// coded error (SQLSTATE 22021), never truncated. Bytes that may hold NUL go in `bytea`.
    @Test func aNulCharacterInTextIsRefusedNotTruncated() throws {
        guard let db = try connection() else { return }
        do {
            try db.run("INSERT INTO item (id, name) VALUES ($1, $2)", [.integer(1), .text("a\u{0}b")])
            Issue.record("text with NUL was stored")
        } catch {
            guard case .execute(let state, _) = error else { throw error }
            #expect(state == "22021")
        }
        try db.run("INSERT INTO item (id, data) VALUES ($1, $2)", [.integer(1), .bytes(Array("a\u{0}b".utf8))])
        #expect(try db.queryOne("SELECT data FROM item")?.bytes(0) == [97, 0, 98])
    }

    @Test func typedReadsOfTheWrongTypeThrowCodedErrors() throws {
        guard let db = try connection() else { return }
        let row = try #require(try db.queryOne("SELECT 1::int4, 'x'::text, 2::int2"))
        #expect(try row.int64(0) == 1)
        #expect(try row.int64(2) == 2)
        #expect(throws: PostgresError.typeMismatch(column: 1, expected: "an integer")) { try row.int64(1) }
        #expect(throws: PostgresError.noSuchColumn(column: 3)) { try row.string(3) }
        do {
            _ = try db.query("SELECT now()")
            Issue.record("a timestamp column decoded")
        } catch {
            #expect(error.code == "postgres.unsupported_type")
        }
    }

    @Test func theSameStatementWithNullAndWithAValueReusesPreparedVariants() throws {
        guard let db = try connection() else { return }
        let sql = "INSERT INTO item (id, name) VALUES ($1, $2)"
        for i in 0..<50 {
            try db.run(sql, [.integer(Int64(i)), i.isMultiple(of: 2) ? .null : .text("n\(i)")])
        }
        #expect(try db.queryOne("SELECT count(*) FROM item WHERE name IS NULL")?.int64(0) == 25)
        #expect(try db.run("UPDATE item SET flag = $1 WHERE id < $2", [.boolean(true), .integer(10)]) == 10)
    }

    /// Why batch lookups run unprepared: a prepared statement settles on a generic plan after
    /// five calls (made while the table was empty: a sequential scan, kept as the table fills),
    /// and every list length would leave one more statement in the session.
    @Test func unpreparedLookupsLeaveNoStatementBehindAndPlanForTheTableAsItIs() throws {
        guard let db = try connection() else { return }
        func lookup(_ ids: [Int64], prepared: Bool) throws -> [Int64] {
            let list = (1...ids.count).map { "$\($0)" }.joined(separator: ", ")
            return try db.query("SELECT id FROM item WHERE id IN (\(list)) ORDER BY id", ids.map { .integer($0) }, prepared: prepared)
                .map { try $0.int64(0) }
        }
        let ours = "FROM pg_prepared_statements WHERE statement LIKE 'SELECT id FROM item WHERE id IN%'"
        for _ in 0..<8 { _ = try lookup([1, 2, 3], prepared: true) }
        let settled = try db.queryOne("SELECT generic_plans \(ours)")
        let genericPlans = try settled?.int64(0) ?? 0
        #expect(genericPlans > 0)
        try db.insert(into: "item", columns: ["id"], rows: (0..<5_000).map { [.integer(Int64($0))] })
        for n in 1...20 {
            let ids = (0..<Int64(n)).map { $0 * 250 }
            let found = try lookup(ids + [1_000_000], prepared: false)
            #expect(found == ids)
        }
        let statements = try db.queryOne("SELECT count(*) \(ours)")
        let count = try statements?.int64(0)
        #expect(count == 1)
    }

    @Test func batchInsertSplitsAtTheParameterLimit() throws {
        guard let db = try connection() else { return }
        let rows: [[PostgresValue]] = (0..<30_000).map {
            [.integer(Int64($0)), .text("row \($0)"), .bytes([UInt8(truncatingIfNeeded: $0)])]
        }
        let inserted = try db.insert(into: "item", columns: ["id", "name", "data"], rows: rows, rowsPerStatement: 100_000)
        #expect(inserted == 30_000)
        #expect(try db.queryOne("SELECT count(*), max(id) FROM item")?.int64(1) == 29_999)
        // An upsert suffix from the caller's code.
        let updated = try db.insert(
            into: "item", columns: ["id", "name"], rows: [[.integer(1), .text("one")], [.integer(30_000), .text("new")]],
            suffix: "ON CONFLICT (id) DO UPDATE SET name = excluded.name")
        #expect(updated == 2)
        #expect(try db.queryOne("SELECT name FROM item WHERE id = 1")?.string(0) == "one")
        #expect(throws: PostgresError.invalidIdentifier("item; DROP TABLE item")) {
            try db.insert(into: "item; DROP TABLE item", columns: ["id"], rows: [[.integer(1)]])
        }
        #expect(throws: PostgresError.tooManyParameters(count: 65_536)) {
            try db.run("SELECT 1", [PostgresValue](repeating: .integer(1), count: 65_536))
        }
    }

    @Test func transactionsCommitOrRollBackAsAWhole() throws {
        guard let db = try connection() else { return }
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try db.transaction {
                try db.run("INSERT INTO item (id) VALUES ($1)", [.integer(1)])
                // Nested calls join the outer transaction, so they roll back with it.
                try db.transaction { try db.run("INSERT INTO item (id) VALUES ($1)", [.integer(2)]) }
                throw Abort()
            }
        }
        #expect(try db.queryOne("SELECT count(*) FROM item")?.int64(0) == 0)
        try db.transaction {
            try db.run("INSERT INTO item (id) VALUES ($1)", [.integer(3)])
        }
        #expect(try db.queryOne("SELECT count(*) FROM item")?.int64(0) == 1)
    }

    @Test func aReadTransactionSeesOneSnapshotWhileAnotherConnectionCommits() throws {
        guard let server = try PostgresServer.sharedOrSkip() else { return }
        let url = try server.makeDatabase()
        let reader = try PostgresConnection(url: url)
        let writer = try PostgresConnection(url: url)
        try writer.execute("CREATE TABLE item (id BIGINT PRIMARY KEY)")
        try writer.run("INSERT INTO item (id) VALUES ($1)", [.integer(1)])
        try reader.readTransaction {
            #expect(try reader.queryOne("SELECT count(*) FROM item")?.int64(0) == 1)
            try writer.run("INSERT INTO item (id) VALUES ($1)", [.integer(2)])
            #expect(try reader.queryOne("SELECT count(*) FROM item")?.int64(0) == 1)
        }
        #expect(try reader.queryOne("SELECT count(*) FROM item")?.int64(0) == 2)
    }

    @Test func serverErrorsAreClassifiedBySQLState() throws {
        guard let db = try connection() else { return }
        try db.run("INSERT INTO item (id) VALUES ($1)", [.integer(1)])
        do {
            try db.run("INSERT INTO item (id) VALUES ($1)", [.integer(1)])
            Issue.record("a duplicate key was accepted")
        } catch {
            guard case .constraint(let state, _) = error else { throw error }
            #expect(state == "23505")
            #expect(error.code == "postgres.constraint")
        }
        do {
            try db.run("SELEKT 1")
            Issue.record("invalid SQL ran")
        } catch {
            guard case .prepare(_, let state, _) = error else { throw error }
            #expect(state == "42601")
        }
        // The connection stays usable after errors.
        #expect(try db.queryOne("SELECT count(*) FROM item")?.int64(0) == 1)
    }

    @Test func connectingToNothingIsACodedError() throws {
        let port = freeLoopbackPorts(1)
        do {
            _ = try PostgresConnection(url: "postgresql://postgres@127.0.0.1:\(port)/postgres?connect_timeout=5")
            Issue.record("connected to a closed port")
        } catch {
            #expect(error.code == "postgres.connect")
        }
    }

    @Test func aServerRestartIsConnectionLostThenReconnectWorks() throws {
        guard try PostgresServer.sharedOrSkip() != nil else { return }
        // A server of its own, so the others keep theirs.
        let server = try PostgresServer()
        defer { server.stop() }
        let db = try PostgresConnection(url: server.url)
        try db.execute("CREATE TABLE item (id BIGINT PRIMARY KEY)")
        try db.run("INSERT INTO item (id) VALUES ($1)", [.integer(1)])
        // Terminating the backend is what a server restart does to every connection.
        let admin = try PostgresConnection(url: server.url)
        try admin.run(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND datname = $1", [.text("postgres")])
        do {
            _ = try db.query("SELECT count(*) FROM item")
            Issue.record("a terminated connection answered")
        } catch {
            #expect(error.code == "postgres.connection_lost")
        }
        try db.reconnect()
        #expect(db.isConnected)
        #expect(try db.queryOne("SELECT count(*) FROM item")?.int64(0) == 1)
    }

    /// With `reconnectsOutsideTransactions`, a command after the session was ended runs on a new
    /// one (with `onReconnect`'s settings); a transaction whose session ends fails as a whole and
    /// is never reported committed.
    @Test func aLostSessionReconnectsOutsideTransactionsButNeverInsideOne() throws {
        guard try PostgresServer.sharedOrSkip() != nil else { return }
        let server = try PostgresServer()
        defer { server.stop() }
        let db = try PostgresConnection(url: server.url)
        db.reconnectsOutsideTransactions = true
        var reconnects = 0
        db.onReconnect = { () throws(PostgresError) in
            reconnects += 1
            try db.execute("SET application_name = 'again'")
        }
        try db.execute("CREATE TABLE item (id BIGINT PRIMARY KEY)")
        let admin = try PostgresConnection(url: server.url)
        func terminate() throws {
            try admin.run(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND datname = $1",
                [.text("postgres")])
        }
        try terminate()
        try db.run("INSERT INTO item (id) VALUES ($1)", [.integer(1)])
        #expect(reconnects == 1)
        #expect(try db.queryOne("SELECT current_setting('application_name')")?.string(0) == "again")

        do {
            try db.transaction {
                try db.run("INSERT INTO item (id) VALUES ($1)", [.integer(2)])
                try terminate()
                try db.run("INSERT INTO item (id) VALUES ($1)", [.integer(3)])
            }
            Issue.record("a transaction whose session ended was reported committed")
        } catch {
            #expect((error as? PostgresError)?.code == "postgres.connection_lost", "\(error)")
        }
        #expect(try db.query("SELECT id FROM item ORDER BY id").map { try $0.int64(0) } == [1])
    }

    @Test func passwordsAreRedactedFromTheLoggedURL() throws {
        let port = freeLoopbackPorts(1)
        #expect(
            PostgresConnection.redact("postgresql://alice:s3cret@db.example:5432/ledger") == "postgresql://alice:***@db.example:5432/ledger"
        )
        #expect(PostgresConnection.redact("postgresql://alice@db.example/ledger") == "postgresql://alice@db.example/ledger")
        #expect(PostgresConnection.redact("host=db user=alice password=s3cret") == "host=db user=alice password=***")
        // A failing connect still shows no password in the error.
        do {
            _ = try PostgresConnection(url: "postgresql://alice:s3cret@127.0.0.1:\(port)/db?connect_timeout=2")
        } catch {
            #expect(!error.description.contains("s3cret"))
        }
    }
}

/// LISTEN/NOTIFY: a wait on one connection ends when another commits a NOTIFY.
@Suite struct PostgresNotificationTests {
    @Test func aListenerIsWokenByANotifyFromAnotherConnection() throws {
        guard let server = try PostgresServer.sharedOrSkip() else { return }
        let url = try server.makeDatabase()
        let listener = try PostgresConnection(url: url)
        let sender = try PostgresConnection(url: url)
        try listener.execute("LISTEN blocks")
        #expect(try listener.notifications(timeout: 0).isEmpty)
        // Delivered on commit only: a rolled-back NOTIFY is never seen.
        struct Abort: Error {}
        _ = try? sender.transaction {
            try sender.run("SELECT pg_notify($1, $2)", [.text("blocks"), .text("rolled back")])
            throw Abort()
        }
        try sender.transaction {
            try sender.run("SELECT pg_notify($1, $2)", [.text("blocks"), .text("7")])
        }
        var received: [PostgresNotification] = []
        for _ in 0..<50 where received.isEmpty { received = try listener.notifications(timeout: 100) }
        #expect(received.map(\.payload) == ["7"])
        #expect(received.first?.channel == "blocks")
        // Nothing more arrives: the wait times out empty.
        #expect(try listener.notifications(timeout: 50).isEmpty)
    }
}
