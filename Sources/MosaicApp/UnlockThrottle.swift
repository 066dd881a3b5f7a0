import Foundation
import MosaicHTTP
import MosaicHTTPServer
import Synchronization

/// Limits passphrase guesses through the app (unlock and reveal): per session and for the whole
/// app, since a new session costs nothing. A few wrong passphrases are free, then every try waits
/// for a delay that doubles with each further wrong one, counted from the last try. A try is
/// counted when it starts, so parallel requests cannot slip past the limit; a right passphrase
/// clears its session's count and takes back its own global count. Counts are forgotten after
/// `forgetAfter` without a try. Answer while waiting: 429 `too_many_attempts` with `Retry-After`.
final class UnlockThrottle: Sendable {
    struct Rule: Sendable, Equatable {
        /// Wrong passphrases before tries wait.
        var freeTries: Int
        /// Seconds of the first wait; each further wrong passphrase doubles it.
        var firstWait: Int64
        var maxWait: Int64

        func wait(afterFailures failures: Int) -> Int64 {
            guard failures >= freeTries else { return 0 }
            let doublings = Int64(min(failures - freeTries, 30))
            return min(firstWait << doublings, maxWait)
        }
    }

    /// One browser session: 5 free, then 2 s, 4 s, 8 s … at most 5 min.
    static let perSession = Rule(freeTries: 5, firstWait: 2, maxWait: 300)
    /// All sessions together: 20 free, then 2 s, 4 s … at most 5 min.
    static let global = Rule(freeTries: 20, firstWait: 2, maxWait: 300)
    /// A count with no try for this long is dropped (15 min).
    static let forgetAfter: Int64 = 15 * 60
    /// Sessions whose counts are kept at most (the oldest go first; the global count still holds).
    static let maxTracked = 4096

    private struct Count {
        var failures = 0
        /// When the latest counted try began.
        var last: Double = 0
    }

    private struct State {
        var sessions: [String: Count] = [:]
        var all = Count()
    }

    /// What `begin` changed, so a try that was not a guess can be taken back exactly.
    private struct Began {
        let at: Double
        let sessionLast: Double
        let globalLast: Double
    }

    private let state = Mutex(State())
    let clock: @Sendable () -> Double

    init(clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) {
        self.clock = clock
    }

    /// Runs `body` (a passphrase check) if no wait is running; a `wrongPassphrase` it throws stays
    /// counted, any other outcome takes the try back (an unknown wallet name is not a guess).
    func attempt<T>(session: String, isWrongPassphrase: (any Error) -> Bool, _ body: () throws -> T) throws -> T {
        let began = try begin(session: session)
        do {
            let result = try body()
            takeBack(session: session, began, clearSession: true)
            return result
        } catch {
            if !isWrongPassphrase(error) { takeBack(session: session, began, clearSession: false) }
            throw error
        }
    }

    private func begin(session: String) throws -> Began {
        let now = clock()
        return try state.withLock { s in
            let forget = Double(Self.forgetAfter)
            s.sessions = s.sessions.filter { now - $0.value.last < forget }
            if now - s.all.last >= forget { s.all = Count() }
            var mine = s.sessions[session] ?? Count()
            let globalWait = Double(Self.global.wait(afterFailures: s.all.failures))
            if globalWait > 0, now < s.all.last + globalWait {
                let after = Self.seconds(s.all.last + globalWait - now)
                throw HTTPError(
                    status: 429, code: "too_many_attempts",
                    message: "too many wrong passphrases were tried on this app; wait \(after) s before trying again",
                    headers: ["Retry-After": String(after)])
            }
            let wait = Double(Self.perSession.wait(afterFailures: mine.failures))
            if wait > 0, now < mine.last + wait {
                let after = Self.seconds(mine.last + wait - now)
                throw HTTPError(
                    status: 429, code: "too_many_attempts",
                    message: "too many wrong passphrases; wait \(after) s before trying again",
                    headers: ["Retry-After": String(after)])
            }
            let began = Began(at: now, sessionLast: mine.last, globalLast: s.all.last)
            mine.failures += 1
            mine.last = now
            s.all.failures += 1
            s.all.last = now
            s.sessions[session] = mine
            if s.sessions.count > Self.maxTracked, let oldest = s.sessions.min(by: { $0.value.last < $1.value.last })?.key {
                s.sessions[oldest] = nil
            }
            return began
        }
    }

    /// Whole seconds to wait, rounded up (at least 1).
    static func seconds(_ t: Double) -> Int64 { max(1, Int64(t.rounded(.up))) }

    /// A try that was not a wrong passphrase: its counts and its time are taken back (unless
    /// another try began since), and the session's whole count after the right passphrase.
    private func takeBack(session: String, _ began: Began, clearSession: Bool) {
        state.withLock { s in
            s.all.failures = max(0, s.all.failures - 1)
            if s.all.last == began.at { s.all.last = began.globalLast }
            if clearSession {
                s.sessions[session] = nil
            } else if var mine = s.sessions[session] {
                mine.failures = max(0, mine.failures - 1)
                if mine.last == began.at { mine.last = began.sessionLast }
                s.sessions[session] = mine
            }
        }
    }
}
