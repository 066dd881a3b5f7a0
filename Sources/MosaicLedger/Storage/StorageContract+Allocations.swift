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
        let maxShards = Int64(config.maxShards)
        // Each bound on its own before adding: d + p cannot overflow once both are ≤ maxShards.
        guard d >= 1, p >= 0, d <= maxShards, p <= maxShards - d else {
            throw .invalidArguments(
                "invalid shards: data_shards must be at least 1, parity_shards at least 0, and together at most \(config.maxShards) (got \(d)+\(p))"
            )
        }
        let size = try a.uint64("size")
        guard size >= config.minAllocationSize else {
            throw .invalidArguments("\"size\" must be at least \(StorageContract.bytes(config.minAllocationSize))")
        }
        let expiration = try a.int64("expiration")
        let duration = try checkedDuration(from: c.now, to: expiration, what: "\"expiration\"")
        let preferred = try a.optionalStrings("blobbers") ?? []
        let need = Int(d + p)
        guard preferred.count <= need, Set(preferred).count == preferred.count else {
            throw .invalidArguments("\"blobbers\" lists at most \(need) distinct preferred blobbers")
        }
        for id in preferred where !Transaction.isHexID(id) {
            throw .invalidArguments("\"blobbers\" must hold blobber ids (64 lowercase hex characters), not \"\(id.prefix(80))\"")
        }
        let per = StoragePricing.blobberSize(size: size, dataShards: Int(d))

        var chosen: [BlobberInfo] = []
        for id in preferred {
            guard let b = try state.blobber(id) else { throw .refused(.notFound, "preferred blobber \(id) is not registered") }
            guard b.free >= per else {
                throw .refused(
                    .insufficientCapacity,
                    "preferred blobber \(id) has \(StorageContract.bytes(b.free)) free; needs \(StorageContract.bytes(per))")
            }
            guard !isExcluded(b) else {
                throw .refused(.notEligible, "preferred blobber \(id) failed too many challenges (\(b.failedChallenges))")
            }
            chosen.append(b)
        }
        if chosen.count < need {
            let (rest, looked) = try candidateBlobbers(state, excluding: Set(preferred), per: per)
            guard chosen.count + rest.count >= need else {
                throw .refused(
                    .insufficientCapacity,
                    "not enough blobbers: need \(need) with \(StorageContract.bytes(per)) free, found \(chosen.count + rest.count)\(looked >= config.maxBlobberCandidates ? " among the \(looked) looked at; name preferred blobbers with \"blobbers\", or send the call again (another transaction looks at other blobbers)" : "")"
                )
            }
            chosen += rest.prefix(need - chosen.count)
        }

        guard
            let cost = StoragePricing.allocationCost(
                writePrices: chosen.map(\.writePrice), size: size, dataShards: Int(d),
                seconds: duration)
        else {
            throw .refused(.overflow, "the cost of this allocation overflows; choose a smaller size or duration")
        }
        guard c.value >= cost else {
            throw .refused(
                .insufficientValue,
                "lock at least \(tokens(cost)) for this size and duration (cost \(tokens(cost)), sent \(tokens(c.value)))")
        }

        var parts: [AllocationBlobber] = []
        for var b in chosen {
            b.allocated = try checkedAdd(b.allocated, per, "blobber allocated bytes")
            try state.save(b)
            parts.append(
                AllocationBlobber(
                    blobberID: b.id, url: b.url, writePrice: b.writePrice, readPrice: b.readPrice,
                    challengePoolSince: c.now))
        }
        let alloc = Allocation(
            id: c.transactionHash, name: name, ownerID: c.caller, ownerPublicKey: c.callerPublicKey,
            dataShards: Int(d), parityShards: Int(p), size: size, expiration: expiration, blobbers: parts,
            writePool: c.value, createdAt: c.now)
        try state.save(alloc)
        try state.addToOwner(c.caller, alloc.id)
        try c.emit(
            "new_allocation",
            [
                "allocation": alloc.id, "owner": c.caller, "size": String(size),
                "blobbers": parts.map(\.blobberID).joined(separator: ","),
            ])
        return "allocation \(alloc.id) on \(need) blobbers, \(StorageContract.bytes(size)), write pool \(tokens(c.value))"
    }

    /// Eligible blobbers (room for `per` bytes, not excluded, not in `excluding`) among at most
    /// `maxBlobberCandidates` registered ones, read in id order from a point given by the
    /// transaction hash (wrapping around), ordered by SHA-256(tx hash ‖ id). Ids are hashes, so
    /// the window is a fair sample; a network of at most that many blobbers is read whole, and
    /// the gas of `new_allocation` never grows with the number of blobbers. Returns the eligible
    /// ones and how many were looked at.
    func candidateBlobbers(_ state: StorageState, excluding: Set<String>, per: UInt64) throws(ContractError) -> ([BlobberInfo], Int) {
        let c = state.context
        let cap = config.maxBlobberCandidates
        let start = StorageState.blobberKey(c.transactionHash)
        var rows = try c.scan(prefix: StorageState.blobberPrefix, after: start, limit: cap)
        if rows.count < cap {
            // Wrap around: the keys up to the start point, those already read excluded.
            let head = try c.scan(prefix: StorageState.blobberPrefix, after: nil, limit: cap - rows.count)
            let seen = Set(rows.map(\.key))
            rows += head.filter { !seen.contains($0.key) }
        }
        var rest: [(key: [UInt8], blobber: BlobberInfo)] = []
        for row in rows {
            let b = try StorageState.decode(row.value, key: row.key, as: BlobberInfo.self)
            guard !excluding.contains(b.id), b.free >= per, !isExcluded(b) else { continue }
            rest.append((SHA256.hash(Array((c.transactionHash + b.id).utf8)), b))
        }
        rest.sort { $0.key.lexicographicallyPrecedes($1.key) }
        return (rest.map(\.blobber), rows.count)
    }

    /// Seconds from `now` to `end`, which must lie `min_duration` to `max_duration` ahead.
    func checkedDuration(from now: Int64, to end: Int64, what: String) throws(ContractError) -> UInt64 {
        let (span, overflow) = end.subtractingReportingOverflow(now)
        guard !overflow, span > 0, span >= config.minDuration, span <= config.maxDuration else {
            throw .invalidArguments("\(what) must be \(config.minDuration) s to \(config.maxDuration) s after now (\(now)); got \(end)")
        }
        return UInt64(span)
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
        if let add, !Transaction.isHexID(add) {
            throw .invalidArguments("\"add_blobber\" must be a blobber id (64 lowercase hex characters), not \"\(add.prefix(80))\"")
        }
        guard let extendBy = Int64(exactly: extend), case (let newExpiration, false) = alloc.expiration.addingReportingOverflow(extendBy)
        else {
            throw .invalidArguments("\"extend_seconds\" \(extend) is too large")
        }
        let newLeft = StorageContract.seconds(from: c.now, to: newExpiration)
        guard newLeft <= UInt64(clamping: config.maxDuration) else {
            throw .invalidArguments("the new expiration is more than \(config.maxDuration) s after now; give a smaller \"extend_seconds\"")
        }
        let oldLeft = StorageContract.seconds(from: c.now, to: alloc.expiration)
        let newSize = try checkedAdd(alloc.size, grow, "size")
        let newPer = StoragePricing.blobberSize(size: newSize, dataShards: alloc.dataShards)
        let growPer = try checkedSub(newPer, alloc.blobberSize, "bytes per blobber")

        var extra: UInt64 = 0
        for i in alloc.blobbers.indices {
            let entry = alloc.blobbers[i]
            guard let after = StoragePricing.writeCost(price: entry.writePrice, bytes: newPer, seconds: newLeft),
                let before = StoragePricing.writeCost(price: entry.writePrice, bytes: alloc.blobberSize, seconds: oldLeft)
            else {
                throw .refused(.overflow, "the cost of this update overflows")
            }
            extra = try checkedAdd(extra, after > before ? after - before : 0, "cost")
            if growPer > 0 {
                guard var b = try state.blobber(entry.blobberID) else { continue }
                guard b.free >= growPer else {
                    throw .refused(
                        .insufficientCapacity,
                        "blobber \(b.id) has \(StorageContract.bytes(b.free)) free; growing needs \(StorageContract.bytes(growPer)) more")
                }
                b.allocated = try checkedAdd(b.allocated, growPer, "blobber allocated bytes")
                try state.save(b)
            }
        }
        var added: BlobberInfo?
        if let add {
            guard var b = try state.blobber(add) else { throw .refused(.notFound, "blobber \(add) is not registered") }
            guard alloc.index(of: add) == nil else { throw .refused(.alreadyExists, "blobber \(add) is already in allocation \(alloc.id)") }
            guard alloc.blobbers.count < config.maxAllocationBlobbers else {
                throw .refused(.limitExceeded, "allocation \(alloc.id) already has \(alloc.blobbers.count) blobbers, the most allowed")
            }
            guard b.free >= newPer else {
                throw .refused(
                    .insufficientCapacity,
                    "blobber \(add) has \(StorageContract.bytes(b.free)) free; needs \(StorageContract.bytes(newPer))")
            }
            guard !isExcluded(b) else { throw .refused(.notEligible, "blobber \(add) failed too many challenges (\(b.failedChallenges))") }
            guard let cost = StoragePricing.writeCost(price: b.writePrice, bytes: newPer, seconds: newLeft) else {
                throw .refused(.overflow, "the cost of this update overflows")
            }
            extra = try checkedAdd(extra, cost, "cost")
            b.allocated = try checkedAdd(b.allocated, newPer, "blobber allocated bytes")
            try state.save(b)
            alloc.blobbers.append(
                AllocationBlobber(
                    blobberID: b.id, url: b.url, writePrice: b.writePrice, readPrice: b.readPrice,
                    challengePoolSince: c.now))
            added = b
        }
        guard c.value >= extra else {
            throw .refused(
                .insufficientValue, "lock at least \(tokens(extra)) more with this update (cost \(tokens(extra)), sent \(tokens(c.value)))")
        }
        alloc.writePool = try checkedAdd(alloc.writePool, c.value, "write pool")
        alloc.expiration = newExpiration
        alloc.size = newSize
        alloc.blobberSize = newPer
        try state.save(alloc)
        try c.emit(
            "update_allocation",
            [
                "allocation": alloc.id, "expiration": String(newExpiration), "size": String(newSize),
                "added_blobber": added?.id ?? "",
            ])
        return
            "allocation \(alloc.id) updated: \(StorageContract.bytes(newSize)) until \(UTCTime.iso8601(newExpiration)), write pool \(tokens(alloc.writePool))"
    }

    /// `cancel_allocation(allocation_id)`, owner only, before expiration: `settle` with the
    /// cancellation rule.
    func cancelAllocation(_ state: StorageState, _ a: ContractArgs) throws(ContractError) -> String {
        let c = state.context
        var alloc = try state.allocation(try a.id("allocation_id"))
        try requireOwnerActive(c, alloc)
        let s = try settle(state, &alloc, canceled: true)
        try c.emit("cancel_allocation", ["allocation": alloc.id, "refund": String(s.refund), "penalty": String(s.penalty)])
        return "allocation \(alloc.id) canceled: refunded \(tokens(s.refund)), penalty \(tokens(s.penalty)) paid to its blobbers"
    }

    /// `finalize_allocation(allocation_id)`, anyone, after expiration: `settle` with the
    /// finalization rule.
    func finalizeAllocation(_ state: StorageState, _ a: ContractArgs) throws(ContractError) -> String {
        let c = state.context
        var alloc = try state.allocation(try a.id("allocation_id"))
        guard alloc.status == .active else { throw .refused(.invalidState, "allocation \(alloc.id) is already \(alloc.status.rawValue)") }
        guard c.now >= alloc.expiration else {
            throw .refused(
                .tooEarly,
                "allocation \(alloc.id) expires at \(UTCTime.iso8601(alloc.expiration)) (in \(StorageContract.seconds(from: c.now, to: alloc.expiration)) s); the owner may cancel it earlier"
            )
        }
        let s = try settle(state, &alloc, canceled: false)
        try c.emit("finalize_allocation", ["allocation": alloc.id, "paid": String(s.paid), "refund": String(s.refund)])
        return "allocation \(alloc.id) finalized: \(tokens(s.paid)) to blobbers, \(tokens(s.refund)) back to the owner"
    }

    /// How an allocation's tokens divide when it ends: what each blobber gets (its challenge pool's
    /// share, its cancellation-penalty share) and what returns to the owner. Computed by
    /// `settlement(of:canceled:now:)`, the one rule for what goes back on cancel and finalize.
    struct Settlement: Equatable {
        /// Per blobber, in allocation order: the part of its challenge pool paid to it.
        var earned: [UInt64] = []
        /// Per blobber, in allocation order: its share of the cancellation penalty (all 0 on finalize).
        var penaltyShares: [UInt64] = []
        /// Everything paid to the blobbers: the earned parts and the penalty.
        var paid: UInt64 = 0
        var penalty: UInt64 = 0
        /// What returns to the owner.
        var refund: UInt64 = 0
    }

    /// What ending `alloc` at `now` pays, with checked arithmetic; changes nothing. It conserves
    /// tokens: `paid + refund` is the write pool plus every blobber's challenge pool.
    /// - finalize (`canceled` false, after expiration): every blobber gets its whole challenge
    ///   pool (it kept the data to the end); the write pool returns to the owner.
    /// - cancel (before expiration): every blobber gets what its challenge pool earned so far
    ///   (`earned`), the rest returns to the write pool; `cancel_penalty_percent` of the write pool
    ///   goes to the blobbers pro rata to their used bytes (evenly if none); the rest is refunded.
    func settlement(of alloc: Allocation, canceled: Bool, now: Int64) throws(ContractError) -> Settlement {
        var s = Settlement()
        var writePool = alloc.writePool
        for b in alloc.blobbers {
            let pool = b.challengePool
            let earned = canceled ? StorageContract.earned(b, expiration: alloc.expiration, now: now) : pool
            s.earned.append(earned)
            s.paid = try checkedAdd(s.paid, earned, "paid to blobbers")
            writePool = try checkedAdd(writePool, pool - earned, "write pool")
        }
        if canceled {
            s.penalty = StoragePricing.mulDivFloor(writePool, min(config.cancelPenaltyPercent, 100), 100) ?? 0
            s.penaltyShares = StorageContract.split(s.penalty, weights: alloc.blobbers.map(\.used))
            s.paid = try checkedAdd(s.paid, s.penalty, "paid to blobbers")
        } else {
            s.penaltyShares = alloc.blobbers.map { _ in 0 }
        }
        s.refund = try checkedSub(writePool, s.penalty, "refund")
        return s
    }

    /// Ends `alloc`: pays out its `settlement`, sets pools to 0 and the status, and releases the
    /// blobbers' capacity.
    func settle(_ state: StorageState, _ alloc: inout Allocation, canceled: Bool) throws(ContractError) -> Settlement {
        let c = state.context
        let s = try settlement(of: alloc, canceled: canceled, now: c.now)
        for i in alloc.blobbers.indices {
            try payBlobber(state, s.earned[i], to: alloc.blobbers[i].blobberID)
            alloc.blobbers[i].challengePool = 0
        }
        for (i, share) in s.penaltyShares.enumerated() { try payBlobber(state, share, to: alloc.blobbers[i].blobberID) }
        try c.pay(s.refund, to: alloc.ownerID)
        alloc.writePool = 0
        alloc.challengePool = 0
        alloc.status = canceled ? .canceled : .finalized
        try releaseCapacity(state, alloc)
        try state.save(alloc)
        return s
    }

    func requireOwnerActive(_ c: ContractContext, _ alloc: Allocation) throws(ContractError) {
        guard alloc.ownerID == c.caller else {
            throw .refused(.notOwner, "only the owner \(alloc.ownerID) may change allocation \(alloc.id)")
        }
        guard alloc.status == .active else { throw .refused(.invalidState, "allocation \(alloc.id) is \(alloc.status.rawValue)") }
        guard c.now < alloc.expiration else {
            throw .refused(
                .expired,
                "allocation \(alloc.id) expired at \(UTCTime.iso8601(alloc.expiration)); finalize it with storage.finalize_allocation")
        }
    }

    /// Splits `total` by `weights` (floor), the remainder to the first part; evenly when all are 0.
    /// 128-bit arithmetic: no sum or product can overflow, and the parts add up to `total`.
    static func split(_ total: UInt64, weights: [UInt64]) -> [UInt64] {
        guard !weights.isEmpty else { return [] }
        let sum = weights.reduce(UInt128(0)) { $0 + UInt128($1) }
        let w = sum == 0 ? weights.map { _ in UInt128(1) } : weights.map { UInt128($0) }
        let s = sum == 0 ? UInt128(weights.count) : sum
        var out = w.map { UInt64(UInt128(total) * $0 / s) }
        out[0] += total - out.reduce(0, +)
        return out
    }

    /// Whole seconds from `start` to `end`; 0 when `end` is not after `start`. Exact for any two
    /// Int64 values (the difference of two Int64 always fits a UInt64).
    static func seconds(from start: Int64, to end: Int64) -> UInt64 {
        end > start ? UInt64(bitPattern: end &- start) : 0
    }
}
