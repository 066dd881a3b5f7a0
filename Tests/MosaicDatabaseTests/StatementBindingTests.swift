import Foundation
import MosaicDatabase
import Testing

/// Binding values to `?N`: out-of-range indices are errors, not silently dropped; `UInt64` is exact
/// at its bounds; empty blobs and text with NUL characters survive the round trip.
@Suite struct StatementBindingTests {
    static func fresh() throws -> ScratchDatabase {
        try ScratchDatabase("bind", table: "CREATE TABLE t(k TEXT PRIMARY KEY, v BLOB, n INTEGER)")
    }

    @Test func moreValuesThanParametersIsARangeError() throws {
        let scratch = try Self.fresh()
        defer { scratch.remove() }
        let db = scratch.db
        let insert = try db.prepare("INSERT INTO t VALUES(?1, ?2, ?3)")
        do {
            try insert.run(.text("a"), .null, .integer(1), .integer(2))
            Issue.record("a fourth value for three parameters was accepted")
        } catch let DatabaseError.execute(code, _) {
            #expect(code == 25)  // SQLITE_RANGE
        }
        let count = try db.prepare("SELECT COUNT(*) FROM t").queryOne { $0.int64(0) }
        #expect(count == 0)
    }

    @Test func unboundParametersAreNull() throws {
        let scratch = try Self.fresh()
        defer { scratch.remove() }
        let db = scratch.db
        try db.prepare("INSERT INTO t VALUES(?1, ?2, ?3)").run(.text("a"))
        let row = try db.prepare("SELECT v IS NULL, n IS NULL FROM t WHERE k = ?1").queryOne([.text("a")]) { s in (s.int64(0), s.int64(1)) }
        #expect(row?.0 == 1)
        #expect(row?.1 == 1)
    }

    @Test(arguments: [UInt64(0), 1, UInt64(Int64.max), UInt64(Int64.max) + 1, UInt64.max])
    func uint64IsExactAtItsBounds(value: UInt64) throws {
        let scratch = try Self.fresh()
        defer { scratch.remove() }
        let db = scratch.db
        try db.prepare("INSERT INTO t VALUES(?1, ?2, NULL)").run(.text("a"), .uint64(value))
        let read = try db.prepare("SELECT v FROM t WHERE k = ?1").queryOne([.text("a")]) { s throws(DatabaseError) in try s.uint64(0) }
        #expect(read == value)
    }

    @Test func uint64BlobsSortInNumericOrder() throws {
        let scratch = try Self.fresh()
        defer { scratch.remove() }
        let db = scratch.db
        let insert = try db.prepare("INSERT INTO t VALUES(?1, ?2, NULL)")
        let values: [UInt64] = [UInt64.max, 0, 256, 255, UInt64(Int64.max) + 1, 1]
        for (i, v) in values.enumerated() { try insert.run(.text("k\(i)"), .uint64(v)) }
        let sorted = try db.prepare("SELECT v FROM t ORDER BY v").query { s throws(DatabaseError) in try s.uint64(0) }
        #expect(sorted == values.sorted())
    }

    @Test func readingAnIntegerAsUInt64IsATypeMismatch() throws {
        let scratch = try Self.fresh()
        defer { scratch.remove() }
        let db = scratch.db
        try db.prepare("INSERT INTO t VALUES(?1, NULL, ?2)").run(.text("a"), .integer(7))
        #expect(throws: DatabaseError.typeMismatch(column: 0, expected: "an 8-byte unsigned integer")) {
            _ = try db.prepare("SELECT n FROM t").queryOne { s throws(DatabaseError) in try s.uint64(0) }
        }
    }

    @Test func anEmptyBlobIsNotNullAndNulCharactersSurvive() throws {
        let scratch = try Self.fresh()
        defer { scratch.remove() }
        let db = scratch.db
        let key = "a\u{0}b"
        try db.prepare("INSERT INTO t VALUES(?1, ?2, NULL)").run(.text(key), .blob([]))
        let row = try db.prepare("SELECT k, v IS NULL, length(v) FROM t").queryOne { s in (s.string(0), s.int64(1), s.int64(2)) }
        #expect(row?.0 == key)
        #expect(row?.1 == 0)
        #expect(row?.2 == 0)
    }
}
