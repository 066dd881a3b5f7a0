import Foundation
import MosaicHTTP
import MosaicProtocol

/// Reads of the storage contract through the node (docs/NODE_API.md, storage routes): what a
/// blobber polls and what the CLI shows. Unknown ids answer nil rather than throwing.
extension LedgerClient {
    public func storageBlobbers() async throws(LedgerClientError) -> [BlobberInfo] {
        try await call { try await http.get("/v1/storage/blobbers", as: BlobberList.self).blobbers }
    }

    public func storageBlobber(_ id: String) async throws(LedgerClientError) -> BlobberInfo? {
        try await orNil { () async throws(LedgerClientError) in
            try await call { try await http.get("/v1/storage/blobbers/\(id)", as: BlobberInfo.self) }
        }
    }

    /// A blobber's open challenges, oldest first.
    public func storageOpenChallenges(blobber: String) async throws(LedgerClientError) -> [Challenge] {
        try await call { try await http.get("/v1/storage/blobbers/\(blobber)/challenges", as: ChallengeList.self).challenges }
    }

    public func storageAllocations(owner: String) async throws(LedgerClientError) -> [Allocation] {
        try await call { try await http.get("/v1/storage/allocations", query: ["owner": owner], as: AllocationList.self).allocations }
    }

    public func storageAllocation(_ id: String) async throws(LedgerClientError) -> Allocation? {
        try await orNil { () async throws(LedgerClientError) in
            try await call { try await http.get("/v1/storage/allocations/\(id)", as: Allocation.self) }
        }
    }

    public func storageChallenge(_ id: String) async throws(LedgerClientError) -> Challenge? {
        try await orNil { () async throws(LedgerClientError) in
            try await call { try await http.get("/v1/storage/challenges/\(id)", as: Challenge.self) }
        }
    }

    public func isTicketRevoked(_ ticketID: String, owner: String) async throws(LedgerClientError) -> Bool {
        try await call {
            try await http.get("/v1/storage/tickets/\(ticketID)/revoked", query: ["owner": owner], as: TicketRevocationView.self).revoked
        }
    }

    /// Tokens `clientID` locked to pay blobbers for the blocks it reads (`storage.lock_read_pool`).
    public func storageReadPool(_ clientID: String) async throws(LedgerClientError) -> UInt64 {
        try await call { try await http.get("/v1/storage/read-pools/\(clientID)", as: ReadPoolView.self).balance }
    }

    public func storageReadCounter(allocation: String, blobber: String, reader: String) async throws(LedgerClientError) -> UInt64 {
        try await call {
            try await http.get(
                "/v1/storage/read-counter", query: ["allocation": allocation, "blobber": blobber, "reader": reader],
                as: ReadCounterView.self
            ).counter
        }
    }

    /// Base units a `new_allocation` of these terms must lock; throws `.rejected(code:
    /// "not_enough_blobbers", …)` when fewer than d + p blobbers have room.
    public func storageQuote(size: UInt64, dataShards: Int, parityShards: Int, seconds: UInt64) async throws(LedgerClientError) -> UInt64 {
        let q = ["size": String(size), "data": String(dataShards), "parity": String(parityShards), "expire": String(seconds)]
        return try await call { try await http.get("/v1/storage/quote", query: q, as: StorageQuoteView.self).lock }
    }

    public func explorerURL(allocation id: String) -> URL { baseURL.appendingPathComponent("explorer/allocation/\(id)") }
    public func explorerURL(blobber id: String) -> URL { baseURL.appendingPathComponent("explorer/blobber/\(id)") }

    private func orNil<T: Sendable>(_ body: () async throws(LedgerClientError) -> T) async throws(LedgerClientError) -> T? {
        do { return try await body() } catch {
            if case .notFound = error { return nil }
            throw error
        }
    }
}
