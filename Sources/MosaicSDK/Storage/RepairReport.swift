import MosaicStorageCore

/// What `repair(allocation:)` did. Encodes as `{"repaired":[{"blobber","path"}…],"removed":[…],
/// "failed":{"INDEX":"reason"}}`.
public struct RepairReport: Sendable, Encodable {
    /// (blobber index, path) pairs whose fragment was rebuilt or whose metadata was restored.
    public var repaired: [(blobber: Int, path: String)] = []
    /// Paths removed from blobbers that kept something the others had deleted.
    public var removed: [(blobber: Int, path: String)] = []
    /// What could not be repaired now (blobber index → reason).
    public var failed: [Int: String] = [:]

    private struct Place: Encodable {
        let blobber: Int
        let path: String
    }

    enum CodingKeys: String, CodingKey { case repaired, removed, failed }

    /// Writes the keys listed on the type; `failed` with its blobber indices in order.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(repaired.map { Place(blobber: $0.blobber, path: $0.path) }, forKey: .repaired)
        try c.encode(removed.map { Place(blobber: $0.blobber, path: $0.path) }, forKey: .removed)
        try c.encode(failed, forKey: .failed)
    }
}
