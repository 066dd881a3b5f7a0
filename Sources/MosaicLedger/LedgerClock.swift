import Foundation
import Synchronization

/// The ledger's notion of now: system time plus an adjustable offset, so tests (and operators of a
/// devnet) can move time forward for rate limits and windows. `Ledger` persists the offset.
package final class LedgerClock: Sendable {
    private let offset: Mutex<Int64>
    private let source: @Sendable () -> Int64

    /// `source` returns unix milliseconds; the system clock by default.
    public init(
        offsetSeconds: Int64 = 0,
        source: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) }
    ) {
        offset = Mutex(offsetSeconds)
        self.source = source
    }

    /// Offsets the ledger accepts (±100 years): far from any overflow of the millisecond sum.
    public static let validOffsets: ClosedRange<Int64> = -3_155_760_000...3_155_760_000

    /// Unix seconds including the offset.
    public var now: Int64 { nowMillis / 1000 }

    /// Saturating, so even an offset set outside `validOffsets` directly cannot trap.
    public var nowMillis: Int64 {
        let off = offset.withLock { $0 }
        let (shift, o1) = off.multipliedReportingOverflow(by: 1000)
        guard !o1 else { return off < 0 ? .min : .max }
        let (sum, o2) = source().addingReportingOverflow(shift)
        return o2 ? (shift < 0 ? .min : .max) : sum
    }

    public var offsetSeconds: Int64 {
        get { offset.withLock { $0 } }
        set { offset.withLock { $0 = newValue } }
    }
}
