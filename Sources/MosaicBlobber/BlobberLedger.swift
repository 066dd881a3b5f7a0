import MosaicProtocol
import MosaicStorageCore

/// How a blobber reaches the ledger: it reads allocations (owner key, shards, its own index, size,
/// expiry) instead of trusting a signed assignment, and commits the owners' write markers
/// (`storage.commit_write_markers`, signed with the blobber's key). `mosaic devnet` can implement it
/// over the in-process ledger; a standalone blobber over the node's HTTP API.
package protocol BlobberLedger: Sendable {
    /// The allocation as of the latest sealed state; nil when the ledger has no such allocation.
    func allocation(_ id: String) async throws -> Allocation?
    /// Submits one `storage.commit_write_markers` call with `markers` (in order), signed by the
    /// blobber, and returns when it is final; throws with the ledger's reason when refused.
    func commitWriteMarkers(_ markers: [WriteMarker]) async throws
    /// Submits one `storage.redeem_read_markers` call (the latest marker per reader), signed by the blobber.
    func redeemReadMarkers(_ markers: [ReadMarker]) async throws
    /// The highest read-marker counter the ledger has redeemed for (allocation, this blobber, reader).
    func readCounter(allocation: String, blobber: String, reader: String) async throws -> UInt64
    /// True when the owner revoked the auth ticket `id` (`storage.revoke_ticket`).
    func isTicketRevoked(_ id: String, owner: String) async throws -> Bool
}
