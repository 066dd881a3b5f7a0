/// `GET /v1/storage/quote`: the tokens (`lock`, base units) a `new_allocation` of these terms
/// must carry so whichever eligible blobbers it gets are paid until expiration.
public struct StorageQuoteView: Sendable, Hashable, Codable {
    public var size: UInt64
    public var dataShards: Int
    public var parityShards: Int
    public var seconds: UInt64
    public var lock: UInt64

    enum CodingKeys: String, CodingKey {
        case size
        case dataShards = "data_shards"
        case parityShards = "parity_shards"
        case seconds, lock
    }

    public init(size: UInt64, dataShards: Int, parityShards: Int, seconds: UInt64, lock: UInt64) {
        self.size = size
        self.dataShards = dataShards
        self.parityShards = parityShards
        self.seconds = seconds
        self.lock = lock
    }
}
