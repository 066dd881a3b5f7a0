import MosaicProtocol

/// The storage contract's rules. Built in with these defaults; tests pass their own
/// `StorageContract(config:)` in the ledger's `ContractRegistry`, where it replaces the default by name.
package struct StorageConfig: Sendable, Hashable {
    /// Smallest stake a blobber must lock when registering (tx value of `register_blobber`).
    public var minBlobberStake: UInt64 = TokenAmount.unitsPerToken
    public var maxShards: Int = 64
    /// Shortest allocation lifetime, seconds.
    public var minDuration: Int64 = 3600
    /// Longest allocation lifetime, seconds (100 years): keeps every time sum far from overflow.
    public var maxDuration: Int64 = 100 * 365 * 86_400
    public var minAllocationSize: UInt64 = 1 << 20
    /// A blobber with at least this many failed challenges and no more successful than failed
    /// ones is not picked for new allocations.
    public var maxFailedChallenges: UInt64 = 5
    /// Share of the write pool kept from the owner on cancel and paid to the blobbers, percent.
    public var cancelPenaltyPercent: UInt64 = 10
    /// A challenge is issued at the end of a block when u64(seed[24..<32]) mod this is 0
    /// (1 = every block that has something to challenge).
    public var challengeEveryBlocks: UInt64 = 4
    /// Seconds a blobber has to answer a challenge.
    public var challengeTimeoutSeconds: Int64 = 300
    /// Slashed from the blobber's stake (at most all of it) for a failed challenge, on top of
    /// returning the challenged period's pay to the write pool.
    public var challengePenalty: UInt64 = TokenAmount.unitsPerToken / 10
    /// How far in the future a marker's timestamp may be, seconds.
    public var markerClockSkew: Int64 = 600
    /// Most markers in one commit/redeem call.
    public var maxMarkersPerCall: Int = 64
    /// Registered blobbers `new_allocation` looks at to fill the places not named in `blobbers`
    /// (a window of the id-ordered set from a point the transaction hash gives): its gas is
    /// bounded by this, not by the size of the network.
    public var maxBlobberCandidates: Int = 128
    /// Most blobbers one allocation may have, `add_blobber` included.
    public var maxAllocationBlobbers: Int = 128

    public init() {}
}
