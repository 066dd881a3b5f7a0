import Foundation
import MosaicDatabase
import Testing

@Suite struct DatabaseTests {
    struct Boom: Error {}

    @Test func typedValuesRoundTripAndTransactionsRollBack() throws {
        let path = NSTemporaryDirectory() + "mosaic-db-test-\(UInt64.random(in: 0...UInt64.max)).sqlite"
        defer { for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + s) } }
        let db = try Database(path: path)
        try db.execute("CREATE TABLE t(k TEXT PRIMARY KEY, n INTEGER, u BLOB, b BLOB, s TEXT)")
        let insert = try db.prepare("INSERT INTO t VALUES(?1, ?2, ?3, ?4, ?5)")
        try insert.run(.text("a"), .integer(-5), .uint64(UInt64.max), .blob([1, 2, 3]), .null)
        let row = try db.prepare("SELECT n, u, b, s FROM t WHERE k = ?1").queryOne([.text("a")]) { s throws(DatabaseError) in
            (s.int64(0), try s.uint64(1), s.bytes(2), s.optionalString(3))
        }
        #expect(row?.0 == -5)
        #expect(row?.1 == UInt64.max)
        #expect(row?.2 == [1, 2, 3])
        #expect(row?.3 == nil)

        #expect(throws: Boom.self) {
            try db.transaction {
                try insert.run(.text("b"), .integer(1), .uint64(1), .blob([]), .text("x"))
                throw Boom()
            }
        }
        let count = try db.prepare("SELECT COUNT(*) FROM t").queryOne { $0.int64(0) }
        #expect(count == 1)
        #expect(throws: DatabaseError.self) { try insert.run(.text("a"), .integer(1), .uint64(1), .blob([]), .null) }
        #expect(throws: DatabaseError.self) { _ = try db.prepare("SELEC nonsense") }
        db.close()
        #expect(throws: DatabaseError.closed) { try db.execute("SELECT 1") }
    }
}
