import Foundation
import MosaicLedger
import MosaicProtocol
import Synchronization

/// Counts fee-exempt submissions (faucet pours) per source address in one-minute windows, so a
/// single host cannot spend the faucet's global limit, or the pool, on fresh accounts. Memory is
/// bounded: past `maxSources` addresses the windows start over.
final class SourceRateLimiter: Sendable {
    private struct Window {
        var start: Int64
        var count: Int
    }
    private let windows = Mutex<[String: Window]>([:])
    let perMinute: Int
    static let maxSources = 100_000

    init(perMinute: Int) { self.perMinute = max(0, perMinute) }

    var trackedSources: Int { windows.withLock { $0.count } }

    /// Takes `count` submissions from `source` at `now` (unix seconds), or refuses them all.
    func admit(_ source: String, count: Int = 1, now: Int64 = Int64(Date().timeIntervalSince1970)) throws(LedgerError) {
        guard count > 0 else { return }
        let refusal: Int64? = windows.withLock { all in
            if all[source] == nil, all.count >= Self.maxSources { all.removeAll(keepingCapacity: true) }
            var w = all[source] ?? Window(start: now, count: 0)
            if now < w.start || now - w.start >= 60 { w = Window(start: now, count: 0) }
            let (sum, overflow) = w.count.addingReportingOverflow(count)
            guard !overflow, sum <= perMinute else { return max(0, 60 - (now - w.start)) }
            w.count = sum
            all[source] = w
            return nil
        }
        if let wait = refusal {
            throw .freeLimited("at most \(perMinute) fee-exempt transactions per minute from one address; retry in \(wait) s")
        }
    }
}
