import Foundation
import MosaicProtocol

/// Signed calls of the storage contract (docs/STORAGE.md §8). Each one goes through the wallet's
/// nonce allocator, waits until `until` (sealed by default) and turns an execution the chain
/// refused into `WalletError.failed` carrying the chain's own message ("not enough blobbers: …",
/// "lock at least …"), so callers can show it as is.
extension Wallet {
    /// Registers this wallet as a blobber; `stake` (≥ 1 token) is locked as the transaction value.
    /// - Parameters:
    ///   - url: the blobber's public base URL.
    ///   - capacity: bytes it offers.
    ///   - writePrice: base units per GiB per 30 days stored.
    ///   - readPrice: base units per GiB read.
    ///   - stake: base units locked as its stake.
    ///   - until: the status to wait for.
    /// - Returns: the sealed (or `until`) transaction.
    /// - Throws: `WalletError.failed` with the contract's reason, or as `Wallet.call`.
    @discardableResult
    public func registerBlobber(
        url: String, capacity: UInt64, writePrice: UInt64, readPrice: UInt64, stake: UInt64,
        until: TransactionStatus = .sealed
    ) async throws(WalletError) -> TransactionView {
        try await storageCall(
            "register_blobber",
            [
                "url": .string(url), "capacity": .uint(capacity), "write_price": .uint(writePrice),
                "read_price": .uint(readPrice),
            ], value: stake, until: until)
    }

    /// Changes a blobber's terms; `stake` adds to its stake.
    /// Nil keeps a term as it is.
    /// - Returns: the transaction once it is `until`.
    /// - Throws: `WalletError.failed` with the contract's reason, or as `Wallet.call`.
    /// - Parameters:
    ///   - url: the new public base URL.
    ///   - capacity: the new capacity in bytes (not below what is allocated).
    ///   - writePrice: the new write price, for new allocations.
    ///   - readPrice: the new read price, for new allocations.
    ///   - stake: base units added to the stake.
    ///   - until: the status to wait for.
    @discardableResult
    public func updateBlobber(
        url: String? = nil, capacity: UInt64? = nil, writePrice: UInt64? = nil, readPrice: UInt64? = nil,
        stake: UInt64 = 0, until: TransactionStatus = .sealed
    ) async throws(WalletError) -> TransactionView {
        var args: [String: JSONValue] = [:]
        if let url { args["url"] = .string(url) }
        if let capacity { args["capacity"] = .uint(capacity) }
        if let writePrice { args["write_price"] = .uint(writePrice) }
        if let readPrice { args["read_price"] = .uint(readPrice) }
        return try await storageCall("update_blobber", args, value: stake, until: until)
    }

    /// Creates an allocation of `size` bytes on `data + parity` blobbers until `expiration` (unix
    /// seconds), locking `lock` base units in its write pool; returns the allocation id (the
    /// transaction hash) once the call is `until`.
    /// - Parameters:
    ///   - name: a label shown in lists; may be empty.
    ///   - data: d, the fragments a file is split into.
    ///   - parity: p, the extra fragments (the allocation survives p lost blobbers).
    ///   - size: bytes it holds.
    ///   - expiration: unix seconds (ledger time) when it ends.
    ///   - lock: base units for its write pool (see `LedgerClient.storageQuote`).
    ///   - blobbers: blobber ids to use; empty lets the contract pick.
    ///   - until: the status to wait for.
    /// - Returns: the allocation id.
    /// - Throws: `WalletError.failed` with the contract's reason (not enough blobbers, lock too
    ///   small), or as `Wallet.call`.
    public func newAllocation(
        name: String = "", data: Int, parity: Int, size: UInt64, expiration: Int64, lock: UInt64,
        blobbers: [String] = [], until: TransactionStatus = .sealed
    ) async throws(WalletError) -> String {
        var args: [String: JSONValue] = [
            "data_shards": .integer(Int64(data)), "parity_shards": .integer(Int64(parity)),
            "size": .uint(size), "expiration": .integer(expiration),
        ]
        if !name.isEmpty { args["name"] = .string(name) }
        if !blobbers.isEmpty { args["blobbers"] = .array(blobbers.map(JSONValue.string)) }
        return try await storageCall("new_allocation", args, value: lock, until: until).hash
    }

    /// Extends, grows or adds a blobber to an allocation; `lock` pays the extra cost.
    /// - Parameters:
    ///   - id: the allocation id.
    ///   - extendSeconds: seconds added to its expiration.
    ///   - growBytes: bytes added to its size.
    ///   - addBlobber: a blobber id to add.
    ///   - lock: base units added to its write pool.
    ///   - until: the status to wait for.
    /// - Returns: the transaction once it is `until`.
    /// - Throws: `WalletError.failed` with the contract's reason, or as `Wallet.call`.
    @discardableResult
    public func updateAllocation(
        _ id: String, extendSeconds: UInt64? = nil, growBytes: UInt64? = nil, addBlobber: String? = nil,
        lock: UInt64 = 0, until: TransactionStatus = .sealed
    ) async throws(WalletError) -> TransactionView {
        var args: [String: JSONValue] = ["allocation_id": .string(id)]
        if let extendSeconds { args["extend_seconds"] = .uint(extendSeconds) }
        if let growBytes { args["grow_bytes"] = .uint(growBytes) }
        if let addBlobber { args["add_blobber"] = .string(addBlobber) }
        return try await storageCall("update_allocation", args, value: lock, until: until)
    }

    /// Cancels before expiry: refunds the write pool minus the cancellation penalty.
    /// - Parameters:
    ///   - id: the allocation id.
    ///   - until: the status to wait for.
    /// - Returns: the transaction once it is `until`.
    /// - Throws: `WalletError.failed` with the contract's reason, or as `Wallet.call`.
    @discardableResult
    public func cancelAllocation(_ id: String, until: TransactionStatus = .sealed) async throws(WalletError) -> TransactionView {
        try await storageCall("cancel_allocation", ["allocation_id": .string(id)], until: until)
    }

    /// After expiry: pays the blobbers and returns the rest of the write pool to the owner.
    /// - Parameters:
    ///   - id: the allocation id.
    ///   - until: the status to wait for.
    /// - Returns: the transaction once it is `until`.
    /// - Throws: `WalletError.failed` with the contract's reason (e.g. not expired yet), or as `Wallet.call`.
    @discardableResult
    public func finalizeAllocation(_ id: String, until: TransactionStatus = .sealed) async throws(WalletError) -> TransactionView {
        try await storageCall("finalize_allocation", ["allocation_id": .string(id)], until: until)
    }

    /// Locks `amount` in this wallet's read pool, from which blobbers are paid for what it reads
    /// of other owners' files (shared with it).
    /// - Parameters:
    ///   - amount: base units to lock.
    ///   - until: the status to wait for.
    /// - Returns: the transaction once it is `until`.
    /// - Throws: `WalletError.failed` with the contract's reason, or as `Wallet.call`.
    @discardableResult
    public func lockReadPool(_ amount: UInt64, until: TransactionStatus = .sealed) async throws(WalletError) -> TransactionView {
        try await storageCall("lock_read_pool", [:], value: amount, until: until)
    }

    /// Takes `amount` (default everything) back from the read pool.
    /// - Parameters:
    ///   - amount: base units to take back; nil takes all.
    ///   - until: the status to wait for.
    /// - Returns: the transaction once it is `until`.
    /// - Throws: `WalletError.failed` with the contract's reason, or as `Wallet.call`.
    @discardableResult
    public func unlockReadPool(_ amount: UInt64? = nil, until: TransactionStatus = .sealed) async throws(WalletError) -> TransactionView {
        try await storageCall("unlock_read_pool", amount.map { ["amount": .uint($0)] } ?? [:], until: until)
    }

    /// Ends an auth ticket this wallet signed; blobbers refuse it from then on.
    /// - Parameters:
    ///   - ticketID: the ticket's id.
    ///   - until: the status to wait for.
    /// - Returns: the transaction once it is `until`.
    /// - Throws: `WalletError.failed` with the contract's reason, or as `Wallet.call`.
    @discardableResult
    public func revokeTicket(_ ticketID: String, until: TransactionStatus = .sealed) async throws(WalletError) -> TransactionView {
        try await storageCall("revoke_ticket", ["ticket_id": .string(ticketID)], until: until)
    }

    /// Blobber: commits owners' write markers (all or nothing).
    /// - Parameters:
    ///   - markers: owner-signed write markers this blobber holds.
    ///   - until: the status to wait for.
    /// - Returns: the transaction once it is `until`.
    /// - Throws: `WalletError.failed` when the contract refuses one marker (none is committed), or
    ///   as `Wallet.call`.
    @discardableResult
    public func commitWriteMarkers(_ markers: [WriteMarker], until: TransactionStatus = .sealed) async throws(WalletError)
        -> TransactionView
    {
        try await storageCall("commit_write_markers", ["markers": try Wallet.jsonValue(markers)], until: until)
    }

    /// Blobber: redeems readers' latest read markers.
    /// - Parameters:
    ///   - markers: reader-signed read markers, the latest per reader.
    ///   - until: the status to wait for.
    /// - Returns: the transaction once it is `until`.
    /// - Throws: `WalletError.failed` with the contract's reason, or as `Wallet.call`.
    @discardableResult
    public func redeemReadMarkers(_ markers: [ReadMarker], until: TransactionStatus = .sealed) async throws(WalletError) -> TransactionView
    {
        try await storageCall("redeem_read_markers", ["markers": try Wallet.jsonValue(markers)], until: until)
    }

    /// Blobber: answers a challenge. A wrong proof still succeeds as a transaction (the
    /// challenge is recorded as failed); read the challenge to see how it closed.
    /// - Parameters:
    ///   - challengeID: the challenge's id.
    ///   - proof: the Merkle proof of the challenged block.
    ///   - until: the status to wait for (finalized by default, to answer before the deadline).
    /// - Returns: the transaction once it is `until`.
    /// - Throws: as `Wallet.call`.
    @discardableResult
    public func respondChallenge(_ challengeID: String, proof: ChallengeProof, until: TransactionStatus = .finalized)
        async throws(WalletError) -> TransactionView
    {
        try await storageCall(
            "respond_challenge", ["challenge_id": .string(challengeID), "proof": try Wallet.jsonValue(proof)], until: until)
    }

    /// One signed `storage.<method>` call, waited for.
    /// - Parameters:
    ///   - method: the storage method.
    ///   - args: its arguments.
    ///   - value: base units sent with it.
    ///   - until: the status to wait for.
    ///   - timeout: the longest wait.
    /// - Returns: the transaction once it is `until`.
    /// - Throws: `WalletError.failed` with the contract's reason, `.expired`, `.timedOut`, `.node`.
    public func storageCall(
        _ method: String, _ args: [String: JSONValue], value: UInt64 = 0,
        until: TransactionStatus = .sealed, timeout: Duration = .seconds(120)
    ) async throws(WalletError) -> TransactionView {
        let fee = try await networkInfo().minimumFee
        let data = ContractCall(contract: "storage", method: method, args: args).json
        let tx = try await submit(to: ContractCall.address(of: "storage"), value: value, fee: fee, type: .contractCall, data: data)
        return try await wait(for: tx.hash, until: until, timeout: timeout)
    }

    static func jsonValue<T: Encodable>(_ value: T) throws(WalletError) -> JSONValue {
        do { return try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value)) } catch {
            throw .node(.invalidResponse("cannot encode \(T.self): \(error)"))
        }
    }
}

extension JSONValue {
    /// A base-unit amount: a JSON integer when it fits, else a decimal string (the contract takes both).
    static func uint(_ v: UInt64) -> JSONValue { v <= UInt64(Int64.max) ? .integer(Int64(v)) : .string(String(v)) }
}
