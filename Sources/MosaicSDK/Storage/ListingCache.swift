import MosaicProtocol
import MosaicStorage
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
    }

    /// Listings larger than this are not kept (memory grows with files × blobbers).
    static let maxFiles = 20_000
    private let listings = Mutex<[String: Listing]>([:])

    static func key(allocation: String, blobber: String) -> String { allocation + "|" + blobber }

    func listing(allocation: String, blobber: String, root: String) -> Listing? {
        listings.withLock { all in
            guard let l = all[Self.key(allocation: allocation, blobber: blobber)], l.root == root else { return nil }
            return l
        }
    }

    func store(allocation: String, blobber: String, _ listing: Listing) {
        listings.withLock { all in
            let key = Self.key(allocation: allocation, blobber: blobber)
            all[key] = listing.files.count > Self.maxFiles ? nil : listing
        }
    }
}
