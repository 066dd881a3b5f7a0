import MosaicProtocol

extension StorageContract {
    /// `register_blobber(url, capacity, write_price, read_price)`; the tx value is the stake.
    func registerBlobber(_ state: StorageState, _ a: ContractArgs) throws(ContractError) -> String {
        let c = state.context
        if try state.blobber(c.caller) != nil {
            throw .refused(.alreadyExists, "blobber \(c.caller) is already registered; use storage.update_blobber")
        }
        let url = try validURL(try a.string("url"))
        let capacity = try a.uint64("capacity")
        guard capacity > 0 else { throw .invalidArguments("\"capacity\" must be above 0 bytes") }
        let writePrice = try a.uint64("write_price")
        let readPrice = try a.uint64("read_price")
        guard c.value >= config.minBlobberStake else {
            throw .refused(
                .insufficientValue,
                "stake at least \(tokens(config.minBlobberStake)) (the call's value) to register a blobber; sent \(tokens(c.value))")
        }
        let b = BlobberInfo(
            id: c.caller, url: url, capacity: capacity, writePrice: writePrice, readPrice: readPrice,
            stake: c.value, registeredAt: c.now, updatedAt: c.now)
        try state.save(b)
        try state.addBlobberToOrder(c.caller)
        try c.emit("register_blobber", ["blobber": c.caller, "url": url, "capacity": String(capacity), "stake": String(c.value)])
        return "registered blobber \(c.caller) at \(url) with \(StorageContract.bytes(capacity)), stake \(tokens(c.value))"
    }

    /// `update_blobber(url?, capacity?, write_price?, read_price?)`; the tx value adds to the stake.
    /// New prices apply to new allocations only.
    func updateBlobber(_ state: StorageState, _ a: ContractArgs) throws(ContractError) -> String {
        let c = state.context
        var b = try requireRegisteredBlobber(state)
        if let url = try a.optionalString("url") { b.url = try validURL(url) }
        if let capacity = try a.optionalUInt64("capacity") {
            guard capacity >= b.allocated else {
                throw .refused(.invalidArgument, "capacity \(capacity) is below the \(b.allocated) bytes already allocated")
            }
            b.capacity = capacity
        }
        if let p = try a.optionalUInt64("write_price") { b.writePrice = p }
        if let p = try a.optionalUInt64("read_price") { b.readPrice = p }
        b.stake = try checkedAdd(b.stake, c.value, "stake")
        b.updatedAt = c.now
        try state.save(b)
        try c.emit("update_blobber", ["blobber": b.id])
        return "updated blobber \(b.id)"
    }

    /// `unregister_blobber()`: a blobber with nothing allocated leaves and gets its stake back.
    func unregisterBlobber(_ state: StorageState, _ a: ContractArgs) throws(ContractError) -> String {
        let c = state.context
        let b = try requireRegisteredBlobber(state)
        guard b.allocated == 0 else {
            throw .refused(
                .invalidState,
                "blobber \(b.id) still holds \(StorageContract.bytes(b.allocated)) for allocations; wait until they are canceled or finalized"
            )
        }
        try state.save(StorageState.blobberKey(b.id), nil as BlobberInfo?)
        try state.removeBlobberFromOrder(b.id)
        try c.pay(b.stake, to: b.id)
        try c.emit("unregister_blobber", ["blobber": b.id, "stake": String(b.stake)])
        return "blobber \(b.id) unregistered; stake \(tokens(b.stake)) returned"
    }

    /// `lock_read_pool()`: the tx value goes to the caller's read pool, which pays for its reads.
    func lockReadPool(_ state: StorageState, _ a: ContractArgs) throws(ContractError) -> String {
        let c = state.context
        guard c.value > 0 else { throw .invalidArguments("send the tokens to lock as the call's value") }
        let key = StorageState.readPoolKey(c.caller)
        let total = try checkedAdd(try state.uint(key), c.value, "read pool")
        try state.setUInt(key, total)
        try c.emit("lock_read_pool", ["client": c.caller, "amount": String(c.value)])
        return "read pool now \(tokens(total))"
    }

    /// `unlock_read_pool(amount?)`: returns `amount` (default all) of the caller's read pool.
    func unlockReadPool(_ state: StorageState, _ a: ContractArgs) throws(ContractError) -> String {
        let c = state.context
        let key = StorageState.readPoolKey(c.caller)
        let have = try state.uint(key)
        let amount = try a.optionalUInt64("amount") ?? have
        guard amount <= have else {
            throw .refused(.insufficientBalance, "read pool holds \(tokens(have)); cannot unlock \(tokens(amount))")
        }
        try state.setUInt(key, have - amount)
        try c.pay(amount, to: c.caller)
        try c.emit("unlock_read_pool", ["client": c.caller, "amount": String(amount)])
        return "unlocked \(tokens(amount)); read pool now \(tokens(have - amount))"
    }

    private func validURL(_ url: String) throws(ContractError) -> String {
        guard url.hasPrefix("http://") || url.hasPrefix("https://"), url.utf8.count <= 256 else {
            throw .invalidArguments("\"url\" must start with http:// or https:// (at most 256 characters)")
        }
        return url
    }
}
