import Foundation
import Glibc
import Synchronization

/// A child process started with `posix_spawn`: tests run real binaries with it, and
/// `LocalPostgres` runs PostgreSQL's programs.
///
/// Why not Foundation's `Process`: on Linux its `run()` lists `/proc/self/fd` and copies each
/// entry's whole 256-byte `d_name`, which reads past the end of glibc's directory buffer; with a
/// thousand or more descriptors open (a test holding 500 connections beside one that starts a
/// CLI) the whole test process dies with SIGSEGV in `memmove`. Here the child closes every
/// inherited descriptor above stderr with glibc's `posix_spawn_file_actions_addclosefrom_np`.
public final class Subprocess: Sendable {
    public let pid: pid_t
    /// The wait status once reaped; the child is reaped exactly once, by whoever sees it first.
    private let reaped = Mutex<Int32?>(nil)

    public enum Failure: Error, CustomStringConvertible {
        case spawn(String, Int32)
        public var description: String {
            switch self {
            case .spawn(let path, let code): return "cannot start \(path): \(String(cString: strerror(code)))"
            }
        }
    }

    /// Starts `executable` with `arguments`. The standard streams are the given descriptors
    /// (nil: /dev/null); they are duplicated into the child, and the caller keeps its own.
    public init(
        executable: String, arguments: [String], environment: [String: String],
        stdin: Int32? = nil, stdout: Int32? = nil, stderr: Int32? = nil
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (target, source) in [(STDIN_FILENO, stdin), (STDOUT_FILENO, stdout), (STDERR_FILENO, stderr)] {
            if let source {
                posix_spawn_file_actions_adddup2(&actions, source, target)
            } else {
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == STDIN_FILENO ? O_RDONLY : O_WRONLY, 0)
            }
        }
        Subprocess.closeInherited(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group, as Foundation did: a Ctrl-C of the test run reaches the runner only.
        // Termination signals a parent ignores (a server waiting for them through Dispatch) are
        // back to their defaults in the child, so it stops when asked.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for sig in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] { sigaddset(&defaults, sig) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var child = pid_t()
        let code = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard code == 0 else { throw Failure.spawn(executable, code) }
        pid = child
    }

    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34+) is not in Swift's Glibc module.
    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private static let closeFrom: CloseFrom? = {
        // A nil handle is glibc's RTLD_DEFAULT: every loaded object, libc among them.
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: CloseFrom.self)
    }()

    private static func closeInherited(_ actions: inout posix_spawn_file_actions_t) {
        if let closeFrom, closeFrom(&actions, 3) == 0 { return }
        // Older glibc: close what is open now, read safely (entry names copied to their end only).
        guard let dir = opendir("/proc/self/fd") else { return }
        defer { closedir(dir) }
        let own = dirfd(dir)
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if let fd = Int32(name), fd > 2, fd != own { posix_spawn_file_actions_addclose(&actions, fd) }
        }
    }

    /// Exit code (or 128 + signal) once the child has ended; nil while it runs.
    public var exitStatus: Int32? {
        reaped.withLock { status in
            if status == nil {
                var raw: Int32 = 0
                if waitpid(pid, &raw, WNOHANG) == pid { status = raw }
            }
            return status.map(Subprocess.code)
        }
    }

    public var isRunning: Bool { exitStatus == nil }

    /// Blocks until the child ends (call off the cooperative pool, e.g. through `blocking`).
    @discardableResult
    public func waitUntilExit() -> Int32 {
        while true {
            if let s = exitStatus { return s }
            // A blocking waitpid here would race the Mutex-guarded reap of another caller.
            usleep(5_000)
        }
    }

    public func signal(_ sig: Int32) { if isRunning { kill(pid, sig) } }

    private static func code(_ raw: Int32) -> Int32 {
        let signal = raw & 0x7f
        return signal == 0 ? (raw >> 8) & 0xff : 128 + signal
    }

    deinit {
        if isRunning {
            kill(pid, SIGKILL)
            var raw: Int32 = 0
            _ = waitpid(pid, &raw, 0)
        }
    }
}

/// A pipe whose two ends are closed when it goes (the parent's ends of a child's streams).
public final class SubprocessPipe: Sendable {
    public let read: Int32
    public let write: Int32
    private let closed = Mutex<(read: Bool, write: Bool)>((false, false))

    /// Writing to a child that has exited must be an error (EPIPE), not a signal that ends the tests.
    private static let ignoreBrokenPipes: Void = { _ = Glibc.signal(SIGPIPE, SIG_IGN) }()

    public init() throws {
        SubprocessPipe.ignoreBrokenPipes
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw Subprocess.Failure.spawn("pipe", errno) }
        // Close-on-exec, so no other child started meanwhile keeps this pipe open (its reader
        // would then never see the end); the child gets its end through dup2, which clears it.
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        read = fds[0]
        write = fds[1]
    }

    public func closeWrite() {
        closed.withLock {
            if !$0.write {
                $0.write = true
                close(write)
            }
        }
    }
    public func closeRead() {
        closed.withLock {
            if !$0.read {
                $0.read = true
                close(read)
            }
        }
    }

    /// Everything until end of file (the writer side must be closed here first).
    public func readToEnd() -> Data {
        var out = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(read, $0.baseAddress, $0.count) }
            if n > 0 { out.append(contentsOf: buffer[0..<n]) } else if n < 0 && errno == EINTR { continue } else { break }
        }
        return out
    }

    deinit {
        closeRead()
        closeWrite()
    }
}
