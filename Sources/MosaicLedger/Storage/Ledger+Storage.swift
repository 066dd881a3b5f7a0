import Foundation
import MosaicProtocol

/// Free reads of the storage contract's committed state, for the node's HTTP API and tests.
extension Ledger {
    /// Registered blobbers in registration order.
    public func storageBlobbers() throws(LedgerError) -> [BlobberInfo] {
        try storageRead { get throws(LedgerError) in
            var out: [BlobberInfo] = []
            for id in try get.all(prefix: StorageState.blobberOrderPrefix) {
                if let b: BlobberInfo = try get(StorageState.blobberKey(id)) { out.append(b) }
            }
            return out
        }
    }

    public func storageBlobber(_ id: String) throws(LedgerError) -> BlobberInfo? {
        try storageRead { get throws(LedgerError) in try get(StorageState.blobberKey(id)) }
    }

    public func storageAllocation(_ id: String) throws(LedgerError) -> Allocation? {
        try storageRead { get throws(LedgerError) in
            guard let a: Allocation = try get(StorageState.allocationKey(id)) else { return nil }
            return try Ledger.withCurrentURLs(a, get)
        }
    }

    /// The allocation with each blobber's URL as registered now: a blobber that moved (a devnet
    /// restarted on new ports, `storage.update_blobber url`) is found at its new address.
    private static func withCurrentURLs(_ a: Allocation, _ get: StorageGetter) throws(LedgerError) -> Allocation {
        var a = a
        for i in a.blobbers.indices {
            let b: BlobberInfo? = try get(StorageState.blobberKey(a.blobbers[i].blobberID))
            if let b { a.blobbers[i].url = b.url }
        }
        return a
    }

    /// Allocations created by `owner`, oldest first (every status).
    public func storageAllocations(owner: String) throws(LedgerError) -> [Allocation] {
        try storageRead { get throws(LedgerError) in
            var out: [Allocation] = []
            for id in try get.all(prefix: StorageState.ownerPrefix(owner)) { if let a: Allocation = try get(StorageState.allocationKey(id)) { out.append(try Ledger.withCurrentURLs(a, get)) } }
            return out
        }
    }

    public func storageChallenge(_ id: String) throws(LedgerError) -> Challenge? {
        try storageRead { get throws(LedgerError) in try get(StorageState.challengeKey(id)) }
    }

    /// Open challenges, oldest first; only `blobber`'s when given. A blobber polls this after
    /// every block and answers with `storage.respond_challenge` before each `deadline`.
    public func storageOpenChallenges(blobber: String? = nil) throws(LedgerError) -> [Challenge] {
        try storageRead { get throws(LedgerError) in
            var out: [Challenge] = []
            for id in try get.all(prefix: StorageState.openPrefix) {
                if let c: Challenge = try get(StorageState.challengeKey(id)), blobber == nil || c.blobberID == blobber { out.append(c) }
            }
            return out
        }
    }

    /// True when `owner` revoked auth ticket `ticketID` (blobbers check before serving a ticket).
    public func isTicketRevoked(_ ticketID: String, owner: String) throws(LedgerError) -> Bool {
        try storageRead { get throws(LedgerError) in
            let at: Int64? = try get(StorageState.revokedKey(owner: owner, ticket: ticketID))
            return at != nil
        }
    }

    /// Tokens in `clientID`'s read pool.
    public func storageReadPool(_ clientID: String) throws(LedgerError) -> UInt64 {
        try storageRead { get throws(LedgerError) in try get(StorageState.readPoolKey(clientID)) ?? 0 }
    }

    /// Last redeemed read-marker counter of `reader` at `blobber` for `allocation` (a reader's next
    /// marker must exceed it).
    public func storageReadCounter(allocation: String, blobber: String, reader: String) throws(LedgerError) -> UInt64 {
        try storageRead { get throws(LedgerError) in try get(StorageState.readCounterKey(allocation, blobber, reader)) ?? 0 }
    }

    /// Tokens a `new_allocation` must lock to be accepted whichever eligible blobbers it gets: the
    /// cost at the d + p highest write prices among blobbers with room (unspent tokens return to
    /// the owner at finalization). Nil when fewer than d + p blobbers have room.
    /// Nil too for shard counts the contract would refuse (data < 1, parity < 0, more than `max_shards` together).
    public func storageAllocationQuote(dataShards: Int, parityShards: Int, size: UInt64, seconds: UInt64) throws(LedgerError) -> UInt64? {
        let config = (contracts["storage"] as? StorageContract)?.config ?? StorageConfig()
        guard dataShards >= 1, parityShards >= 0, dataShards <= config.maxShards, parityShards <= config.maxShards - dataShards else { return nil }
        let per = StoragePricing.blobberSize(size: size, dataShards: dataShards)
        let need = dataShards + parityShards
        let prices = try storageBlobbers()
            .filter { $0.free >= per && !($0.failedChallenges >= config.maxFailedChallenges && $0.failedChallenges >= $0.successfulChallenges) }
            .map(\.writePrice).sorted(by: >)
        guard need > 0, prices.count >= need else { return nil }
        return StoragePricing.allocationCost(writePrices: Array(prices.prefix(need)), size: size, dataShards: dataShards, seconds: seconds)
    }

    /// Runs `body` under the lock with a decoder of the storage contract's committed values.
    private func storageRead<R>(_ body: (_ get: StorageGetter) throws(LedgerError) -> R) throws(LedgerError) -> R {
        try locked { store throws(LedgerError) in
            try body(StorageGetter(store: store))
        }
    }
}

/// Decodes one committed storage record; a corrupt record is a storage error.
struct StorageGetter {
    let store: LedgerStore

    func callAsFunction<T: Decodable>(_ key: String) throws(LedgerError) -> T? {
        let bytes: [UInt8]?
        do { bytes = try store.contractValue("storage", key) } catch { throw .storage("\(error)") }
        guard let bytes else { return nil }
        do { return try JSONDecoder().decode(T.self, from: Data(bytes)) } catch { throw .storage("storage record \(key) is unreadable: \(error)") }
    }

    /// The values (UTF-8 text: ids) of every key starting with `prefix`, in key order, read in pages.
    func all(prefix: String) throws(LedgerError) -> [String] {
        var out: [String] = []
        var after: String?
        while true {
            let rows: [ContractEntry]
            do { rows = try store.scan("storage", KeyRange(prefix: prefix, after: after, limit: 1000, reverse: false), limit: 1000) } catch {
                throw .storage("\(error)")
            }
            out += rows.map { String(decoding: $0.value, as: UTF8.self) }
            guard rows.count == 1000, let last = rows.last else { return out }
            after = last.key
        }
    }

    /// Whether any key starts with `prefix`.
    func any(prefix: String) throws(LedgerError) -> Bool {
        do { return try !store.scan("storage", KeyRange(prefix: prefix, after: nil, limit: 1, reverse: false), limit: 1).isEmpty } catch {
            throw .storage("\(error)")
        }
    }
}
