import MosaicCrypto
import MosaicProtocol

extension StorageContract {
    /// `new_allocation(name?, data_shards, parity_shards, size, expiration, blobbers?)`; the tx
    /// value is locked in the write pool and must cover the cost (`StoragePricing.allocationCost`).
    /// Blobbers: the preferred ones first, then the eligible rest ordered by SHA-256(tx hash ‖ id).
    func newAllocation(_ state: StorageState, _ a: ContractArgs) throws(ContractError) -> String {
        let c = state.context
        let name = try a.optionalString("name") ?? ""
        guard name.utf8.count <= 64 else { throw .invalidArguments("\"name\" is at most 64 bytes") }
        let d = try a.int64("data_shards")
        let p = try a.int64("parity_shards")
        guard d >= 1, p >= 0, d + p <= Int64(config.maxShards) else {
            throw .invalidArguments("invalid shards: data_shards must be at least 1, parity_shards at least 0, and together at most \(config.maxShards) (got \(d)+\(p))")
        }
        let size = try a.uint64("size")
        guard size >= config.minAllocationSize else {
            throw .invalidArguments("\"size\" must be at least \(StorageContract.bytes(config.minAllocationSize))")
        }
        let expiration = try a.int64("expiration")
        guard expiration - c.now >= config.minDuration else {
            throw .invalidArguments("\"expiration\" must be at least \(config.minDuration) s after now (\(c.now))")
        }
        let duration = UInt64(expiration - c.now)
        let preferred = try a.optionalStrings("blobbers") ?? []
        let need = Int(d + p)
        guard preferred.count <= need, Set(preferred).count == preferred.count else {
            throw .invalidArguments("\"blobbers\" lists at most \(need) distinct preferred blobbers")
        }
        let per = StoragePricing.blobberSize(size: size, dataShards: Int(d))

        var chosen: [BlobberInfo] = []
        for id in preferred {
            guard let b = try state.blobber(id) else { throw .refused("preferred blobber \(id) is not registered") }
            guard b.free >= per else {
                throw .refused("preferred blobber \(id) has \(StorageContract.bytes(b.free)) free; needs \(StorageContract.bytes(per))")
            }
            guard !isExcluded(b) else { throw .refused("preferred blobber \(id) failed too many challenges (\(b.failedChallenges))") }
            chosen.append(b)
        }
        if chosen.count < need {
            var rest: [(key: [UInt8], blobber: BlobberInfo)] = []
            for id in try state.list(StorageState.blobbersKey) where !preferred.contains(id) {
                try c.consumeGas(20)
                guard let b = try state.blobber(id), b.free >= per, !isExcluded(b) else { continue }
                rest.append((SHA256.hash(Array((c.transactionHash + id).utf8)), b))
            }
            rest.sort { $0.key.lexicographicallyPrecedes($1.key) }
            guard chosen.count + rest.count >= need else {
                throw .refused("not enough blobbers: need \(need) with \(StorageContract.bytes(per)) free, found \(chosen.count + rest.count)")
            }
            chosen += rest.prefix(need - chosen.count).map(\.blobber)
        }

        guard let cost = StoragePricing.allocationCost(writePrices: chosen.map(\.writePrice), size: size, dataShards: Int(d),
                                                       seconds: duration) else {
            throw .refused("the cost of this allocation overflows; choose a smaller size or duration")
        }
        guard c.value >= cost else {
            throw .refused("lock at least \(tokens(cost)) for this size and duration (cost \(tokens(cost)), sent \(tokens(c.value)))")
        }

        var parts: [AllocationBlobber] = []
        for var b in chosen {
            b.allocated = try checkedAdd(b.allocated, per, "blobber allocated bytes")
            try state.save(b)
            parts.append(AllocationBlobber(blobberID: b.id, url: b.url, writePrice: b.writePrice, readPrice: b.readPrice,
                                           challengePoolSince: c.now))
        }
        let alloc = Allocation(id: c.transactionHash, name: name, ownerID: c.caller, ownerPublicKey: c.callerPublicKey,
                               dataShards: Int(d), parityShards: Int(p), size: size, expiration: expiration, blobbers: parts,
                               writePool: c.value, createdAt: c.now)
        try state.save(alloc)
        var mine = try state.list(StorageState.ownerKey(c.caller))
        mine.append(alloc.id)
        try state.save(StorageState.ownerKey(c.caller), mine)
        try c.emit("new_allocation", ["allocation": alloc.id, "owner": c.caller, "size": String(size),
                                      "blobbers": parts.map(\.blobberID).joined(separator: ",")])
        return "allocation \(alloc.id) on \(need) blobbers, \(StorageContract.bytes(size)), write pool \(tokens(c.value))"
    }

    /// `update_allocation(allocation_id, extend_seconds?, grow_bytes?, add_blobber?)`, owner only.
    /// The tx value joins the write pool and must cover the extra cost: for every blobber the cost
    /// of the new size until the new expiration minus that of the old size until the old one.
    func updateAllocation(_ state: StorageState, _ a: ContractArgs) throws(ContractError) -> String {
        let c = state.context
        var alloc = try state.allocation(try a.id("allocation_id"))
        try requireOwnerActive(c, alloc)
        let extend = try a.optionalUInt64("extend_seconds") ?? 0
        let grow = try a.optionalUInt64("grow_bytes") ?? 0
        let add = try a.optionalString("add_blobber")
        guard extend > 0 || grow > 0 || add != nil || c.value > 0 else {
            throw .invalidArguments("nothing to update: give extend_seconds, grow_bytes, add_blobber or tokens to add")
        }
        guard extend <= UInt64(Int64.max) - UInt64(alloc.expiration) else { throw .invalidArguments("\"extend_seconds\" is too large") }
        let newExpiration = alloc.expiration + Int64(extend)
        let newSize = try checkedAdd(alloc.size, grow, "size")
        let newPer = StoragePricing.blobberSize(size: newSize, dataShards: alloc.dataShards)
        let growPer = newPer - alloc.blobberSize
        let oldLeft = UInt64(alloc.expiration - c.now)
        let newLeft = UInt64(newExpiration - c.now)

        var extra: UInt64 = 0
        for i in alloc.blobbers.indices {
            let entry = alloc.blobbers[i]
            guard let after = StoragePricing.writeCost(price: entry.writePrice, bytes: newPer, seconds: newLeft),
                  let before = StoragePricing.writeCost(price: entry.writePrice, bytes: alloc.blobberSize, seconds: oldLeft) else {
                throw .refused("the cost of this update overflows")
            }
            extra = try checkedAdd(extra, after > before ? after - before : 0, "cost")
            if growPer > 0 {
                guard var b = try state.blobber(entry.blobberID) else { continue }
                guard b.free >= growPer else {
                    throw .refused("blobber \(b.id) has \(StorageContract.bytes(b.free)) free; growing needs \(StorageContract.bytes(growPer)) more")
                }
                b.allocated += growPer
                try state.save(b)
            }
        }
        var added: BlobberInfo?
        if let add {
            guard var b = try state.blobber(add) else { throw .refused("blobber \(add) is not registered") }
            guard alloc.index(of: add) == nil else { throw .refused("blobber \(add) is already in allocation \(alloc.id)") }
            guard b.free >= newPer else {
                throw .refused("blobber \(add) has \(StorageContract.bytes(b.free)) free; needs \(StorageContract.bytes(newPer))")
            }
            guard !isExcluded(b) else { throw .refused("blobber \(add) failed too many challenges (\(b.failedChallenges))") }
            guard let cost = StoragePricing.writeCost(price: b.writePrice, bytes: newPer, seconds: newLeft) else {
                throw .refused("the cost of this update overflows")
            }
            extra = try checkedAdd(extra, cost, "cost")
            b.allocated += newPer
            try state.save(b)
            alloc.blobbers.append(AllocationBlobber(blobberID: b.id, url: b.url, writePrice: b.writePrice, readPrice: b.readPrice,
                                                    challengePoolSince: c.now))
            added = b
        }
        guard c.value >= extra else {
            throw .refused("lock at least \(tokens(extra)) more with this update (cost \(tokens(extra)), sent \(tokens(c.value)))")
        }
        alloc.writePool = try checkedAdd(alloc.writePool, c.value, "write pool")
        alloc.expiration = newExpiration
        alloc.size = newSize
        alloc.blobberSize = newPer
        try state.save(alloc)
        try c.emit("update_allocation", ["allocation": alloc.id, "expiration": String(newExpiration), "size": String(newSize),
                                         "added_blobber": added?.id ?? ""])
        return "allocation \(alloc.id) updated: \(StorageContract.bytes(newSize)) until \(UTCTime.iso8601(newExpiration)), write pool \(tokens(alloc.writePool))"
    }

    /// `cancel_allocation(allocation_id)`, owner only, before expiration. Each blobber gets what its
    /// challenge pool has earned so far; the rest returns to the write pool; `cancel_penalty_percent`
    /// of the write pool goes to the blobbers pro rata to their used bytes (evenly if none used);
    /// the remainder is refunded to the owner.
    func cancelAllocation(_ state: StorageState, _ a: ContractArgs) throws(ContractError) -> String {
        let c = state.context
        var alloc = try state.allocation(try a.id("allocation_id"))
        try requireOwnerActive(c, alloc)
        for i in alloc.blobbers.indices {
            let earned = StorageContract.earned(alloc.blobbers[i], expiration: alloc.expiration, now: c.now)
            try payBlobber(state, earned, to: alloc.blobbers[i].blobberID)
            alloc.writePool = try checkedAdd(alloc.writePool, alloc.blobbers[i].challengePool - earned, "write pool")
            alloc.blobbers[i].challengePool = 0
        }
        alloc.challengePool = 0
        let penalty = (StoragePricing.mulDivFloor(alloc.writePool, config.cancelPenaltyPercent, 100) ?? 0)
        let shares = StorageContract.split(penalty, weights: alloc.blobbers.map(\.used))
        for (i, share) in shares.enumerated() { try payBlobber(state, share, to: alloc.blobbers[i].blobberID) }
        let refund = alloc.writePool - penalty
        try c.pay(refund, to: alloc.ownerID)
        alloc.writePool = 0
        alloc.status = .canceled
        try releaseCapacity(state, alloc)
        try state.save(alloc)
        try c.emit("cancel_allocation", ["allocation": alloc.id, "refund": String(refund), "penalty": String(penalty)])
        return "allocation \(alloc.id) canceled: refunded \(tokens(refund)), penalty \(tokens(penalty)) paid to its blobbers"
    }

    /// `finalize_allocation(allocation_id)`, anyone, after expiration: every blobber gets its whole
    /// challenge pool (it has kept the data to the end), the write pool returns to the owner.
    func finalizeAllocation(_ state: StorageState, _ a: ContractArgs) throws(ContractError) -> String {
        let c = state.context
        var alloc = try state.allocation(try a.id("allocation_id"))
        guard alloc.status == .active else { throw .refused("allocation \(alloc.id) is already \(alloc.status.rawValue)") }
        guard c.now >= alloc.expiration else {
            throw .refused("allocation \(alloc.id) expires at \(UTCTime.iso8601(alloc.expiration)) (in \(alloc.expiration - c.now) s); the owner may cancel it earlier")
        }
        var paid: UInt64 = 0
        for i in alloc.blobbers.indices {
            try payBlobber(state, alloc.blobbers[i].challengePool, to: alloc.blobbers[i].blobberID)
            paid += alloc.blobbers[i].challengePool
            alloc.blobbers[i].challengePool = 0
        }
        alloc.challengePool = 0
        let refund = alloc.writePool
        try c.pay(refund, to: alloc.ownerID)
        alloc.writePool = 0
        alloc.status = .finalized
        try releaseCapacity(state, alloc)
        try state.save(alloc)
        try c.emit("finalize_allocation", ["allocation": alloc.id, "paid": String(paid), "refund": String(refund)])
        return "allocation \(alloc.id) finalized: \(tokens(paid)) to blobbers, \(tokens(refund)) back to the owner"
    }

    func requireOwnerActive(_ c: ContractContext, _ alloc: Allocation) throws(ContractError) {
        guard alloc.ownerID == c.caller else { throw .refused("only the owner \(alloc.ownerID) may change allocation \(alloc.id)") }
        guard alloc.status == .active else { throw .refused("allocation \(alloc.id) is \(alloc.status.rawValue)") }
        guard c.now < alloc.expiration else {
            throw .refused("allocation \(alloc.id) expired at \(UTCTime.iso8601(alloc.expiration)); finalize it with storage.finalize_allocation")
        }
    }

    /// Splits `total` by `weights` (floor), the remainder to the first part; evenly when all are 0.
    static func split(_ total: UInt64, weights: [UInt64]) -> [UInt64] {
        guard !weights.isEmpty else { return [] }
        let sum = weights.reduce(UInt64(0)) { $0 &+ $1 }
        let w = sum == 0 ? weights.map { _ in UInt64(1) } : weights
        let s = sum == 0 ? UInt64(weights.count) : sum
        var out = w.map { StoragePricing.mulDivFloor(total, $0, s) ?? 0 }
        out[0] += total - out.reduce(0, +)
        return out
    }
}
