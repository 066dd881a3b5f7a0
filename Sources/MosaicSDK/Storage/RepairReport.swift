import MosaicStorageCore

/// What `repair(allocation:)` did.
public struct RepairReport: Sendable {
    /// (blobber index, path) pairs whose fragment was rebuilt or whose metadata was restored.
    public var repaired: [(blobber: Int, path: String)] = []
    /// Paths removed from blobbers that kept something the others had deleted.
    public var removed: [(blobber: Int, path: String)] = []
    /// What could not be repaired now (blobber index → reason).
    public var failed: [Int: String] = [:]
}
