import Foundation
import MosaicDatabase

/// A database file in the temporary folder made with one `CREATE TABLE`; `remove` closes it and
/// deletes it with its WAL files.
struct ScratchDatabase {
    let path: String
    let db: Database

    init(_ name: String, table: String) throws {
        path = NSTemporaryDirectory() + "mosaic-db-\(name)-\(UInt64.random(in: 0...UInt64.max)).sqlite"
        db = try Database(path: path)
        try db.execute(table)
    }

    func remove() {
        db.close()
        for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + s) }
    }
}
