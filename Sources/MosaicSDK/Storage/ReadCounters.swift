import Foundation
import MosaicCrypto
import MosaicHTTP
import MosaicProtocol
import MosaicStorageCore
import Synchronization

/// The reader's read-marker counter per (allocation, blobber), shared by all downloads of one
/// client so concurrent ones never reuse a counter. Starts from what the blobber reports.
final class ReadCounters: Sendable {
    private let values = Mutex<[String: UInt64]>([:])

    func current(_ slot: String, fetch: () async throws -> UInt64) async throws -> UInt64 {
        if let v = values.withLock({ $0[slot] }) { return v }
        let fetched = try await fetch()
        return values.withLock { v in
            let now = max(v[slot] ?? 0, fetched)
            v[slot] = now
            return now
        }
    }

    /// Reserves `count` more blocks and returns the new counter (nil when it would pass 2^64 − 1).
    func advance(_ slot: String, from base: UInt64, by count: UInt64) -> UInt64? {
        values.withLock { v in
            let (next, overflow) = max(v[slot] ?? base, base).addingReportingOverflow(count)
            guard !overflow else { return nil }
            v[slot] = next
            return next
        }
    }

    func forget(_ slot: String) { _ = values.withLock { $0.removeValue(forKey: slot) } }
}
