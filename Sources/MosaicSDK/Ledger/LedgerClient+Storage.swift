import Foundation
import MosaicHTTP
import MosaicProtocol

/// Reads of the storage contract through the node (docs/NODE_API.md, storage routes): what a
/// blobber polls and what the CLI shows. Unknown ids answer nil rather than throwing.
extension LedgerClient {
    /// Every registered blobber with its terms, capacity and stake.
    /// - Returns: the blobbers, as the storage contract lists them.
    /// - Throws: `LedgerClientError` when the node cannot be read.
    public func storageBlobbers() async throws(LedgerClientError) -> [BlobberInfo] {
        try await call { http in try await http.get("/v1/storage/blobbers", as: BlobberList.self).blobbers }
    }

    /// One blobber's record.
    /// - Parameter id: the blobber's id (its client id).
    /// - Returns: the blobber, or nil when none has that id.
    /// - Throws: `LedgerClientError` when the node cannot be read.
    public func storageBlobber(_ id: String) async throws(LedgerClientError) -> BlobberInfo? {
        try await orNil { () async throws(LedgerClientError) in
            try await call { http in try await http.get("/v1/storage/blobbers/\(id)", as: BlobberInfo.self) }
        }
    }

    /// A blobber's open challenges, oldest first.
    /// - Parameter blobber: the blobber's id.
    /// - Returns: the challenges it still has to answer.
    /// - Throws: `LedgerClientError` when the node cannot be read.
    public func storageOpenChallenges(blobber: String) async throws(LedgerClientError) -> [Challenge] {
        try await call { http in try await http.get("/v1/storage/blobbers/\(blobber)/challenges", as: ChallengeList.self).challenges }
    }

    /// The allocations an account owns.
    /// - Parameter owner: the owner's client id.
    /// - Returns: its allocations.
    /// - Throws: `LedgerClientError` when the node cannot be read.
    public func storageAllocations(owner: String) async throws(LedgerClientError) -> [Allocation] {
        try await call { http in try await http.get("/v1/storage/allocations", query: ["owner": owner], as: AllocationList.self).allocations
        }
    }

    /// One allocation: its terms, blobbers, pools and committed roots.
    /// - Parameter id: the allocation id (the hash of the transaction that created it).
    /// - Returns: the allocation, or nil when there is none with that id.
    /// - Throws: `LedgerClientError` when the node cannot be read.
    public func storageAllocation(_ id: String) async throws(LedgerClientError) -> Allocation? {
        try await orNil { () async throws(LedgerClientError) in
            try await call { http in try await http.get("/v1/storage/allocations/\(id)", as: Allocation.self) }
        }
    }

    /// One challenge and how it closed, if it did.
    /// - Parameter id: the challenge id.
    /// - Returns: the challenge, or nil when there is none with that id.
    /// - Throws: `LedgerClientError` when the node cannot be read.
    public func storageChallenge(_ id: String) async throws(LedgerClientError) -> Challenge? {
        try await orNil { () async throws(LedgerClientError) in
            try await call { http in try await http.get("/v1/storage/challenges/\(id)", as: Challenge.self) }
        }
    }

    /// Whether the owner ended an auth ticket (`storage.revoke_ticket`); blobbers ask before serving it.
    /// - Parameters:
    ///   - ticketID: the ticket's id.
    ///   - owner: the client id of the owner who signed it.
    /// - Returns: true when it was revoked.
    /// - Throws: `LedgerClientError` when the node cannot be read.
    public func isTicketRevoked(_ ticketID: String, owner: String) async throws(LedgerClientError) -> Bool {
        try await call { http in
            try await http.get("/v1/storage/tickets/\(ticketID)/revoked", query: ["owner": owner], as: TicketRevocationView.self).revoked
        }
    }

    /// Tokens `clientID` locked to pay blobbers for the blocks it reads (`storage.lock_read_pool`).
    /// - Parameter clientID: the reader's client id.
    /// - Returns: its read pool balance in base units.
    /// - Throws: `LedgerClientError` when the node cannot be read.
    public func storageReadPool(_ clientID: String) async throws(LedgerClientError) -> UInt64 {
        try await call { http in try await http.get("/v1/storage/read-pools/\(clientID)", as: ReadPoolView.self).balance }
    }

    /// The last read-marker counter the ledger redeemed for a reader at one blobber: a download
    /// continues above it.
    /// - Parameters:
    ///   - allocation: the allocation id.
    ///   - blobber: the blobber's id.
    ///   - reader: the reader's client id.
    /// - Returns: the redeemed counter (0 when none was).
    /// - Throws: `LedgerClientError` when the node cannot be read.
    public func storageReadCounter(allocation: String, blobber: String, reader: String) async throws(LedgerClientError) -> UInt64 {
        try await call { http in
            try await http.get(
                "/v1/storage/read-counter", query: ["allocation": allocation, "blobber": blobber, "reader": reader],
                as: ReadCounterView.self
            ).counter
        }
    }

    /// Base units a `new_allocation` of these terms must lock; throws `.rejected(code:
    /// "not_enough_blobbers", …)` when fewer than d + p blobbers have room.
    /// - Parameters:
    ///   - size: bytes of the allocation.
    ///   - dataShards: d, the fragments a file is split into.
    ///   - parityShards: p, the extra fragments that let it survive p lost blobbers.
    ///   - seconds: how long it runs.
    /// - Returns: the base units to lock.
    /// - Throws: `LedgerClientError`, `.rejected` when the node refuses the terms.
    public func storageQuote(size: UInt64, dataShards: Int, parityShards: Int, seconds: UInt64) async throws(LedgerClientError) -> UInt64 {
        let q = ["size": String(size), "data": String(dataShards), "parity": String(parityShards), "expire": String(seconds)]
        return try await call { http in try await http.get("/v1/storage/quote", query: q, as: StorageQuoteView.self).lock }
    }

    /// The node's explorer page of an allocation.
    public func explorerURL(allocation id: String) -> URL { baseURL.appendingPathComponent("explorer/allocation/\(id)") }
    /// The node's explorer page of a blobber.
    public func explorerURL(blobber id: String) -> URL { baseURL.appendingPathComponent("explorer/blobber/\(id)") }

    private func orNil<T: Sendable>(_ body: () async throws(LedgerClientError) -> T) async throws(LedgerClientError) -> T? {
        do { return try await body() } catch {
            if case .notFound = error { return nil }
            throw error
        }
    }
}
