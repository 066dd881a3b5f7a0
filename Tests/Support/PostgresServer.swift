import Foundation
import MosaicPostgres
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A real PostgreSQL server for tests: a `LocalPostgres` in a temporary folder, on a free
/// loopback port, with durability off, stopped and removed when the test process exits. Never the
/// system service. Each test takes a database of its own from `PostgresServer.shared.makeDatabase()`.
public final class PostgresServer: Sendable {
    /// Why no server could be started; tests print it and skip.
    public enum Unavailable: Error, CustomStringConvertible {
        case notInstalled(String)
        case noPostgresUser
        case failed(String)

        public var description: String {
            switch self {
            case .notInstalled(let path): return "PostgreSQL is not installed (\(path) missing; scripts/setup installs postgresql-15)"
            case .noPostgresUser: return "running as root but there is no `postgres` user to run the server as"
            case .failed(let why): return "the test PostgreSQL did not start: \(why)"
            }
        }
    }

    /// The server's folder (data, socket, log), removed by `stop`.
    public let directory: String
    public let port: UInt16
    /// The `postgres` maintenance database of the server.
    public let url: String
    private let server: LocalPostgres
    private let databases = Mutex(0)

    private static let sharedServer = Mutex<Result<PostgresServer, Unavailable>?>(nil)

    /// One server for the whole test process, started on first use and stopped at exit.
    public static var shared: PostgresServer {
        get throws(Unavailable) {
            let result = sharedServer.withLock { server in
                if let server { return server }
                let started = Result { () throws(Unavailable) in try PostgresServer() }
                if case .success = started { atexit { PostgresServer.stopShared() } }
                server = started
                return started
            }
            return try result.get()
        }
    }

    private static func stopShared() {
        if case .success(let server) = sharedServer.withLock({ $0 }) { server.stop() }
    }

    private let settings: [String: String]

    /// Starts a fresh server (a few seconds: initdb, then pg_ctl start).
    /// - Parameter overrides: settings over the defaults (durability off), e.g.
    ///   `synchronous_commit=on` for a test that crashes the server and counts what it kept.
    public init(settings overrides: [String: String] = [:]) throws(Unavailable) {
        var template = Array("/tmp/mosaic-pg-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw .failed("mkdtemp: \(String(cString: strerror(errno)))") }
        directory = String(cString: made)
        do throws(LocalPostgresError) {
            server = try LocalPostgres(directory: directory)
            try server.prepare(durable: false)
            // Durability off: the tests kill processes, not machines.
            settings = [
                "fsync": "off", "synchronous_commit": "off", "full_page_writes": "off", "max_connections": "200",
            ].merging(overrides) { $1 }
            port = try server.start(settings: settings)
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            switch error {
            case .notInstalled(let path): throw .notInstalled(path)
            case .noPostgresUser: throw .noPostgresUser
            default: throw .failed(error.description)
            }
        }
        url = "postgresql://postgres@127.0.0.1:\(port)/postgres"
    }

    /// A new, empty database on this server; its URL.
    public func makeDatabase() throws -> String {
        let n = databases.withLock { n in
            n += 1
            return n
        }
        let name = "mosaic_test_\(getpid())_\(n)"
        let admin = try PostgresConnection(url: url)
        // The name is made here from numbers, never from input; CREATE DATABASE takes no parameters.
        try admin.execute("CREATE DATABASE \(name)")
        return "postgresql://postgres@127.0.0.1:\(port)/\(name)"
    }

    /// Crashes the server (an immediate stop: no clean shutdown, every session cut) and starts it
    /// again on the same port and data, which replays its write-ahead log.
    public func restart() throws {
        crash()
        try startAgain()
    }

    /// Stops the server at once (no clean shutdown, every session cut) and leaves it down.
    public func crash() { server.stop(immediate: true) }

    /// Starts a crashed server again on its port and data.
    public func startAgain() throws { try server.start(settings: settings, port: port) }

    /// Stops the server at once and removes its folder.
    public func stop() {
        server.stop(immediate: true)
        try? FileManager.default.removeItem(atPath: directory)
    }
}

extension PostgresServer {
    /// The shared server, or nil after printing why there is none (not installed, no `postgres`
    /// user), so the caller skips. With `MOSAIC_REQUIRE_POSTGRES=1` (scripts/test, where setup
    /// installed it) a missing server is an error instead of a skip.
    public static func sharedOrSkip(_ test: String = #function) throws -> PostgresServer? {
        do {
            return try shared
        } catch {
            if ProcessInfo.processInfo.environment["MOSAIC_REQUIRE_POSTGRES"] == "1" { throw error }
            print("SKIPPED \(test) on PostgreSQL: \(error)")
            return nil
        }
    }
}

extension PostgresServer {
    /// Whether a local PostgreSQL can be started here (the programs, and under root a `postgres`
    /// user); false after printing why not, so the caller skips. With `MOSAIC_REQUIRE_POSTGRES=1`
    /// a missing PostgreSQL is an error instead of a skip.
    public static func installedOrSkip(_ test: String = #function) throws -> Bool {
        do {
            _ = try LocalPostgres(directory: NSTemporaryDirectory())
            return true
        } catch {
            if ProcessInfo.processInfo.environment["MOSAIC_REQUIRE_POSTGRES"] == "1" { throw error }
            print("SKIPPED \(test) on PostgreSQL: \(error)")
            return false
        }
    }

    /// Stops a server left running on the cluster in `directory` (a `LocalPostgres` folder), as a
    /// test's clean-up after a failure; nothing when none runs.
    public static func stopLeftover(in directory: String) {
        guard let server = try? LocalPostgres(directory: directory), server.isRunning else { return }
        server.stopServer(immediate: true)
    }
}
