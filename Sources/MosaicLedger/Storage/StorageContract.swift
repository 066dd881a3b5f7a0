import MosaicCrypto
import MosaicProtocol

/// `storage.*`: blobbers, allocations and their token pools, write and read markers, challenges
/// and revoked auth tickets (docs/STORAGE.md §5–§7).
///
/// Every token the contract holds sits in its account, and its records say whose it is: blobber
/// stakes, allocation write pools, per-blobber challenge pools and client read pools always add
/// up to the contract's balance. Tokens leave only through `ContractContext.pay`, so the ledger's
/// supply is conserved.
package struct StorageContract: Contract {
    public let config: StorageConfig
    public var name: String { "storage" }
    public var methods: [String] {
        [
            "register_blobber", "update_blobber", "unregister_blobber", "new_allocation", "update_allocation", "cancel_allocation",
            "finalize_allocation", "commit_write_markers", "lock_read_pool", "unlock_read_pool", "redeem_read_markers",
            "respond_challenge", "revoke_ticket",
        ]
    }

    /// The methods whose call value the contract keeps on record (stake, write pool, read pool).
    static let valueMethods: Set<String> = ["register_blobber", "update_blobber", "new_allocation", "update_allocation", "lock_read_pool"]

    public init(config: StorageConfig = StorageConfig()) { self.config = config }

    public func execute(_ context: ContractContext, method: String, args: [String: JSONValue]) throws(ContractError) -> String {
        try context.consumeGas(500)
        let state = StorageState(context: context)
        let a = ContractArgs(args)
        try refuseValue(context, method: method, takingValue: StorageContract.valueMethods)
        switch method {
        case "register_blobber": return try registerBlobber(state, a)
        case "update_blobber": return try updateBlobber(state, a)
        case "unregister_blobber": return try unregisterBlobber(state, a)
        case "new_allocation": return try newAllocation(state, a)
        case "update_allocation": return try updateAllocation(state, a)
        case "cancel_allocation": return try cancelAllocation(state, a)
        case "finalize_allocation": return try finalizeAllocation(state, a)
        case "commit_write_markers": return try commitWriteMarkers(state, a)
        case "lock_read_pool": return try lockReadPool(state, a)
        case "unlock_read_pool": return try unlockReadPool(state, a)
        case "redeem_read_markers": return try redeemReadMarkers(state, a)
        case "respond_challenge": return try respondChallenge(state, a)
        case "revoke_ticket": return try revokeTicket(state, a)
        default: throw .unknownMethod(contract: name, method: method)
        }
    }

    public func endBlock(_ context: ContractContext, seed: String) throws(ContractError) {
        try runChallenges(StorageState(context: context), previousBlockHash: seed)
    }

    // MARK: Shared helpers

    /// Pays a blobber from the contract account and counts it in its rewards.
    func payBlobber(_ state: StorageState, _ amount: UInt64, to blobberID: String) throws(ContractError) {
        guard amount > 0 else { return }
        try state.context.pay(amount, to: blobberID)
        if var b = try state.blobber(blobberID) {
            b.rewards = try checkedAdd(b.rewards, amount, "blobber rewards")
            try state.save(b)
        }
    }

    /// The part of a blobber's challenge pool earned by `now`: the pool is released evenly over
    /// time from `challenge_pool_since` to the expiration. Never more than the pool. The rule both
    /// a closed challenge and a cancellation (`settlement`) pay a blobber by.
    static func earned(_ b: AllocationBlobber, expiration: Int64, now: Int64) -> UInt64 {
        if now >= expiration || b.challengePoolSince >= expiration { return b.challengePool }
        guard now > b.challengePoolSince else { return 0 }
        let part =
            StoragePricing.mulDivFloor(
                b.challengePool, seconds(from: b.challengePoolSince, to: now),
                seconds(from: b.challengePoolSince, to: expiration)) ?? b.challengePool
        return min(part, b.challengePool)
    }

    /// Gives back the capacity an allocation held on each of its blobbers.
    func releaseCapacity(_ state: StorageState, _ a: Allocation) throws(ContractError) {
        for entry in a.blobbers {
            guard var b = try state.blobber(entry.blobberID) else { continue }
            b.allocated = b.allocated > a.blobberSize ? b.allocated - a.blobberSize : 0
            try state.save(b)
            try state.setChallengeable(a.id, entry.blobberID, false)
        }
    }

    /// Whether failed challenges keep a blobber out of new allocations.
    func isExcluded(_ b: BlobberInfo) -> Bool {
        b.failedChallenges >= config.maxFailedChallenges && b.failedChallenges >= b.successfulChallenges
    }

    func tokens(_ units: UInt64) -> String { "\(TokenAmount(baseUnits: units)) tokens" }

    /// "1 GiB", "3 MiB", "12 KiB" when exact, else bytes.
    static func bytes(_ n: UInt64) -> String {
        for (unit, size) in [("TiB", UInt64(1) << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)]
        where n >= size && n % size == 0 {
            return "\(n / size) \(unit)"
        }
        return "\(n) bytes"
    }

    func requireRegisteredBlobber(_ state: StorageState) throws(ContractError) -> BlobberInfo {
        guard let b = try state.blobber(state.context.caller) else {
            throw .refused(.notFound, "caller \(state.context.caller) is not a registered blobber; call storage.register_blobber first")
        }
        return b
    }
}
