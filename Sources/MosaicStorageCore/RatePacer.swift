import Synchronization

/// Holds transfers to a rate: each batch reserves its bytes' share of time and waits until the
/// batches before it have had theirs. A user on a shared link asks for this (`mosaic upload
/// --limit-rate 2MiB/s`); the pipelines then wait between batches, and nothing else changes.
/// One pacer can serve several transfers at once (a folder's files share one budget), and time
/// spent idle earns no burst afterwards.
package final class RatePacer: Sendable {
    package let bytesPerSecond: Int64
    /// When the bytes reserved so far will have had their time.
    private let next = Mutex(ContinuousClock.now)

    /// - Parameter bytesPerSecond: at least 1.
    package init(bytesPerSecond: Int64) {
        self.bytesPerSecond = max(1, bytesPerSecond)
    }

    /// Waits until the bytes reserved before are due, then reserves `bytes` more.
    package func take(_ bytes: Int64) async {
        let share = Duration.nanoseconds(Int64((Double(max(0, bytes)) / Double(bytesPerSecond) * 1e9).rounded(.up)))
        let start = next.withLock { next -> ContinuousClock.Instant in
            let start = max(next, .now)
            next = start + share
            return start
        }
        if start > .now { try? await Task.sleep(until: start, clock: .continuous) }
    }
}
