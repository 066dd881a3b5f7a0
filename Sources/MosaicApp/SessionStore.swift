import Foundation
import MosaicCrypto
import MosaicSDK
import Synchronization

/// One browser session: a random id in an HttpOnly cookie, a CSRF token the page echoes in a
/// header, and the unlocked wallet while the user is signed in. Secrets stay in this process.
struct Session: Sendable {
    let id: String
    let csrf: String
    var wallet: UnlockedWallet? {
        didSet { ledgerWallet = nil }
    }
    /// The wallet bound to the current network, kept per session so its nonce allocator
    /// serialises concurrent sends from this browser.
    var ledgerWallet: Wallet?
    var lastSeen: Date
    /// Set when the idle timeout locked the wallet, so the page can say why.
    var expired = false
}

/// All live sessions, with idle auto-lock and eviction. The map is bounded: a session idle for
/// `sessionIdleLimit` is forgotten (its unlocked wallet goes with it: the keys are `SecretBytes`,
/// zeroed when the last reference is released), and at `maxSessions` a new session pushes out the
/// least recently used one, one without a wallet first, so a flood of anonymous visits cannot
/// fill memory or sign a user out.
final class SessionStore: Sendable {
    static let defaultMaxSessions = 512
    static let defaultSessionIdleLimit: TimeInterval = 60 * 60

    let idleTimeout: TimeInterval
    let sessionIdleLimit: TimeInterval
    let maxSessions: Int
    /// The time idleness is measured against (a test moves it on instead of waiting).
    let clock: @Sendable () -> Date
    private let sessions = Mutex<[String: Session]>([:])

    init(
        idleTimeout: TimeInterval, sessionIdleLimit: TimeInterval = SessionStore.defaultSessionIdleLimit,
        maxSessions: Int = SessionStore.defaultMaxSessions, clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.idleTimeout = idleTimeout
        self.sessionIdleLimit = max(sessionIdleLimit, idleTimeout)
        self.maxSessions = max(1, maxSessions)
        self.clock = clock
    }

    /// A new anonymous session (no wallet yet).
    func create() -> Session {
        let s = Session(id: Hex.encode(Random.bytes(32)), csrf: Hex.encode(Random.bytes(32)), wallet: nil, lastSeen: clock())
        sessions.withLock { all in
            expire(&all, now: s.lastSeen)
            while all.count >= maxSessions, let victim = Self.leastRecentlyUsed(all) {
                all[victim] = nil
            }
            all[s.id] = s
        }
        return s
    }

    /// The session to push out when full: the stalest without a wallet, else the stalest.
    static func leastRecentlyUsed(_ all: [String: Session]) -> String? {
        let anonymous = all.values.filter { $0.wallet == nil }
        return (anonymous.isEmpty ? Array(all.values) : anonymous).min { $0.lastSeen < $1.lastSeen }?.id
    }

    /// The session for a cookie value, nil when unknown or forgotten after being idle too long;
    /// a wallet idle for longer than the timeout is locked here.
    func touch(_ id: String) -> Session? {
        sessions.withLock { all -> Session? in
            guard var s = all[id] else { return nil }
            let now = clock()
            if now.timeIntervalSince(s.lastSeen) > sessionIdleLimit {
                all[id] = nil
                return nil
            }
            if s.wallet != nil && now.timeIntervalSince(s.lastSeen) > idleTimeout {
                s.wallet = nil
                s.expired = true
            }
            s.lastSeen = now
            all[id] = s
            return s
        }
    }

    func update(_ id: String, _ change: (inout Session) -> Void) {
        sessions.withLock { all in
            if var s = all[id] {
                change(&s)
                all[id] = s
            }
        }
    }

    func remove(_ id: String) {
        _ = sessions.withLock { $0.removeValue(forKey: id) }
    }

    /// Locks idle wallets and forgets idle sessions (run on a timer and before each new session).
    func sweep() {
        let now = clock()
        sessions.withLock { expire(&$0, now: now) }
    }

    private func expire(_ all: inout [String: Session], now: Date) {
        for (id, s) in all {
            let idle = now.timeIntervalSince(s.lastSeen)
            if idle > sessionIdleLimit {
                all[id] = nil
            } else if s.wallet != nil && idle > idleTimeout {
                all[id]?.wallet = nil
                all[id]?.expired = true
            }
        }
    }

    var count: Int { sessions.withLock { $0.count } }

    /// Forgets every session (the app stops).
    func removeAll() {
        sessions.withLock { $0.removeAll() }
    }

    /// Locks every session (used when the network changes).
    func lockAll() {
        sessions.withLock { all in
            for key in all.keys { all[key]?.wallet = nil }
        }
    }
}
