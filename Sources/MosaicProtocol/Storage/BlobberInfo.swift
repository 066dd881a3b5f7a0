/// A storage provider as the ledger knows it (`storage.register_blobber`). `id` is the blobber's
/// wallet client id; prices are base units (write: per GiB per 30 days, read: per GiB read).
public struct BlobberInfo: Sendable, Hashable, Codable {
    public var id: String
    /// Base URL of the blobber's HTTP API, e.g. "http://127.0.0.1:5051".
    public var url: String
    /// Bytes offered in total.
    public var capacity: UInt64
    /// Bytes promised to allocations (sum of their per-blobber sizes); free = capacity − allocated.
    public var allocated: UInt64
    public var writePrice: UInt64
    public var readPrice: UInt64
    /// Tokens locked by the blobber (the tx value of register/update); failed challenges slash it.
    public var stake: UInt64
    public var registeredAt: Int64
    public var updatedAt: Int64
    public var successfulChallenges: UInt64
    public var failedChallenges: UInt64
    /// Total slashed from the stake for failed challenges.
    public var penalties: UInt64
    /// Total paid to the blobber (challenge rewards, read payments, cancellation shares, finalization).
    public var rewards: UInt64

    enum CodingKeys: String, CodingKey {
        case id, url, capacity, allocated
        case writePrice = "write_price"
        case readPrice = "read_price"
        case stake
        case registeredAt = "registered_at"
        case updatedAt = "updated_at"
        case successfulChallenges = "successful_challenges"
        case failedChallenges = "failed_challenges"
        case penalties, rewards
    }

    public init(
        id: String, url: String, capacity: UInt64, allocated: UInt64 = 0, writePrice: UInt64, readPrice: UInt64,
        stake: UInt64, registeredAt: Int64, updatedAt: Int64, successfulChallenges: UInt64 = 0,
        failedChallenges: UInt64 = 0, penalties: UInt64 = 0, rewards: UInt64 = 0
    ) {
        self.id = id
        self.url = url
        self.capacity = capacity
        self.allocated = allocated
        self.writePrice = writePrice
        self.readPrice = readPrice
        self.stake = stake
        self.registeredAt = registeredAt
        self.updatedAt = updatedAt
        self.successfulChallenges = successfulChallenges
        self.failedChallenges = failedChallenges
        self.penalties = penalties
        self.rewards = rewards
    }

    /// Bytes still available for new allocations.
    public var free: UInt64 { capacity > allocated ? capacity - allocated : 0 }
}
