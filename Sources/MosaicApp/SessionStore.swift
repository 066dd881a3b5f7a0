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

/// All live sessions, with idle auto-lock.
final class SessionStore: Sendable {
    let idleTimeout: TimeInterval
    private let sessions = Mutex<[String: Session]>([:])

    init(idleTimeout: TimeInterval) {
        self.idleTimeout = idleTimeout
    }

    /// A new anonymous session (no wallet yet).
    func create() -> Session {
        let s = Session(id: Hex.encode(Random.bytes(32)), csrf: Hex.encode(Random.bytes(32)), wallet: nil, lastSeen: Date())
        sessions.withLock { $0[s.id] = s }
        return s
    }

    /// The session for a cookie value; a wallet idle for longer than the timeout is locked here.
    func touch(_ id: String) -> Session? {
        sessions.withLock { all -> Session? in
            guard var s = all[id] else { return nil }
            let now = Date()
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

    /// Locks every session (used when the network changes).
    func lockAll() {
        sessions.withLock { all in
            for key in all.keys { all[key]?.wallet = nil }
        }
    }
}
