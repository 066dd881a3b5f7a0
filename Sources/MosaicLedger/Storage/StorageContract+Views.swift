import Foundation
import MosaicProtocol

/// Typed views of the storage contract's state: what blobbers poll (open challenges, revoked
/// tickets, redeemed read counters) and what clients show (blobbers, allocations, quotes). The
/// node's `/v1/storage` routes run them through `Ledger.read` at the latest committed round.
extension StorageContract {
    /// Registered blobbers in registration order.
    public func blobbers(_ state: ContractView) throws(ContractError) -> [BlobberInfo] {
        var out: [BlobberInfo] = []
        for id in try StorageContract.ids(state, prefix: StorageState.blobberOrderPrefix) {
            if let b: BlobberInfo = try StorageContract.record(state, StorageState.blobberKey(id)) { out.append(b) }
        }
        return out
    }

    public func blobber(_ state: ContractView, id: String) throws(ContractError) -> BlobberInfo? {
        try StorageContract.record(state, StorageState.blobberKey(id))
    }

    /// One allocation, with each blobber's URL as registered now (see `withCurrentURLs`).
    public func allocation(_ state: ContractView, id: String) throws(ContractError) -> Allocation? {
        guard let a: Allocation = try StorageContract.record(state, StorageState.allocationKey(id)) else { return nil }
        return try StorageContract.withCurrentURLs(a, state)
    }

    /// Allocations created by `owner`, oldest first (every status).
    public func allocations(_ state: ContractView, owner: String) throws(ContractError) -> [Allocation] {
        var out: [Allocation] = []
        for id in try StorageContract.ids(state, prefix: StorageState.ownerPrefix(owner)) {
            if let a: Allocation = try StorageContract.record(state, StorageState.allocationKey(id)) {
                out.append(try StorageContract.withCurrentURLs(a, state))
            }
        }
        return out
    }

    public func challenge(_ state: ContractView, id: String) throws(ContractError) -> Challenge? {
        try StorageContract.record(state, StorageState.challengeKey(id))
    }

    /// Open challenges, oldest first; only `blobber`'s when given. A blobber polls this after
    /// every block and answers with `storage.respond_challenge` before each `deadline`.
    public func openChallenges(_ state: ContractView, blobber: String? = nil) throws(ContractError) -> [Challenge] {
        var out: [Challenge] = []
        for id in try StorageContract.ids(state, prefix: StorageState.openPrefix) {
            if let c: Challenge = try StorageContract.record(state, StorageState.challengeKey(id)), blobber == nil || c.blobberID == blobber
            {
                out.append(c)
            }
        }
        return out
    }

    /// True when `owner` revoked auth ticket `ticketID` (blobbers check before serving a ticket).
    public func isTicketRevoked(_ state: ContractView, ticketID: String, owner: String) throws(ContractError) -> Bool {
        let at: Int64? = try StorageContract.record(state, StorageState.revokedKey(owner: owner, ticket: ticketID))
        return at != nil
    }

    /// Tokens in `clientID`'s read pool.
    public func readPool(_ state: ContractView, clientID: String) throws(ContractError) -> UInt64 {
        try StorageContract.record(state, StorageState.readPoolKey(clientID)) ?? 0
    }

    /// Last redeemed read-marker counter of `reader` at `blobber` for `allocation` (a reader's next
    /// marker must exceed it).
    public func readCounter(_ state: ContractView, allocation: String, blobber: String, reader: String) throws(ContractError) -> UInt64 {
        try StorageContract.record(state, StorageState.readCounterKey(allocation, blobber, reader)) ?? 0
    }

    /// Tokens a `new_allocation` must lock to be accepted whichever eligible blobbers it gets: the
    /// cost at the d + p highest write prices among blobbers with room (unspent tokens return to
    /// the owner at finalization). Nil when fewer than d + p blobbers have room.
    /// Nil too for shard counts the contract would refuse (data < 1, parity < 0, more than `max_shards` together).
    public func allocationQuote(_ state: ContractView, dataShards: Int, parityShards: Int, size: UInt64, seconds: UInt64)
        throws(ContractError) -> UInt64?
    {
        guard dataShards >= 1, parityShards >= 0, dataShards <= config.maxShards, parityShards <= config.maxShards - dataShards else {
            return nil
        }
        let per = StoragePricing.blobberSize(size: size, dataShards: dataShards)
        let need = dataShards + parityShards
        let prices = try blobbers(state).filter { $0.free >= per && !isExcluded($0) }.map(\.writePrice).sorted(by: >)
        guard need > 0, prices.count >= need else { return nil }
        return StoragePricing.allocationCost(writePrices: Array(prices.prefix(need)), size: size, dataShards: dataShards, seconds: seconds)
    }

    /// Blocks are needed while a (allocation, blobber) pair can be challenged or a challenge is
    /// open: challenges are issued and expire at block ends, so without them stored data would
    /// never be checked on a quiet network and a missed deadline would never close. One key read
    /// per set, whatever their size.
    public func wantsBlocks(_ state: ContractView) throws(ContractError) -> Bool {
        for prefix in [StorageState.challengeablePrefix, StorageState.openPrefix] where try !state.scan(prefix: prefix, limit: 1).isEmpty {
            return true
        }
        return false
    }

    // MARK: Reading records

    /// The allocation with each blobber's URL as registered now: a blobber that moved (a devnet
    /// restarted on new ports, `storage.update_blobber url`) is found at its new address.
    private static func withCurrentURLs(_ a: Allocation, _ state: ContractView) throws(ContractError) -> Allocation {
        var a = a
        for i in a.blobbers.indices {
            let b: BlobberInfo? = try record(state, StorageState.blobberKey(a.blobbers[i].blobberID))
            if let b { a.blobbers[i].url = b.url }
        }
        return a
    }

    /// One JSON record; nil when absent.
    private static func record<T: Decodable>(_ state: ContractView, _ key: String) throws(ContractError) -> T? {
        guard let bytes = try state.get(key) else { return nil }
        return try StorageState.decode(bytes, key: key, as: T.self)
    }

    /// The values (UTF-8 text: ids) of every key starting with `prefix`, in key order, read in pages.
    private static func ids(_ state: ContractView, prefix: String) throws(ContractError) -> [String] {
        var out: [String] = []
        var after: String?
        while true {
            let rows = try state.scan(prefix: prefix, after: after, limit: 1000)
            out += rows.map { String(decoding: $0.value, as: UTF8.self) }
            guard rows.count == 1000, let last = rows.last else { return out }
            after = last.key
        }
    }
}
