import Foundation
import MosaicProtocol
import MosaicSDK
import MosaicStorageCore

/// A blobber's seam to the ledger over a node's HTTP API: reads through `LedgerClient`, marker
/// commits and redemptions signed by the blobber's own `Wallet` (so they share its nonces with
/// challenge answers). Used by `mosaic blobber` and the devnet's blobbers.
package struct NodeBlobberLedger: BlobberLedger {
    package let client: LedgerClient
    package let wallet: Wallet
    /// How far marker transactions are waited for; `.finalized` is enough for the blobber to
    /// drop them (it re-checks the committed root before every retry).
    package let until: TransactionStatus
    /// Told the markers about to be committed (before they are sent), e.g. so a
    /// `ChallengeProver` remembers the file set behind the root the ledger will hold.
    package let beforeCommit: MarkerCommitHook

    package init(wallet: Wallet, until: TransactionStatus = .finalized, beforeCommit: MarkerCommitHook = MarkerCommitHook()) {
        self.client = wallet.client
        self.wallet = wallet
        self.until = until
        self.beforeCommit = beforeCommit
    }

    package func allocation(_ id: String) async throws -> Allocation? { try await client.storageAllocation(id) }

    package func commitWriteMarkers(_ markers: [WriteMarker]) async throws {
        guard !markers.isEmpty else { return }
        beforeCommit.call(markers)
        try await wallet.commitWriteMarkers(markers, until: until)
    }

    package func redeemReadMarkers(_ markers: [ReadMarker]) async throws {
        guard !markers.isEmpty else { return }
        try await wallet.redeemReadMarkers(markers, until: until)
    }

    package func readCounter(allocation: String, blobber: String, reader: String) async throws -> UInt64 {
        try await client.storageReadCounter(allocation: allocation, blobber: blobber, reader: reader)
    }

    package func isTicketRevoked(_ id: String, owner: String) async throws -> Bool {
        try await client.isTicketRevoked(id, owner: owner)
    }
}
