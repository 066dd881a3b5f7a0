import Foundation
import MosaicDatabase
import MosaicProtocol
import MosaicStorageCore

/// Accepted read markers on disk (`read-markers.sqlite`), written before the blocks they pay for
/// are served: a blobber killed before redeeming still holds every reader's latest marker when it
/// restarts, so no served read goes unpaid.
final class ReadMarkerJournal {
    private let db: Database

    init(path: String) throws {
        db = try Database(path: path, synchronous: .normal)
        try db.execute(
            """
            CREATE TABLE IF NOT EXISTS read_markers(key TEXT PRIMARY KEY, marker BLOB NOT NULL, counter INTEGER NOT NULL,
                redeemed INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID;
            """)
    }

    /// Keeps `marker` as the latest one of `key` ("allocation|reader").
    func record(_ key: String, _ marker: ReadMarker) throws {
        try db.prepare(
            """
            INSERT INTO read_markers(key, marker, counter) VALUES(?1, ?2, ?3)
            ON CONFLICT(key) DO UPDATE SET marker = excluded.marker, counter = excluded.counter
            """
        ).run(.text(key), .blob(Array(try JSONEncoder().encode(marker))), .integer(Int64(clamping: marker.counter)))
    }

    /// Notes that the ledger paid `key` up to `counter`.
    func markRedeemed(_ key: String, counter: UInt64) throws {
        try db.prepare("UPDATE read_markers SET redeemed = MAX(redeemed, ?2) WHERE key = ?1")
            .run(.text(key), .integer(Int64(clamping: counter)))
    }

    /// Every marker with what was redeemed of it, as left by the last run.
    func load() throws -> (latest: [String: ReadMarker], redeemed: [String: UInt64]) {
        var latest: [String: ReadMarker] = [:]
        var redeemed: [String: UInt64] = [:]
        let rows = try db.prepare("SELECT key, marker, redeemed FROM read_markers").query { s in (s.string(0), s.bytes(1), s.int64(2)) }
        for (key, bytes, paid) in rows {
            latest[key] = try JSONDecoder().decode(ReadMarker.self, from: Data(bytes))
            redeemed[key] = UInt64(max(paid, 0))
        }
        return (latest, redeemed)
    }

    func close() { db.close() }
}
