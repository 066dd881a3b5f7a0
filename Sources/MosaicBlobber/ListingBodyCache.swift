import Foundation
import MosaicStorageCore
import Synchronization

/// The last few encoded folder listings, keyed by everything their bytes follow from.
///
/// A listing of a large folder is most of a blobber's work for an `ls` (every entry's canonical
/// bytes, 10 MB for 20,000 files), and people list the same folder again and again: a web page
/// refreshed, `ls` after each upload. The key holds the allocation's whole state (its root commits
/// to every entry), so any commit gives a new key and a stale body is never served; authorization
/// runs before the cache is asked.
final class ListingBodyCache: Sendable {
    struct Key: Hashable {
        let allocationID: String
        let path: String
        let recursive: Bool
        let format: String
        /// The allocation state: root, size, write marker, capacity, expiration. The value, not
        /// its JSON: JSONEncoder here writes keys in a different order on each call, so a key made
        /// of JSON missed the cache most of the time.
        let state: BlobberWire.AllocationState
    }

    private struct State {
        var bodies: [Key: Data] = [:]
        /// Oldest first.
        var order: [Key] = []
        var bytes = 0
        /// Bodies made, not served from the cache.
        var made = 0
    }

    private let state = Mutex(State())
    private let maxBytes: Int
    private let maxEntries: Int

    init(maxBytes: Int = 64 << 20, maxEntries: Int = 16) {
        self.maxBytes = maxBytes
        self.maxEntries = maxEntries
    }

    /// How many bodies were made rather than served again.
    var made: Int { state.withLock { $0.made } }

    /// Forgets every body (a test's in-memory liar changes entries without a new state).
    func removeAll() { state.withLock { $0 = State() } }

    /// The cached body for `key`, or `make()`'s, kept unless it alone exceeds the budget.
    func body(_ key: Key, make: () throws -> Data) rethrows -> Data {
        if let hit = state.withLock({ s in s.bodies[key] }) { return hit }
        let body = try make()
        state.withLock { $0.made += 1 }
        guard body.count <= maxBytes / 2 else { return body }
        state.withLock { s in
            guard s.bodies.updateValue(body, forKey: key) == nil else { return }
            s.order.append(key)
            s.bytes += body.count
            while s.bytes > maxBytes || s.order.count > maxEntries, !s.order.isEmpty {
                let old = s.order.removeFirst()
                s.bytes -= s.bodies.removeValue(forKey: old)?.count ?? 0
            }
        }
        return body
    }
}
