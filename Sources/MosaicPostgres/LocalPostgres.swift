import Foundation
import MosaicErrors
import MosaicSubprocess
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A PostgreSQL server of this machine's PostgreSQL programs (`initdb`, `pg_ctl`) in a folder of
/// its own: made once, started on a free loopback port, stopped with `pg_ctl stop`. The devnet
/// keeps its chain in one (`DIR/postgres`, reused by the next start); the tests start a throwaway
/// one (`PostgresServer`). Never the system service.
///
/// Trust authentication, on 127.0.0.1 and a Unix socket in the folder only, so no password is ever
/// written. The server refuses to run as root, so under root it runs as the `postgres` user that
/// Debian's package creates (`runuser`), in a folder chowned to that user. While started, an
/// exclusive lock on `directory/owner.lock` keeps a second process from starting the same server.
package final class LocalPostgres: Sendable {
    /// The folder: `data/` (the cluster), `server.log`, the socket and the owner lock.
    package let directory: String
    /// Where `initdb` and `pg_ctl` are.
    package let binaries: String
    /// Who the server runs as under root; nil runs it as this process's user.
    private let owner: Owner?
    private let state = Mutex<State>(State())

    private struct Owner: Sendable {
        let name: String
        let uid: uid_t
        let gid: gid_t
    }

    private struct State {
        var port: UInt16?
        /// The descriptor holding the owner lock while started, or -1.
        var lock: Int32 = -1
    }

    /// Where Debian's postgresql-15 puts its programs; `MOSAIC_PG_BIN` overrides it.
    package static var binaryDirectory: String {
        ProcessInfo.processInfo.environment["MOSAIC_PG_BIN"] ?? "/usr/lib/postgresql/15/bin"
    }

    /// Checks the programs are installed and, under root, that there is a `postgres` user to run
    /// them as; touches nothing yet.
    package init(directory: String, binaries: String = LocalPostgres.binaryDirectory) throws(LocalPostgresError) {
        self.directory = (directory as NSString).standardizingPath
        self.binaries = binaries
        for program in ["initdb", "pg_ctl", "postgres"] {
            let path = (binaries as NSString).appendingPathComponent(program)
            guard FileManager.default.isExecutableFile(atPath: path) else { throw .notInstalled(path) }
        }
        if getuid() == 0 {
            guard let pw = getpwnam("postgres") else { throw .noPostgresUser }
            owner = Owner(name: "postgres", uid: pw.pointee.pw_uid, gid: pw.pointee.pw_gid)
        } else {
            owner = nil
        }
    }

    package var dataDirectory: String { directory + "/data" }
    package var logFile: String { directory + "/server.log" }
    /// Whether `initdb` already made the cluster (a second start reuses it).
    package var isInitialized: Bool { FileManager.default.fileExists(atPath: dataDirectory + "/PG_VERSION") }
    /// The port while started by this object.
    package var port: UInt16? { state.withLock { $0.port } }

    /// The URL of `database` on the started server (user `postgres`, no password: trust).
    package func url(database: String = "postgres") -> String? {
        port.map { "postgresql://postgres@127.0.0.1:\($0)/\(database)" }
    }

    /// Makes the folder (mode 0700, owned by the server's user) and the cluster in it unless it is
    /// there already. `durable` false skips the fsyncs of `initdb` (throwaway servers).
    /// - Returns: true when the cluster was made now.
    @discardableResult
    package func prepare(durable: Bool = true) throws(LocalPostgresError) -> Bool {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw .folder(directory, "\(error)")
        }
        chmod(directory, 0o700)
        if let owner {
            guard chown(directory, owner.uid, owner.gid) == 0 else { throw .folder(directory, String(cString: strerror(errno))) }
            // The server's user must reach the folder through every parent (a 0700 home is a wall).
            if run("/usr/bin/test", ["-w", directory, "-a", "-x", directory], log: nil) != 0 {
                throw .unreachable(directory: directory, user: owner.name)
            }
        }
        if isInitialized { return false }
        var arguments = ["-D", dataDirectory, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C"]
        if !durable { arguments.append("--no-sync") }
        guard run(program("initdb"), arguments, log: directory + "/initdb.log") == 0 else {
            let log = (try? String(contentsOfFile: directory + "/initdb.log", encoding: .utf8)) ?? ""
            // A half-made cluster would be taken for a made one next time.
            try? FileManager.default.removeItem(atPath: dataDirectory)
            throw .initdbFailed(String(log.suffix(2000)))
        }
        return true
    }

    /// Starts the server on a free loopback port (a few tries: another process may take the port
    /// first), after `prepare`. A server of this folder left running by a process that died is
    /// stopped first; one whose owner still runs is not touched (`.busy`).
    /// - Parameters:
    ///   - settings: extra `postgres -c` settings, e.g. `fsync=off` for throwaway servers.
    ///   - fixedPort: this port instead of a free one (a restart, so clients find it where it was).
    /// - Returns: the port.
    @discardableResult
    package func start(settings: [String: String] = [:], port fixedPort: UInt16? = nil) throws(LocalPostgresError) -> UInt16 {
        if let port { return port }
        try lock()
        if isRunning { stopServer() }
        // A Unix socket path holds at most 107 bytes; a deeper folder is served on TCP only.
        let socketDirectory = directory.utf8.count <= 90 ? directory : ""
        var lastLog = ""
        for _ in 0..<3 {
            guard let port = fixedPort ?? LocalPostgres.freeLoopbackPort() else { continue }
            var options = "-p \(port) -k \(LocalPostgres.shellQuoted(socketDirectory)) -c listen_addresses=127.0.0.1"
            for (key, value) in settings.sorted(by: { $0.key < $1.key }) {
                options += " -c \(LocalPostgres.shellQuoted(key + "=" + value))"
            }
            let logStart = (try? FileManager.default.attributesOfItem(atPath: logFile)[.size] as? Int) ?? 0
            if pgCtl(["-o", options, "-l", logFile, "-w", "-t", "60", "start"], log: directory + "/pg_ctl.log") == 0 {
                state.withLock { $0.port = port }
                return port
            }
            let log = (try? Data(contentsOf: URL(fileURLWithPath: logFile))) ?? Data()
            lastLog = String(decoding: log.dropFirst(logStart), as: UTF8.self)
            if !lastLog.contains("could not bind") && !lastLog.contains("in use") { break }
        }
        unlock()
        if lastLog.isEmpty { lastLog = (try? String(contentsOfFile: directory + "/pg_ctl.log", encoding: .utf8)) ?? "" }
        throw .startFailed(log: logFile, String(lastLog.suffix(2000)))
    }

    /// Stops the server if this object started it: `fast` ends sessions and shuts down cleanly
    /// (the devnet), `immediate` does not wait for a clean shutdown (throwaway servers).
    package func stop(immediate: Bool = false) {
        guard state.withLock({ $0.port }) != nil else { return }
        stopServer(immediate: immediate)
        state.withLock { $0.port = nil }
        unlock()
    }

    /// Stops whatever server runs on this folder's cluster, whoever started it (one left behind
    /// by a process that was killed); waits until it is gone.
    package func stopServer(immediate: Bool = false) {
        pgCtl(["-m", immediate ? "immediate" : "fast", "-w", "-t", "60", "stop"], log: nil)
    }

    /// Whether a server runs on this folder's cluster (`pg_ctl status`), started by anyone.
    package var isRunning: Bool {
        isInitialized && pgCtl(["status"], log: nil) == 0
    }

    /// Makes `name` on the started server unless it exists.
    package func createDatabase(_ name: String) throws(PostgresError) {
        guard PostgresConnection.isPlainIdentifier(name) else { throw .invalidIdentifier(name) }
        guard let url = url() else { throw .closed }
        let admin = try PostgresConnection(url: url)
        defer { admin.close() }
        if try admin.queryOne("SELECT 1 FROM pg_database WHERE datname = $1", [.text(name)]) == nil {
            // A plain identifier (checked above); CREATE DATABASE takes no parameters.
            try admin.execute("CREATE DATABASE \(name)")
        }
    }

    // MARK: - the owner lock

    private func lock() throws(LocalPostgresError) {
        let path = directory + "/owner.lock"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .folder(path, String(cString: strerror(errno))) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            throw .busy(directory)
        }
        state.withLock { $0.lock = fd }
    }

    private func unlock() {
        let fd = state.withLock { s in
            defer { s.lock = -1 }
            return s.lock
        }
        if fd >= 0 { close(fd) }
    }

    // MARK: - running the programs

    private func program(_ name: String) -> String { (binaries as NSString).appendingPathComponent(name) }

    @discardableResult
    private func pgCtl(_ arguments: [String], log: String?) -> Int32 {
        run(program("pg_ctl"), ["-D", dataDirectory] + arguments, log: log)
    }

    /// Runs `executable` to its end as the server's user (through runuser under root), its
    /// output to `log` (truncated) or nowhere; its exit code, or -1 when it could not start.
    private func run(_ executable: String, _ arguments: [String], log: String?) -> Int32 {
        let fd = log.map { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) } ?? -1
        defer { if fd >= 0 { close(fd) } }
        if let log, fd >= 0, let owner { chown(log, owner.uid, owner.gid) }
        let (path, argv) = owner.map { ("/usr/sbin/runuser", ["-u", $0.name, "--", executable] + arguments) } ?? (executable, arguments)
        let environment = ["PATH": "/usr/bin:/bin", "LANG": "C", "LC_ALL": "C"]
        guard
            let child = try? Subprocess(
                executable: path, arguments: argv, environment: environment, stdout: fd >= 0 ? fd : nil, stderr: fd >= 0 ? fd : nil)
        else { return -1 }
        return child.waitUntilExit()
    }

    /// `pg_ctl -o` goes through /bin/sh: one word, whatever it holds.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// A loopback port free now (the kernel's pick); nil when none could be bound.
    static func freeLoopbackPort() -> UInt16? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = 0
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        return bound ? UInt16(bigEndian: addr.sin_port) : nil
    }
}

/// Why a local PostgreSQL could not be made or started; each message says what to do.
package enum LocalPostgresError: CodedError, Sendable, Equatable {
    /// A PostgreSQL program is missing (the package is not installed, or `MOSAIC_PG_BIN` is wrong).
    case notInstalled(String)
    /// Running as root with no `postgres` user to run the server as.
    case noPostgresUser
    /// The server's user cannot enter the folder (a parent is not searchable by it).
    case unreachable(directory: String, user: String)
    /// The folder could not be made or given to the server's user.
    case folder(String, String)
    /// Another running process started this folder's server.
    case busy(String)
    case initdbFailed(String)
    case startFailed(log: String, String)

    package var code: String {
        switch self {
        case .notInstalled: return "local_postgres.not_installed"
        case .noPostgresUser: return "local_postgres.no_postgres_user"
        case .unreachable: return "local_postgres.unreachable_folder"
        case .folder: return "local_postgres.folder"
        case .busy: return "local_postgres.busy"
        case .initdbFailed: return "local_postgres.initdb_failed"
        case .startFailed: return "local_postgres.start_failed"
        }
    }

    package var description: String {
        switch self {
        case .notInstalled(let path):
            return
                "PostgreSQL is not installed: \(path) is missing. Install PostgreSQL 15 (scripts/setup installs postgresql-15, "
                + "or 'apt-get install postgresql-15'), or point MOSAIC_PG_BIN at the folder holding initdb and pg_ctl"
        case .noPostgresUser:
            return
                "PostgreSQL refuses to run as root and there is no 'postgres' user to run it as; install postgresql-15 (it makes the user) or run as another user"
        case .unreachable(let directory, let user):
            return
                "the '\(user)' user that runs PostgreSQL cannot enter \(directory) (a parent folder is not searchable by it); "
                + "pick a folder it can reach, e.g. --dir /tmp/mosaic-devnet, or make the parents searchable (chmod o+x)"
        case .folder(let path, let why): return "cannot prepare \(path) for PostgreSQL: \(why)"
        case .busy(let directory):
            return "another running process uses the PostgreSQL server in \(directory); stop it first (one devnet per folder)"
        case .initdbFailed(let log): return "initdb failed: \(log)"
        case .startFailed(let log, let tail): return "PostgreSQL did not start (its log: \(log)): \(tail)"
        }
    }
}
