import Foundation
import MosaicCrypto
import MosaicHTTP
import MosaicHTTPServer
import MosaicProtocol
import MosaicStorageCore
import Synchronization

/// Who may read, and what reading costs: the owner, or a client holding an owner-signed
/// `AuthTicket` (header `X-Auth-Ticket`, base64 of its JSON) for the path, not expired, not revoked
/// on the ledger, and addressed to the signer (or to anyone). Block downloads carry the reader's
/// `ReadMarker` (header `X-Read-Marker`, base64 JSON) whose counter must grow by at least the
/// blocks served; required when the blobber is paid through a ledger, optional otherwise.
/// The latest marker per reader is journaled to disk before the blocks are served and redeemed by
/// `commitPendingMarkers()`.
extension BlobberServer {
    struct ReadState {
        /// Latest accepted marker per "allocation|reader".
        var latest: [String: ReadMarker] = [:]
        /// Highest counter sent to the ledger per "allocation|reader".
        var redeemed: [String: UInt64] = [:]
        var journal: ReadMarkerJournal?
    }

    /// A read `authorizeRead` allowed: the allocation, the verified signer, and the ticket that let
    /// a non-owner in (kept on the read marker so the owner's write pool pays).
    struct ReadGrant {
        var record: AllocationRecord
        var reader: Ed25519.PublicKey
        var ticket: AuthTicket?
    }

    /// The verified reader of a request for `path` (nil: allocation-wide reads, owner only).
    func authorizeRead(_ req: HTTPRequest, allocation: String, path: String?) async throws -> ReadGrant {
        let r = try record(allocation)
        let signer = try verifySignature(req, allocation: allocation).key
        let owner = r.assignment.ownerPublicKey
        if signer == owner { return ReadGrant(record: r, reader: signer) }
        guard let path, let text = req.headers["X-Auth-Ticket"] else {
            throw StorageRequestError.forbidden("only the allocation owner, or a client with an auth ticket (X-Auth-Ticket), may read")
        }
        guard let data = Data(base64Encoded: text), let ticket = try? JSONDecoder().decode(AuthTicket.self, from: data) else {
            throw StorageRequestError.invalid("X-Auth-Ticket must be base64 of the ticket's JSON")
        }
        do { try ticket.verify(now: Int64(Date().timeIntervalSince1970), reader: signer.clientID) } catch {
            throw StorageRequestError.forbidden("auth ticket refused: \(error)")
        }
        guard ticket.allocationID == allocation, ticket.ownerPublicKey == owner.hex else {
            throw StorageRequestError.forbidden("the auth ticket is not from this allocation's owner")
        }
        let allowed = ticket.kind == .file ? path == ticket.path : RemotePath.isWithin(path, folder: ticket.path)
        guard allowed else { throw StorageRequestError.forbidden("the auth ticket covers \(ticket.path), not \(path)") }
        if let ledger = configuration.ledger, try await ledger.isTicketRevoked(ticket.id, owner: ticket.ownerID) {
            throw StorageRequestError.ticketRevoked("the owner revoked this auth ticket")
        }
        return ReadGrant(record: r, reader: signer, ticket: ticket)
    }

    /// Checks and records the read marker for `blocks` blocks served under `grant`.
    func acceptReadMarker(_ req: HTTPRequest, grant: ReadGrant, blocks: Int) async throws {
        let r = grant.record
        let reader = grant.reader
        let id = r.assignment.allocationID
        guard let text = req.headers["X-Read-Marker"] else {
            if configuration.ledger != nil {
                throw StorageRequestError.unauthorized("block downloads need a signed read marker (X-Read-Marker)")
            }
            return
        }
        guard let data = Data(base64Encoded: text), var m = try? JSONDecoder().decode(ReadMarker.self, from: data) else {
            throw StorageRequestError.invalid("X-Read-Marker must be base64 of the marker's JSON")
        }
        do { try m.verify() } catch { throw StorageRequestError.forbidden("read marker refused: \(error)") }
        guard m.allocationID == id, m.blobberID == blobberID, m.ownerID == r.assignment.ownerID, m.clientID == reader.clientID else {
            throw StorageRequestError.forbidden("the read marker must name this allocation, this blobber, its owner and the signing reader")
        }
        guard m.ticketID == (grant.ticket?.id ?? "") else {
            throw StorageRequestError.forbidden(
                "the read marker's ticket_id must be the id of the auth ticket sent with the request (\"\" without one)")
        }
        m.ticket = grant.ticket
        let last = try await readCounter(allocation: id, reader: reader.clientID)
        let key = id + "|" + reader.clientID
        let ok = try readState.withLock { s throws -> Bool in
            let current = max(last, s.latest[key]?.counter ?? 0)
            // A counter near 2^64 (signed by the reader) must not overflow the sum.
            let (needed, overflow) = current.addingReportingOverflow(UInt64(max(0, blocks)))
            guard !overflow, m.counter >= needed else { return false }
            try s.journal?.record(key, m)
            s.latest[key] = m
            return true
        }
        guard ok else {
            throw StorageRequestError.staleReadCounter(
                "read_counter: the marker's counter \(m.counter) must be at least \(last) + \(blocks); fetch /v1/alloc/\(id)/read-counter")
        }
    }

    /// Blocks `start..<start + count` of a `blocks` request, range-checked (no sum overflows).
    func blockRange(_ req: HTTPRequest) throws(StorageRequestError) -> Range<Int> {
        guard let start = Int(req.query["start"] ?? ""), start >= 0 else {
            throw .invalid("start (the first block, an integer ≥ 0) is required")
        }
        guard let count = Int(req.query["count"] ?? ""), count >= 0, count <= Self.maxBlocksPerRequest else {
            throw .invalid("count (blocks to read, 0…\(Self.maxBlocksPerRequest)) is required")
        }
        guard start <= Int.max - count else { throw .invalid("start + count is beyond any fragment's blocks") }
        return start..<(start + count)
    }

    /// `GET /v1/alloc/:id/read-counter`: the signing reader's counter, with the reader's own latest
    /// signed marker behind it, so the reader can check the counter instead of trusting it.
    func readCounterAnswer(_ req: HTTPRequest, allocation: String) async throws -> BlobberWire.ReadCounter {
        _ = try record(allocation)
        let reader = try verifySignature(req, allocation: allocation).key.clientID
        let counter = try await readCounter(allocation: allocation, reader: reader)
        let marker = readState.withLock { $0.latest[allocation + "|" + reader] }
        return BlobberWire.ReadCounter(counter: counter, marker: marker?.counter == counter ? marker : nil)
    }

    /// The reader's current counter here: the latest accepted marker, else what the ledger redeemed.
    func readCounter(allocation: String, reader: String) async throws -> UInt64 {
        let key = allocation + "|" + reader
        if let m = readState.withLock({ $0.latest[key] }) { return m.counter }
        guard let ledger = configuration.ledger else { return 0 }
        let onLedger = try await ledger.readCounter(allocation: allocation, blobber: blobberID, reader: reader)
        return max(onLedger, readState.withLock { $0.latest[key]?.counter ?? 0 })
    }

    /// Redeems the latest read marker of every reader that read since the last redemption.
    func redeemReadMarkers(with ledger: any BlobberLedger) async throws {
        let due = readState.withLock { s in s.latest.filter { $0.value.counter > (s.redeemed[$0.key] ?? 0) } }
        guard !due.isEmpty else { return }
        let markers = due.sorted { $0.key < $1.key }
        for batch in stride(from: 0, to: markers.count, by: 64).map({ Array(markers[$0..<min(markers.count, $0 + 64)]) }) {
            try await ledger.redeemReadMarkers(batch.map(\.value))
            readState.withLock { s in
                for (k, m) in batch {
                    s.redeemed[k] = max(s.redeemed[k] ?? 0, m.counter)
                    try? s.journal?.markRedeemed(k, counter: m.counter)  // at worst redeemed again, and refused as old
                }
            }
        }
    }
}
