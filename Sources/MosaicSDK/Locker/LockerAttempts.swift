import Foundation
import Glibc
import MosaicCrypto

/// Wrong-PIN counter per locker wrap, in `$MOSAIC_HOME/locker/attempts.json` (so it survives a
/// restart of the CLI, the web app or the machine). The first `freeTries` wrong PINs cost nothing;
/// after that every try waits `wait(afterFailures:)` from the previous one: 30 s, doubling, at most
/// 1 h. A try is counted when it starts (a crash mid-try counts as a wrong PIN) and the count is
/// cleared only by the right PIN.
///
/// The count is keyed by the wrap itself (`key(wrap:)`: a hash of the 80 bytes in the file's signed
/// metadata, made with a fresh salt at every lock), not by the file's name: a rename, a move, a copy
/// (even into another allocation) carries the same wrap and so the same count, and no other wrap
/// opens that file's key. A file locked anew gets a new wrap and starts from zero.
///
/// It slows down someone at this wallet's keyboard; it cannot stop someone who copies the wallet
/// and the wrapped key elsewhere (docs/LOCKER.md §3).
struct LockerAttempts: Sendable {
    static let freeTries = 5
    static let firstWait: Int64 = 30
    static let maxWait: Int64 = 3600

    struct Entry: Codable, Equatable, Sendable {
        var failures: Int
        /// Unix seconds of the latest counted try.
        var last: Int64
    }

    struct Log: Codable, Equatable {
        var version = 1
        var files: [String: Entry] = [:]
    }

    let home: URL

    var folder: URL { home.appendingPathComponent("locker", isDirectory: true) }
    var url: URL { folder.appendingPathComponent("attempts.json") }

    /// The count's key for a wrap: "wrap-" and the first 16 bytes of its SHA-256, in hex.
    static func key(wrap: [UInt8]) -> String { "wrap-" + Hex.encode(SHA256.hash(wrap).prefix(16)) }

    /// Seconds a try must wait after `failures` wrong PINs, counted from the last one.
    static func wait(afterFailures failures: Int) -> Int64 {
        guard failures >= freeTries else { return 0 }
        let doublings = min(failures - freeTries, 20)
        return min(firstWait << Int64(doublings), maxWait)
    }

    /// Refuses while the file's wait is running; otherwise counts this try (before it is made).
    /// Returns the failure count including this try.
    func begin(_ key: String, name: String, now: Int64) throws(LockerError) -> Int {
        try update { log throws(LockerError) in
            var e = log.files[key] ?? Entry(failures: 0, last: 0)
            let wait = Self.wait(afterFailures: e.failures)
            if wait > 0, now < e.last + wait { throw .tooManyAttempts(name: name, retryAfter: e.last + wait - now) }
            e.failures += 1
            e.last = now
            log.files[key] = e
            return e.failures
        }
    }

    /// Throws `tooManyAttempts` while the file's wait is running (nothing is counted).
    func check(_ key: String, name: String, now: Int64) throws(LockerError) {
        guard let e = try entry(key) else { return }
        let wait = Self.wait(afterFailures: e.failures)
        if wait > 0, now < e.last + wait { throw .tooManyAttempts(name: name, retryAfter: e.last + wait - now) }
    }

    /// Forgets the file's count (right PIN, deleted, replaced).
    func clear(_ key: String) throws(LockerError) {
        try update { log throws(LockerError) in log.files[key] = nil }
    }

    func entry(_ key: String) throws(LockerError) -> Entry? {
        try update { log throws(LockerError) in log.files[key] }
    }

    /// Read-modify-write under an exclusive `flock`, so the CLI and the web app (or two tabs) count
    /// every try; the log is replaced atomically.
    private func update<T>(_ body: (inout Log) throws(LockerError) -> T) throws(LockerError) -> T {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .attemptLog("cannot create \(folder.path): \(error.localizedDescription)")
        }
        let lockPath = folder.appendingPathComponent("attempts.lock").path
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .attemptLog("cannot open \(lockPath): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw .attemptLog("cannot lock \(lockPath): \(String(cString: strerror(errno)))") }
        }
        var log = Log()
        if let data = FileManager.default.contents(atPath: url.path) {
            guard let parsed = try? JSONDecoder().decode(Log.self, from: data) else {
                throw .attemptLog("\(url.path) is damaged; it cannot be read, so no PIN is tried (move it away to start the counts afresh)")
            }
            log = parsed
        }
        let before = log
        let result = try body(&log)
        if log != before {
            let e = JSONEncoder()
            e.outputFormatting = [.prettyPrinted, .sortedKeys]
            do { try AtomicFile.write(Array(try e.encode(log)), to: url) } catch {
                throw .attemptLog("cannot write \(url.path): \(error)")
            }
        }
        return result
    }
}
