import Foundation
import MosaicDatabase
import MosaicProtocol
import MosaicStorageCore

/// The blobber's metadata on disk (`meta.sqlite`): one row per allocation, one per path, one per
/// write marker not yet on the ledger. A commit writes only the rows it changes, in one SQLite
/// transaction (synchronous FULL), so its cost does not grow with the allocation's file count and
/// a crash leaves the old or the new state, never a mix. What a commit removes (a deleted file's
/// signed metadata with its wrapped key) is erased from the files, not just unlinked from the
/// b-tree: `secure_delete` zeroes freed content and such commits truncate the WAL.
///
/// Not thread-safe: `BlobberServer` calls it only while holding its records lock.
final class BlobberMetaStore {
    private let db: Database

    init(path: String) throws {
        db = try Database(path: path, synchronous: .full)
        try db.execute("PRAGMA secure_delete=ON")
        try db.execute(
            """
            CREATE TABLE IF NOT EXISTS allocations(id TEXT PRIMARY KEY, assignment BLOB NOT NULL, idx INTEGER NOT NULL,
                root TEXT NOT NULL, size INTEGER NOT NULL, write_marker BLOB) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS files(allocation TEXT NOT NULL, path TEXT NOT NULL, meta BLOB NOT NULL, fragment TEXT,
                PRIMARY KEY(allocation, path)) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS pending_markers(allocation TEXT NOT NULL, seq INTEGER NOT NULL, signature TEXT NOT NULL,
                marker BLOB NOT NULL, PRIMARY KEY(allocation, seq)) WITHOUT ROWID;
            """)
    }

    /// Every allocation as the last committed transaction left it.
    func loadAll() throws -> [String: AllocationRecord] {
        let decoder = JSONDecoder()
        var out: [String: AllocationRecord] = [:]
        let rows = try db.prepare("SELECT id, assignment, idx, root, size, write_marker FROM allocations")
            .query { s in (s.string(0), s.bytes(1), s.int64(2), s.string(3), s.int64(4), s.isNull(5) ? nil : s.bytes(5)) }
        for (id, assignment, index, root, size, marker) in rows {
            var r = AllocationRecord(assignment: try decoder.decode(AllocationAssignment.self, from: Data(assignment)), index: Int(index))
            r.root = root
            r.size = UInt64(max(size, 0))
            r.writeMarker = try marker.map { try decoder.decode(WriteMarker.self, from: Data($0)) }
            out[id] = r
        }
        for (allocation, path, meta, fragment) in try db.prepare("SELECT allocation, path, meta, fragment FROM files")
            .query([], { s in (s.string(0), s.string(1), s.bytes(2), s.optionalString(3)) })
        {
            out[allocation]?.files[path] = .init(meta: try decoder.decode(FileMeta.self, from: Data(meta)), fragment: fragment)
        }
        for (allocation, marker) in try db.prepare("SELECT allocation, marker FROM pending_markers ORDER BY allocation, seq")
            .query([], { s in (s.string(0), s.bytes(1)) })
        {
            out[allocation]?.pendingMarkers.append(try decoder.decode(WriteMarker.self, from: Data(marker)))
        }
        return out
    }

    /// Writes the allocation's own row (assignment, root, size, latest marker).
    func saveAllocation(_ r: AllocationRecord) throws {
        let encoder = JSONEncoder()
        try db.prepare(
            """
            INSERT INTO allocations(id, assignment, idx, root, size, write_marker) VALUES(?1, ?2, ?3, ?4, ?5, ?6)
            ON CONFLICT(id) DO UPDATE SET assignment = excluded.assignment, idx = excluded.idx, root = excluded.root,
                size = excluded.size, write_marker = excluded.write_marker
            """
        ).run(
            .text(r.assignment.allocationID), .blob(Array(try encoder.encode(r.assignment))), .integer(Int64(r.index)),
            .text(r.root), .integer(Int64(clamping: r.size)),
            try r.writeMarker.map { .blob(Array(try encoder.encode($0))) } ?? .null)
    }

    /// One commit: the allocation row, the changed paths (written, or deleted when absent from
    /// `r.files`) and the new pending marker, atomically. `erases` (the commit deletes or replaces
    /// paths) also checkpoints and truncates the WAL, whose older frames still hold the old rows.
    func commit(_ r: AllocationRecord, paths: Set<String>, marker: WriteMarker, erases: Bool) throws {
        let encoder = JSONEncoder()
        let id = r.assignment.allocationID
        try db.transaction {
            try saveAllocation(r)
            for path in paths {
                if let f = r.files[path] {
                    try db.prepare("INSERT OR REPLACE INTO files(allocation, path, meta, fragment) VALUES(?1, ?2, ?3, ?4)")
                        .run(.text(id), .text(path), .blob(Array(try encoder.encode(f.meta))), f.fragment.map { .text($0) } ?? .null)
                } else {
                    try db.prepare("DELETE FROM files WHERE allocation = ?1 AND path = ?2").run(.text(id), .text(path))
                }
            }
            try appendPending(id, marker, encoder: encoder)
        }
        if erases { try db.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
    }

    /// Forgets pending markers the ledger now holds.
    func removePending(_ allocation: String, signatures: Set<String>) throws {
        try db.transaction {
            for signature in signatures {
                try db.prepare("DELETE FROM pending_markers WHERE allocation = ?1 AND signature = ?2").run(
                    .text(allocation), .text(signature))
            }
        }
    }

    /// Moves the JSON records of earlier versions (`meta/<allocation>.json`) into the database once,
    /// then deletes them: the import is one transaction, so a crash during it just repeats it.
    func importJSONRecords(from folder: String) throws {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter {
            $0.hasSuffix(".json") && !$0.hasPrefix(".")
        }
        guard !names.isEmpty else { return }
        let encoder = JSONEncoder()
        try db.transaction {
            for name in names {
                let r = try JSONDecoder().decode(AllocationRecord.self, from: Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
                let id = r.assignment.allocationID
                try db.prepare("DELETE FROM files WHERE allocation = ?1").run(.text(id))
                try db.prepare("DELETE FROM pending_markers WHERE allocation = ?1").run(.text(id))
                try saveAllocation(r)
                for (path, f) in r.files {
                    try db.prepare("INSERT INTO files(allocation, path, meta, fragment) VALUES(?1, ?2, ?3, ?4)")
                        .run(.text(id), .text(path), .blob(Array(try encoder.encode(f.meta))), f.fragment.map { .text($0) } ?? .null)
                }
                for m in r.pendingMarkers { try appendPending(id, m, encoder: encoder) }
            }
        }
        for name in names { unlink(folder + "/" + name) }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasPrefix(".") && name.contains(".tmp-")
        {
            unlink(folder + "/" + name)  // a JSON replacement cut short by a crash of the earlier version
        }
        rmdir(folder)
    }

    private func appendPending(_ allocation: String, _ marker: WriteMarker, encoder: JSONEncoder) throws {
        try db.prepare(
            """
            INSERT INTO pending_markers(allocation, seq, signature, marker)
            VALUES(?1, (SELECT COALESCE(MAX(seq), 0) + 1 FROM pending_markers WHERE allocation = ?1), ?2, ?3)
            """
        ).run(.text(allocation), .text(marker.signature), .blob(Array(try encoder.encode(marker))))
    }

    func close() { db.close() }
}
