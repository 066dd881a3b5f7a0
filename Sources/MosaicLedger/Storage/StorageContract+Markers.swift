import MosaicProtocol

extension StorageContract {
    /// `commit_write_markers(markers: [WriteMarker])`, caller = the blobber. All or nothing: the
    /// first bad marker refuses the call and names its index. A marker that grows the blobber's
    /// bytes by Δ moves `StoragePricing.writeCost(write_price, Δ, expiration − now)` from the
    /// write pool into the blobber's challenge pool. Shrinking refunds nothing.
    func commitWriteMarkers(_ state: StorageState, _ a: ContractArgs) throws(ContractError) -> String {
        let c = state.context
        let markers = try blobberMarkers(state, a, as: WriteMarker.self, kind: "write markers")
        var moved: UInt64 = 0
        for (i, m) in markers.enumerated() {
            try c.consumeGas(2000)
            let at = "marker \(i) (allocation \(m.allocationID))"
            guard m.blobberID == c.caller else { throw .refused(.notOwner, "\(at) is for blobber \(m.blobberID), not the caller") }
            var alloc = try state.allocation(m.allocationID)
            guard alloc.status == .active else { throw .refused(.invalidState, "\(at): the allocation is \(alloc.status.rawValue)") }
            guard c.now < alloc.expiration else {
                throw .refused(
                    .expired,
                    "\(at): the allocation expired at \(UTCTime.iso8601(alloc.expiration)); the owner must extend it with storage.update_allocation"
                )
            }
            guard m.clientID == alloc.ownerID else {
                throw .refused(.invalidMarker, "\(at) is signed by \(m.clientID), not the owner \(alloc.ownerID)")
            }
            do { try m.verify(ownerPublicKey: alloc.ownerPublicKey) } catch { throw .refused(.invalidMarker, "\(at): \(error)") }
            guard let bi = alloc.index(of: c.caller) else {
                throw .refused(.notOwner, "\(at): blobber \(c.caller) is not part of the allocation")
            }
            var part = alloc.blobbers[bi]
            guard m.previousRoot == part.allocationRoot else {
                throw .refused(
                    .invalidMarker,
                    "\(at): previous_root \(m.previousRoot) does not match the committed root \(part.allocationRoot); commit markers in order"
                )
            }
            guard m.root != m.previousRoot else { throw .refused(.invalidMarker, "\(at): root equals previous_root") }
            guard m.size <= alloc.blobberSize else {
                throw .refused(
                    .insufficientCapacity,
                    "\(at): size \(m.size) exceeds the allocation's \(alloc.blobberSize) bytes per blobber; grow it with storage.update_allocation"
                )
            }
            guard m.root != AllocationTree.emptyRoot || m.size == 0 else {
                throw .refused(.invalidMarker, "\(at): an empty root must have size 0")
            }
            if let latest = part.latestWriteMarker, m.timestamp <= latest {
                throw .refused(
                    .invalidMarker,
                    "\(at): timestamp \(m.timestamp) is not after the latest committed marker's \(latest); write markers' timestamps must strictly increase"
                )
            }
            guard m.timestamp <= milliseconds(saturatingAdd(c.now, config.markerClockSkew)) else {
                throw .refused(
                    .invalidMarker, "\(at): timestamp \(m.timestamp) (ms) is more than \(config.markerClockSkew) s in the future")
            }
            if m.size > part.used {
                guard
                    let cost = StoragePricing.writeCost(
                        price: part.writePrice, bytes: m.size - part.used,
                        seconds: StorageContract.seconds(from: c.now, to: alloc.expiration))
                else {
                    throw .refused(.overflow, "\(at): cost overflows")
                }
                guard alloc.writePool >= cost else {
                    throw .refused(
                        .insufficientBalance,
                        "\(at): the write pool has \(tokens(alloc.writePool)) but storing \(m.size - part.used) more bytes until expiration costs \(tokens(cost)); the owner must add tokens with storage.update_allocation"
                    )
                }
                alloc.writePool -= cost
                part.challengePool = try checkedAdd(part.challengePool, cost, "challenge pool")
                alloc.challengePool = try checkedAdd(alloc.challengePool, cost, "challenge pool")
                moved = try checkedAdd(moved, cost, "moved")
            }
            part.allocationRoot = m.root
            part.used = m.size
            part.latestWriteMarker = m.timestamp
            alloc.blobbers[bi] = part
            alloc.usedSize = Allocation.dataEquivalent(blobberUsed: alloc.blobbers.map(\.used), dataShards: alloc.dataShards)
            alloc.numWrites = incremented(alloc.numWrites)
            try state.save(alloc)
            try state.setChallengeable(alloc.id, c.caller, m.root != AllocationTree.emptyRoot)
            try c.emit("write_marker", ["allocation": alloc.id, "blobber": c.caller, "root": m.root, "size": String(m.size)])
        }
        return "committed \(markers.count) write marker(s); \(tokens(moved)) moved to challenge pools"
    }

    /// `redeem_read_markers(markers: [ReadMarker])`, caller = the blobber. Pays
    /// `StoragePricing.readCost(agreed read_price, counter − last counter)` — the price stored
    /// when the blobber joined the allocation, never its current one; a marker whose signed
    /// `read_price` is below it is refused — from the reader's read pool or, when that is short,
    /// from the allocation's write pool if `ownerPays` allows it.
    ///
    /// Each marker is judged on its own: one that cannot be paid (a reader with no tokens, a
    /// spent ticket budget, a bad signature) is skipped and named in the output and a
    /// `read_marker_refused` event, and the others are redeemed, so one reader cannot hold up a
    /// blobber's pay for everyone else's reads. The call fails, changing nothing, only when no
    /// marker could be redeemed.
    func redeemReadMarkers(_ state: StorageState, _ a: ContractArgs) throws(ContractError) -> String {
        let c = state.context
        let markers = try blobberMarkers(state, a, as: ReadMarker.self, kind: "read markers")
        var paid: UInt64 = 0
        var refused: [String] = []
        var codes: Set<ExecutionError.Code> = []
        for (i, m) in markers.enumerated() {
            try c.consumeGas(2000)
            let payment: ReadPayment
            do { payment = try judge(state, m, index: i) } catch .refused(let code, let why) {
                refused.append(why)
                codes.insert(code)
                try c.emit(
                    "read_marker_refused",
                    [
                        "allocation": m.allocationID, "blobber": c.caller, "reader": m.clientID,
                        "counter": String(m.counter), "reason": String(why.prefix(300)),
                    ])
                continue
            }
            try apply(state, payment, m)
            paid = try checkedAdd(paid, payment.cost, "paid")
        }
        let redeemed = markers.count - refused.count
        // One kind of refusal keeps its code; markers refused for different reasons are invalid markers.
        guard redeemed > 0 else {
            throw .refused(codes.count == 1 ? codes.first ?? .invalidMarker : .invalidMarker, refused.joined(separator: "; "))
        }
        return "redeemed \(redeemed) read marker(s) for \(tokens(paid))"
            + (refused.isEmpty ? "" : "; refused \(refused.count): " + refused.joined(separator: "; "))
    }

    /// What redeeming one marker will do, decided before anything is written.
    struct ReadPayment {
        var alloc: Allocation
        var counterKey: String
        var cost: UInt64
        /// The reader's read pool after paying, or nil when the write pool pays.
        var readPoolLeft: UInt64?
        /// The ticket's spent total after paying (the write pool pays under a ticket).
        var ticketSpent: (key: String, total: UInt64)?
    }

    /// Checks one read marker and works out its payment; throws `.refused` with the reason.
    private func judge(_ state: StorageState, _ m: ReadMarker, index i: Int) throws(ContractError) -> ReadPayment {
        let c = state.context
        let at = "read marker \(i) (allocation \(m.allocationID), reader \(m.clientID))"
        guard m.blobberID == c.caller else { throw .refused(.notOwner, "\(at) is for blobber \(m.blobberID), not the caller") }
        do { try m.verify() } catch { throw .refused(.invalidMarker, "\(at): \(error)") }
        let alloc = try state.allocation(m.allocationID)
        guard m.ownerID == alloc.ownerID else { throw .refused(.invalidMarker, "\(at): owner_id \(m.ownerID) is not the allocation owner") }
        guard let bi = alloc.index(of: c.caller) else {
            throw .refused(.notOwner, "\(at): blobber \(c.caller) is not part of the allocation")
        }
        guard m.timestamp <= saturatingAdd(c.now, config.markerClockSkew) else {
            throw .refused(.invalidMarker, "\(at): timestamp \(m.timestamp) is more than \(config.markerClockSkew) s in the future")
        }
        let price = alloc.blobbers[bi].readPrice
        guard m.readPrice >= price else {
            throw .refused(
                .invalidMarker,
                "\(at): signed for read_price \(m.readPrice), below the \(price) per GiB the allocation agreed with this blobber")
        }
        let counterKey = StorageState.readCounterKey(alloc.id, c.caller, m.clientID)
        let last = try state.uint(counterKey)
        guard m.counter > last else { throw .refused(.invalidMarker, "\(at): counter \(m.counter) is not above the last redeemed \(last)") }
        guard let cost = StoragePricing.readCost(price: price, blocks: m.counter - last) else {
            throw .refused(.overflow, "\(at): cost overflows")
        }
        let pool = try state.uint(StorageState.readPoolKey(m.clientID))
        if pool >= cost {
            return ReadPayment(alloc: alloc, counterKey: counterKey, cost: cost, readPoolLeft: pool - cost)
        }
        if alloc.writePool >= cost, case .pays(let spent) = try ownerPays(state, m, alloc, cost: cost) {
            return ReadPayment(alloc: alloc, counterKey: counterKey, cost: cost, ticketSpent: spent)
        }
        throw .refused(
            .insufficientBalance,
            "\(at): the reader's read pool has \(tokens(pool)) but \(m.counter - last) blocks cost \(tokens(cost)), and the allocation's write pool does not pay for this reader (\(ownerPaysRule)); the reader must lock tokens with storage.lock_read_pool"
        )
    }

    /// Writes a judged payment: nothing here refuses a marker (an error fails the whole call).
    private func apply(_ state: StorageState, _ p: ReadPayment, _ m: ReadMarker) throws(ContractError) {
        let c = state.context
        var alloc = p.alloc
        if let left = p.readPoolLeft {
            try state.setUInt(StorageState.readPoolKey(m.clientID), left)
        } else {
            alloc.writePool = try checkedSub(alloc.writePool, p.cost, "write pool")
            if let spent = p.ticketSpent { try state.setUInt(spent.key, spent.total) }
        }
        try payBlobber(state, p.cost, to: c.caller)
        try state.setUInt(p.counterKey, m.counter)
        alloc.numReads = incremented(alloc.numReads)
        try state.save(alloc)
        try c.emit("read_marker", ["allocation": alloc.id, "blobber": c.caller, "reader": m.clientID, "counter": String(m.counter)])
    }

    var ownerPaysRule: String {
        "it pays for the owner's own reads, and for others' only under the auth ticket named in the signed marker, unexpired and unrevoked at the ledger's time, within the ticket's read_budget"
    }

    enum OwnerPays {
        case no
        /// Yes; with the ticket's new spent total when a ticket pays (nil for the owner's own reads).
        case pays((key: String, total: UInt64)?)
    }

    /// Whether the allocation's write pool pays `cost` for `m` (nothing is written here). Yes for
    /// the owner's own reads. Otherwise only when the reader signed the marker over a ticket id,
    /// the blobber attached that ticket, and the ticket is the allocation owner's, valid for this
    /// reader, unexpired at the ledger's time (`now`, never the marker's timestamp, which the
    /// reader chooses), not revoked, and `cost` fits in what is left of its owner-signed
    /// `read_budget`. The budget bounds what the owner can lose through a public ticket: whoever
    /// holds it (a blobber included) may sign markers as any fresh key.
    private func ownerPays(_ state: StorageState, _ m: ReadMarker, _ alloc: Allocation, cost: UInt64) throws(ContractError) -> OwnerPays {
        if m.clientID == alloc.ownerID { return .pays(nil) }
        guard !m.ticketID.isEmpty, let t = m.ticket, t.id == m.ticketID else { return .no }
        do { try t.verify(now: state.context.now, reader: m.clientID) } catch { return .no }
        guard t.allocationID == alloc.id, t.ownerID == alloc.ownerID, t.ownerPublicKey == alloc.ownerPublicKey else { return .no }
        guard try state.load(StorageState.revokedKey(owner: t.ownerID, ticket: t.id), as: Int64.self) == nil else { return .no }
        let spentKey = StorageState.ticketSpentKey(t.id)
        let (total, overflow) = try state.uint(spentKey).addingReportingOverflow(cost)
        guard !overflow, total <= t.readBudget else { return .no }
        return .pays((spentKey, total))
    }

    /// `revoke_ticket(ticket_id)`: the caller (a ticket's owner) ends an auth ticket; blobbers
    /// refuse revoked tickets (`Ledger.isTicketRevoked`).
    func revokeTicket(_ state: StorageState, _ a: ContractArgs) throws(ContractError) -> String {
        let c = state.context
        let id = try a.id("ticket_id")
        let key = StorageState.revokedKey(owner: c.caller, ticket: id)
        if try state.load(key, as: Int64.self) != nil { throw .refused(.alreadyExists, "ticket \(id) is already revoked") }
        try state.save(key, c.now)
        try c.emit("revoke_ticket", ["owner": c.caller, "ticket": id])
        return "ticket \(id) revoked"
    }

    /// The `markers` argument of a blobber's batch call: the caller must be a registered blobber,
    /// and a call carries 1 to `maxMarkersPerCall` markers.
    private func blobberMarkers<M: Decodable>(
        _ state: StorageState, _ a: ContractArgs, as type: M.Type,
        kind: String
    ) throws(ContractError) -> [M] {
        _ = try requireRegisteredBlobber(state)
        let markers = try a.decodeArray("markers", as: type)
        guard !markers.isEmpty, markers.count <= config.maxMarkersPerCall else {
            throw .invalidArguments("\"markers\" must hold 1 to \(config.maxMarkersPerCall) \(kind)")
        }
        return markers
    }
}
