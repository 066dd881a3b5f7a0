import MosaicProtocol
import MosaicStorageCore
import Synchronization

/// What this client last knew of each blobber's files, keyed by the root the blobber committed:
/// a write reads the blobber's state (one small request) and, when the root is the one cached,
/// builds its changes and the next root from the cache instead of listing every file again. A
/// write by anyone else moves the root, and the next write lists afresh.
final class ListingCache: Sendable {
    struct Listing: Sendable {
        var root: String
        var files: [String: FileMeta]
        var leaves: AllocationLeaves
        /// Timestamp of the write marker this client signed for `root`: a blobber later showing an
        /// older marker rolled back.
        var timestamp: Int64 = .min
    }

    /// Listings larger than this are not kept (memory grows with files × blobbers).
    static let maxFiles = 20_000

    private struct State {
        var listings: [String: Listing] = [:]
        /// Newest marker timestamp signed per blobber, kept also when its listing is too large.
        var latest: [String: Int64] = [:]
    }

    private let state = Mutex(State())

    static func key(allocation: String, blobber: String) -> String { allocation + "|" + blobber }

    func listing(allocation: String, blobber: String, root: String) -> Listing? {
        state.withLock { s in
            guard let l = s.listings[Self.key(allocation: allocation, blobber: blobber)], l.root == root else { return nil }
            return l
        }
    }

    /// `listing`, removed from the cache: the caller then holds its maps' only reference and can
    /// change them in place (a copy would cost time growing with the files), and stores it back.
    func take(allocation: String, blobber: String, root: String) -> Listing? {
        state.withLock { s in
            let key = Self.key(allocation: allocation, blobber: blobber)
            guard s.listings[key]?.root == root else { return nil }
            return s.listings.removeValue(forKey: key)
        }
    }

    func store(allocation: String, blobber: String, _ listing: Listing) {
        state.withLock { s in
            let key = Self.key(allocation: allocation, blobber: blobber)
            s.listings[key] = listing.files.count > Self.maxFiles ? nil : listing
            s.latest[key] = max(s.latest[key] ?? .min, listing.timestamp)
        }
    }

    /// The newest write-marker timestamp this client signed for the blobber, nil if none.
    func latestTimestamp(allocation: String, blobber: String) -> Int64? {
        state.withLock { s in
            let t = s.latest[Self.key(allocation: allocation, blobber: blobber)] ?? .min
            return t == .min ? nil : t
        }
    }
}
