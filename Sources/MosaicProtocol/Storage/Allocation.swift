/// A storage allocation: `size` bytes of user data spread over `data_shards + parity_shards`
/// blobbers until `expiration`, paid from tokens locked in `write_pool`.
/// `id` is the hash of the `new_allocation` transaction.
public struct Allocation: Sendable, Hashable, Codable {
    public var id: String
    public var name: String
    public var ownerID: String
    /// Hex Ed25519 key of the owner: write markers and auth tickets are checked against it.
    public var ownerPublicKey: String
    public var dataShards: Int
    public var parityShards: Int
    /// Total user bytes (before erasure coding).
    public var size: UInt64
    /// Bytes each blobber may hold: ⌈size / data_shards⌉.
    public var blobberSize: UInt64
    /// Unix seconds.
    public var expiration: Int64
    /// In order: fragment i of every file goes to `blobbers[i]`. May grow beyond d + p (add_blobber).
    public var blobbers: [AllocationBlobber]
    /// Tokens not yet earmarked for a blobber.
    public var writePool: UInt64
    /// Sum of the blobbers' challenge pools.
    public var challengePool: UInt64
    /// Space used in the same unit as `size` (user data): the fullest blobber's `used` × d. Every
    /// blobber holds one fragment of each chunk, so this is the stored bytes with chunk padding,
    /// and it reaches `size` exactly when a blobber reaches `blobber_size`.
    public var usedSize: UInt64
    public var numWrites: UInt64
    /// Read markers redeemed.
    public var numReads: UInt64
    public var successfulChallenges: UInt64
    public var failedChallenges: UInt64
    /// Unix seconds of the latest challenge that passed or failed, nil if none.
    public var latestClosedChallenge: Int64?
    public var createdAt: Int64
    public var status: AllocationStatus

    enum CodingKeys: String, CodingKey {
        case id, name
        case ownerID = "owner_id"
        case ownerPublicKey = "owner_public_key"
        case dataShards = "data_shards"
        case parityShards = "parity_shards"
        case size
        case blobberSize = "blobber_size"
        case expiration, blobbers
        case writePool = "write_pool"
        case challengePool = "challenge_pool"
        case usedSize = "used_size"
        case numWrites = "num_writes"
        case numReads = "num_reads"
        case successfulChallenges = "successful_challenges"
        case failedChallenges = "failed_challenges"
        case latestClosedChallenge = "latest_closed_challenge"
        case createdAt = "created_at"
        case status
    }

    public init(
        id: String, name: String, ownerID: String, ownerPublicKey: String, dataShards: Int, parityShards: Int,
        size: UInt64, expiration: Int64, blobbers: [AllocationBlobber], writePool: UInt64, createdAt: Int64
    ) {
        self.id = id
        self.name = name
        self.ownerID = ownerID
        self.ownerPublicKey = ownerPublicKey
        self.dataShards = dataShards
        self.parityShards = parityShards
        self.size = size
        self.blobberSize = StoragePricing.blobberSize(size: size, dataShards: dataShards)
        self.expiration = expiration
        self.blobbers = blobbers
        self.writePool = writePool
        self.challengePool = 0
        self.usedSize = 0
        self.numWrites = 0
        self.numReads = 0
        self.successfulChallenges = 0
        self.failedChallenges = 0
        self.latestClosedChallenge = nil
        self.createdAt = createdAt
        self.status = .active
    }

    /// Index of `blobberID` in `blobbers`, i.e. which fragment it stores.
    public func index(of blobberID: String) -> Int? { blobbers.firstIndex { $0.blobberID == blobberID } }
}

extension Allocation {
    /// `usedSize` from the blobbers' fragment bytes (saturating: it is only shown).
    public static func dataEquivalent(blobberUsed: [UInt64], dataShards: Int) -> UInt64 {
        let (v, overflow) = (blobberUsed.max() ?? 0).multipliedReportingOverflow(by: UInt64(max(dataShards, 1)))
        return overflow ? .max : v
    }
}
