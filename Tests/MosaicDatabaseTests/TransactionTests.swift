import Foundation
import MosaicDatabase
import Testing

/// `Database.transaction`: committed when the body returns, rolled back when it throws, and a
/// nested call joins the outer transaction (so the outer decides for both).
@Suite struct TransactionTests {
    struct Boom: Error {}

    /// A fresh database with an empty table `t(k, n)` and its insert statement.
    struct Fresh {
        let path = NSTemporaryDirectory() + "mosaic-db-tx-\(UInt64.random(in: 0...UInt64.max)).sqlite"
        let db: Database
        let insert: Statement

        init() throws {
            db = try Database(path: path)
            try db.execute("CREATE TABLE t(k TEXT PRIMARY KEY, n INTEGER)")
            insert = try db.prepare("INSERT INTO t VALUES(?1, ?2)")
        }

        /// Closes the database and removes its files.
        func remove() {
            db.close()
            for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + s) }
        }
    }

    static func count(_ db: Database) throws -> Int64? {
        try db.prepare("SELECT COUNT(*) FROM t").queryOne { $0.int64(0) }
    }

    @Test func aReturningBodyCommitsAndItsValueIsReturned() throws {
        let fresh = try Fresh()
        defer { fresh.remove() }
        let (db, insert) = (fresh.db, fresh.insert)
        let value = try db.transaction { () throws -> Int in
            try insert.run(.text("a"), .integer(1))
            try insert.run(.text("b"), .integer(2))
            return 42
        }
        #expect(value == 42)
        #expect(try Self.count(db) == 2)
    }

    @Test func aNestedFailureRethrownByTheOuterBodyRollsBackBoth() throws {
        let fresh = try Fresh()
        defer { fresh.remove() }
        let (db, insert) = (fresh.db, fresh.insert)
        #expect(throws: Boom.self) {
            try db.transaction {
                try insert.run(.text("outer"), .integer(1))
                try db.transaction {
                    try insert.run(.text("inner"), .integer(2))
                    throw Boom()
                }
            }
        }
        #expect(try Self.count(db) == 0)
    }

    @Test func aNestedCommitIsUndoneWhenTheOuterBodyThrows() throws {
        let fresh = try Fresh()
        defer { fresh.remove() }
        let (db, insert) = (fresh.db, fresh.insert)
        #expect(throws: Boom.self) {
            try db.transaction {
                try db.transaction { try insert.run(.text("inner"), .integer(2)) }
                throw Boom()
            }
        }
        #expect(try Self.count(db) == 0)
    }

    @Test func aConstraintFailureRollsBackTheRowsBeforeIt() throws {
        let fresh = try Fresh()
        defer { fresh.remove() }
        let (db, insert) = (fresh.db, fresh.insert)
        try insert.run(.text("a"), .integer(1))
        #expect(throws: DatabaseError.self) {
            try db.transaction {
                try insert.run(.text("b"), .integer(2))
                try insert.run(.text("a"), .integer(3))
            }
        }
        #expect(try Self.count(db) == 1)
        // The connection is usable again: the failed transaction left nothing open.
        try db.transaction { try insert.run(.text("c"), .integer(4)) }
        #expect(try Self.count(db) == 2)
    }
}
