/// One blobber's part of an allocation: what it has committed (root, bytes) and what it is owed.
public struct AllocationBlobber: Sendable, Hashable, Codable {
    public var blobberID: String
    public var url: String
    /// Latest committed allocation root (hex; 64 zeros while empty), see `AllocationTree`.
    public var allocationRoot: String
    /// Bytes this blobber holds for the allocation (the latest write marker's `size`).
    public var used: UInt64
    /// Timestamp (unix milliseconds) of the latest committed write marker, nil before the first.
    public var latestWriteMarker: Int64?
    /// Prices agreed when the blobber joined the allocation (later price changes do not apply).
    public var writePrice: UInt64
    public var readPrice: UInt64
    /// Tokens moved here from the write pool by write markers; released to the blobber over time
    /// (from `challenge_pool_since` to expiration) by passed challenges and finalization.
    public var challengePool: UInt64
    public var challengePoolSince: Int64

    enum CodingKeys: String, CodingKey {
        case blobberID = "blobber_id"
        case url
        case allocationRoot = "allocation_root"
        case used
        case latestWriteMarker = "latest_write_marker"
        case writePrice = "write_price"
        case readPrice = "read_price"
        case challengePool = "challenge_pool"
        case challengePoolSince = "challenge_pool_since"
    }

    public init(
        blobberID: String, url: String, allocationRoot: String = AllocationTree.emptyRoot, used: UInt64 = 0,
        latestWriteMarker: Int64? = nil, writePrice: UInt64, readPrice: UInt64, challengePool: UInt64 = 0,
        challengePoolSince: Int64
    ) {
        self.blobberID = blobberID
        self.url = url
        self.allocationRoot = allocationRoot
        self.used = used
        self.latestWriteMarker = latestWriteMarker
        self.writePrice = writePrice
        self.readPrice = readPrice
        self.challengePool = challengePool
        self.challengePoolSince = challengePoolSince
    }
}
