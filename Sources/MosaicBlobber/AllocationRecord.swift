import Foundation
import MosaicProtocol
import MosaicStorageCore

/// What a blobber keeps about one allocation besides fragment bytes: the assignment, every path's
/// signed metadata with the id of its fragment file, and the latest committed write marker.
/// Kept in memory for reads and in `BlobberMetaStore` rows on disk; still `Codable` to import the
/// one-JSON-file-per-allocation records of earlier versions.
struct AllocationRecord: Sendable, Codable {
    struct StoredFile: Sendable, Codable {
        var meta: FileMeta
        /// Fragment file id in the `FragmentStore`; nil for folders and empty files.
        var fragment: String?
    }

    var assignment: AllocationAssignment
    var index: Int
    var root: String
    var size: UInt64
    var writeMarker: WriteMarker?
    /// Markers not yet committed to the ledger, oldest first.
    var pendingMarkers: [WriteMarker]
    var files: [String: StoredFile]
    /// Leaf hashes of `files` by path (not stored: rebuilt at load), so a commit rehashes only
    /// the paths it changes.
    var leaves = AllocationLeaves()

    init(assignment: AllocationAssignment, index: Int) {
        self.assignment = assignment
        self.index = index
        root = AllocationRoot.empty
        size = 0
        writeMarker = nil
        pendingMarkers = []
        files = [:]
    }

    enum CodingKeys: String, CodingKey {
        case assignment, index, root, size
        case writeMarker = "write_marker"
        case pendingMarkers = "pending_markers"
        case files
    }
}
