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

/// UTC timestamps as "2026-11-30T05:00:00Z" without a formatter object (days-to-civil arithmetic).
enum UTCTime {
    static func iso8601(_ unixSeconds: Int64) -> String {
        let days = unixSeconds >= 0 ? unixSeconds / 86_400 : (unixSeconds - 86_399) / 86_400
        let secs = unixSeconds - days * 86_400
        // Shift the epoch to 0000-03-01 so leap days fall at the end of each 400-year era.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(year)-\(two(month))-\(two(day))T\(two(secs / 3600)):\(two(secs / 60 % 60)):\(two(secs % 60))Z"
    }
}
