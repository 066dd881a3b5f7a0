import Foundation
import MosaicLedger
import Synchronization

/// The store the ledger and node suites run on: SQLite by default, PostgreSQL when
/// `MOSAIC_LEDGER_STORE=postgres` (scripts/test runs the suites both ways). On PostgreSQL every
/// ledger directory gets a fresh database of the shared throwaway server, and keeps it when the
/// ledger is reopened on that directory, as a restarted node keeps its `--db`.
package enum TestLedgerDatabase {
    /// True when this test process runs the ledger on PostgreSQL.
    package static var isPostgres: Bool { ProcessInfo.processInfo.environment["MOSAIC_LEDGER_STORE"] == "postgres" }

    private static let databases = Mutex<[String: String]>([:])

    /// Set by a parent test for a child process it starts on the same ledger (`environment(for:)`).
    static let inheritedVariable = "MOSAIC_LEDGER_STORE_URL"

    /// The database of the ledger in `directory` (its URL made on first use).
    package static func forDirectory(_ directory: String) throws -> LedgerDatabase {
        if let url = ProcessInfo.processInfo.environment[inheritedVariable] { return .postgres(url: url) }
        guard isPostgres else { return .sqlite }
        return .postgres(url: try url(for: directory))
    }

    /// What a child process needs in its environment to open `directory`'s ledger on the same database.
    package static func environment(for directory: String) throws -> [String: String] {
        isPostgres ? [inheritedVariable: try url(for: directory)] : [:]
    }

    /// `mosaic node` arguments that open `directory`'s ledger on the same database (`--db URL`).
    package static func nodeArguments(for directory: String) throws -> [String] {
        isPostgres ? ["--db", try url(for: directory)] : []
    }

    /// The PostgreSQL URL of `directory`'s ledger, for a node started as a child process (`--db`).
    package static func url(for directory: String) throws -> String {
        let key = (directory as NSString).standardizingPath
        if let url = databases.withLock({ $0[key] }) { return url }
        let url = try PostgresServer.shared.makeDatabase()
        return databases.withLock { map in
            if let existing = map[key] { return existing }
            map[key] = url
            return url
        }
    }
}
