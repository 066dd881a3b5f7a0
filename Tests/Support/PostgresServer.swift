import Foundation
import MosaicPostgres
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A real PostgreSQL server for tests: `initdb` and `pg_ctl` in a temporary folder, on a free
/// loopback port, stopped and removed when the test process exits. Never the system service.
///
/// The server refuses to run as root, so under root it runs as the `postgres` user that Debian's
/// package creates (`runuser`), in a folder chowned to that user. Each test takes a database of
/// its own from `PostgresServer.shared.makeDatabase()`.
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
    private let binaries: String
    private let runAs: String?
    private let databases = Mutex(0)

    /// Where Debian's postgresql-15 puts its programs; `MOSAIC_PG_BIN` overrides it.
    static var binaryDirectory: String {
        ProcessInfo.processInfo.environment["MOSAIC_PG_BIN"] ?? "/usr/lib/postgresql/15/bin"
    }

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

    /// Starts a fresh server (a few seconds: initdb, then pg_ctl start).
    public init() throws(Unavailable) {
        binaries = PostgresServer.binaryDirectory
        guard FileManager.default.isExecutableFile(atPath: binaries + "/initdb") else { throw .notInstalled(binaries + "/initdb") }
        var owner: (uid: uid_t, gid: gid_t)?
        if getuid() == 0 {
            guard let pw = getpwnam("postgres") else { throw .noPostgresUser }
            owner = (pw.pointee.pw_uid, pw.pointee.pw_gid)
            runAs = "postgres"
        } else {
            runAs = nil
        }
        var template = Array("/tmp/mosaic-pg-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw .failed("mkdtemp: \(String(cString: strerror(errno)))") }
        directory = String(cString: made)
        chmod(directory, 0o700)
        if let owner { chown(directory, owner.uid, owner.gid) }

        var lastError = ""
        for _ in 0..<3 {
            let port = freeLoopbackPorts(1)
            if PostgresServer.initialized(directory)
                || PostgresServer.run(
                    binaries + "/initdb",
                    [
                        "-D", directory + "/data", "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync",
                    ], as: runAs, log: directory + "/initdb.log") == 0
            {
                // Durability off: the tests kill processes, not machines.
                let options =
                    "-p \(port) -k \(directory) -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
                if PostgresServer.run(
                    binaries + "/pg_ctl",
                    [
                        "-D", directory + "/data", "-o", options, "-l", directory + "/server.log", "-w", "-t", "60", "start",
                    ], as: runAs, log: directory + "/pg_ctl.log") == 0
                {
                    self.port = port
                    self.url = "postgresql://postgres@127.0.0.1:\(port)/postgres"
                    return
                }
                lastError = (try? String(contentsOfFile: directory + "/server.log", encoding: .utf8)) ?? "pg_ctl start failed"
            } else {
                lastError = (try? String(contentsOfFile: directory + "/initdb.log", encoding: .utf8)) ?? "initdb failed"
                break
            }
        }
        try? FileManager.default.removeItem(atPath: directory)
        throw .failed(String(lastError.suffix(2000)))
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

    /// Stops the server at once and removes its folder.
    public func stop() {
        _ = PostgresServer.run(
            binaries + "/pg_ctl", ["-D", directory + "/data", "-m", "immediate", "-w", "stop"], as: runAs, log: nil)
        try? FileManager.default.removeItem(atPath: directory)
    }

    private static func initialized(_ directory: String) -> Bool {
        FileManager.default.fileExists(atPath: directory + "/data/PG_VERSION")
    }

    /// Runs a PostgreSQL program to its end (as `user` through runuser when given); its exit code.
    private static func run(_ program: String, _ arguments: [String], as user: String?, log: String?) -> Int32 {
        let fd = log.map { open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o644) } ?? -1
        defer { if fd >= 0 { close(fd) } }
        let (executable, argv) = user.map { ("/usr/sbin/runuser", ["-u", $0, "--", program] + arguments) } ?? (program, arguments)
        let environment = ["PATH": "/usr/bin:/bin", "LANG": "C", "LC_ALL": "C"]
        guard
            let child = try? Subprocess(
                executable: executable, arguments: argv, environment: environment, stdout: fd >= 0 ? fd : nil, stderr: fd >= 0 ? fd : nil)
        else { return -1 }
        return child.waitUntilExit()
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
