import Foundation
import MosaicDatabase
import Testing

/// `Database.transaction`: committed when the body returns, rolled back when it throws, and a
/// nested call joins the outer transaction (so the outer decides for both).
@Suite struct TransactionTests {
    struct Boom: Error {}

    /// A scratch database with an empty table `t(k, n)`.
    static func fresh() throws -> ScratchDatabase { try ScratchDatabase("tx", table: "CREATE TABLE t(k TEXT PRIMARY KEY, n INTEGER)") }

    static func count(_ db: Database) throws -> Int64? {
        try db.prepare("SELECT COUNT(*) FROM t").queryOne { $0.int64(0) }
    }

    @Test func aReturningBodyCommitsAndItsValueIsReturned() throws {
        let scratch = try Self.fresh()
        defer { scratch.remove() }
        let db = scratch.db
        let insert = try db.prepare("INSERT INTO t VALUES(?1, ?2)")
        let value = try db.transaction { () throws -> Int in
            try insert.run(.text("a"), .integer(1))
            try insert.run(.text("b"), .integer(2))
            return 42
        }
        #expect(value == 42)
        #expect(try Self.count(db) == 2)
    }

    @Test func aNestedFailureRethrownByTheOuterBodyRollsBackBoth() throws {
        let scratch = try Self.fresh()
        defer { scratch.remove() }
        let db = scratch.db
        let insert = try db.prepare("INSERT INTO t VALUES(?1, ?2)")
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
        let scratch = try Self.fresh()
        defer { scratch.remove() }
        let db = scratch.db
        let insert = try db.prepare("INSERT INTO t VALUES(?1, ?2)")
        #expect(throws: Boom.self) {
            try db.transaction {
                try db.transaction { try insert.run(.text("inner"), .integer(2)) }
                throw Boom()
            }
        }
        #expect(try Self.count(db) == 0)
    }

    @Test func aConstraintFailureRollsBackTheRowsBeforeIt() throws {
        let scratch = try Self.fresh()
        defer { scratch.remove() }
        let db = scratch.db
        let insert = try db.prepare("INSERT INTO t VALUES(?1, ?2)")
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
