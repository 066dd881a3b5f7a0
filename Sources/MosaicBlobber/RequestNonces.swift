import MosaicStorageCore
import Synchronization

/// The nonces of the owner's state-changing requests (PUT, DELETE, POST) that a blobber accepted
/// while their time is inside the signature window, per allocation: a request seen once is refused
/// the second time, so a captured write cannot be replayed at the same blobber (other blobbers
/// refuse it already: the signature names the blobber).
///
/// Bounded: a nonce is forgotten once its request time is more than `RequestSignature.window`
/// seconds in the past (the time check refuses it from then on), an allocation holds at most
/// `perAllocation` and the blobber at most `total`. When full, new writes get 429 until old nonces
/// expire. Only the allocation owner can add nonces (and only to its own allocations), and reads are
/// not recorded (they change nothing; block reads are bound by the growing read-marker counter).
final class RequestNonces: Sendable {
    /// Nonces remembered per allocation. The SDK sends about one PUT per MiB of fragment to each
    /// blobber, so this covers the up to 600 s a nonce is kept at over 100 MiB/s to one blobber.
    static let defaultPerAllocation = 65_536
    /// Nonces remembered per blobber (about 40 MiB of memory at most).
    static let defaultTotal = 1 << 20

    struct Key: Hashable {
        let high: UInt64
        let low: UInt64
    }

    private struct State {
        /// allocation → nonce → unix second after which it may be forgotten.
        var seen: [String: [Key: Int64]] = [:]
        var count = 0
        /// Unix second of the last sweep per allocation (at most one full sweep per second).
        var swept: [String: Int64] = [:]
    }

    let perAllocation: Int
    let total: Int
    private let state = Mutex(State())

    init(perAllocation: Int = RequestNonces.defaultPerAllocation, total: Int = RequestNonces.defaultTotal) {
        self.perAllocation = max(1, perAllocation)
        self.total = max(1, total)
    }

    static func key(_ nonce: [UInt8]) -> Key {
        var high: UInt64 = 0
        var low: UInt64 = 0
        for (i, b) in nonce.prefix(16).enumerated() {
            if i < 8 { high = high << 8 | UInt64(b) } else { low = low << 8 | UInt64(b) }
        }
        return Key(high: high, low: low)
    }

    /// True when `nonce` was already used for `allocation`.
    func contains(_ nonce: [UInt8], allocation: String) -> Bool {
        state.withLock { $0.seen[allocation]?[Self.key(nonce)] != nil }
    }

    /// Remembers `nonce` (signed at `time`) for `allocation`, refusing a repeat, and refusing a new
    /// one while the allocation or the blobber is at its bound.
    func use(_ nonce: [UInt8], allocation: String, time: Int64, now: Int64) throws(StorageRequestError) {
        let key = Self.key(nonce)
        let (expiry, overflow) = time.addingReportingOverflow(RequestSignature.window)
        let until = overflow ? Int64.max : expiry
        try state.withLock { s throws(StorageRequestError) in
            if let until = s.seen[allocation]?[key] {
                if until >= now {
                    throw .unauthorized(
                        "this signed request was already used (X-Mosaic-Nonce repeats); sign every request with a new nonce")
                }
                s.seen[allocation]?[key] = nil  // expired: its old request is refused by the time check anyway
                s.count -= 1
            }
            if (s.seen[allocation]?.count ?? 0) >= perAllocation || s.count >= total {
                Self.sweep(&s, allocation: s.count >= total ? nil : allocation, now: now)
            }
            guard (s.seen[allocation]?.count ?? 0) < perAllocation, s.count < total else {
                throw .tooMany(
                    "too many signed writes in the last \(2 * RequestSignature.window) s for this blobber to remember; retry in a minute")
            }
            s.seen[allocation, default: [:]][key] = until
            s.count += 1
        }
    }

    /// Drops expired nonces of one allocation (nil: of all), at most once per second each.
    private static func sweep(_ s: inout State, allocation: String?, now: Int64) {
        let ids = allocation.map { [$0] } ?? Array(s.seen.keys)
        for id in ids where (s.swept[id] ?? Int64.min) < now {
            s.swept[id] = now
            guard let before = s.seen[id] else { continue }
            let kept = before.filter { $0.value >= now }
            s.count -= before.count - kept.count
            s.seen[id] = kept.isEmpty ? nil : kept
            if kept.isEmpty { s.swept[id] = nil }
        }
    }

    var count: Int { state.withLock { $0.count } }
}
