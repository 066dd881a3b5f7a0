import Foundation
import Synchronization

/// The ledger's notion of now: system time plus an adjustable offset, so tests (and operators of a
/// devnet) can move time forward for rate limits and windows. `Ledger` persists the offset.
public final class LedgerClock: Sendable {
    private let offset: Mutex<Int64>
    private let source: @Sendable () -> Int64

    /// `source` returns unix milliseconds; the system clock by default.
    public init(offsetSeconds: Int64 = 0,
                source: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) }) {
        offset = Mutex(offsetSeconds)
        self.source = source
    }

    /// Unix seconds including the offset.
    public var now: Int64 { nowMillis / 1000 }

    public var nowMillis: Int64 { source() + offset.withLock { $0 } * 1000 }

    public var offsetSeconds: Int64 {
        get { offset.withLock { $0 } }
        set { offset.withLock { $0 = newValue } }
    }
}
