import Foundation
import MosaicCrypto
import MosaicHTTP
import MosaicProtocol
import MosaicStorageCore
import Synchronization

/// One blobber of an allocation as the client talks to it: every request signed by the wallet's
/// key (`RequestSignature`), JSON for metadata, binary bodies for fragments.
struct BlobberConnection: Sendable {
    let index: Int
    let blobber: StorageAllocation.Blobber
    let allocation: String
    let ownerID: String
    let key: Ed25519.SigningKey
    let http: HTTPClient
    /// Fragment PUTs and block GETs go over this plain socket when the blobber URL is http:// (see
    /// `BulkHTTPConnection` for why); nil for https, where `http` carries them. One request at a
    /// time: an upload or download sends to each blobber in sequence.
    let bulk: BulkHTTPConnection?
    /// Sent with reads when the reader is not the owner.
    let ticket: AuthTicket?
    let counters: ReadCounters

    /// `http`: a client for this blobber to share (its URLSession keeps connections alive across
    /// operations); nil makes one.
    init(
        index: Int, blobber: StorageAllocation.Blobber, allocation: String, ownerID: String, key: Ed25519.SigningKey,
        timeout: TimeInterval, ticket: AuthTicket? = nil, counters: ReadCounters = ReadCounters(), http: HTTPClient? = nil
    ) {
        self.index = index
        self.blobber = blobber
        self.allocation = allocation
        self.ownerID = ownerID
        self.key = key
        self.ticket = ticket
        self.counters = counters
        self.http = http ?? Self.client(for: blobber.url, timeout: timeout)
        bulk = BulkHTTPConnection(baseURL: blobber.url, timeout: timeout)
    }

    static func client(for url: URL, timeout: TimeInterval) -> HTTPClient {
        var c = HTTPClient.Configuration()
        c.requestTimeout = timeout
        c.deadline = .seconds(Int64(timeout) * 2)
        c.retries = 2
        c.retryBackoff = .milliseconds(50)
        return HTTPClient(baseURL: url, configuration: c)
    }

    private var base: String { "/v1/alloc/\(allocation)" }

    /// Headers of one request signed for this blobber (docs/STORAGE.md §11), with a fresh nonce:
    /// `streamedLength` for an upload PUT (its body is bound by upload id, offset and length), else
    /// the body's hash.
    private func signed(
        _ method: HTTPMethod, _ path: String, query: [String: String] = [:], offset: Int64? = nil,
        body: Data = Data(), streamedLength: Int64? = nil
    ) -> [String: String] {
        var target = RequestSignature.Target(
            blobberID: blobber.id, allocationID: allocation, method: method.rawValue, path: path,
            query: query, body: body)
        if let streamedLength {
            target.bodyLength = streamedLength
            target.bodyHash = nil
        }
        target.offset = offset
        var h = RequestSignature.headers(target, key: key)
        if let offset { h["X-Offset"] = String(offset) }
        if let ticket, let json = try? JSONEncoder().encode(ticket) { h["X-Auth-Ticket"] = json.base64EncodedString() }
        return h
    }

    private func call(
        _ method: HTTPMethod, _ path: String, query: [String: String] = [:], headers: [String: String] = [:],
        body: Data? = nil, contentType: String? = nil
    ) async throws -> HTTPClientResponse {
        // URLSession sends no body with a GET, so none is signed.
        let sent = method == .get || method == .head ? Data() : (body ?? Data())
        return try await http.send(
            method, path, query: query, headers: signed(method, path, query: query, body: sent).merging(headers) { a, _ in a },
            body: body, contentType: contentType)
    }

    func assign(_ a: AllocationAssignment) async throws -> BlobberWire.AllocationState {
        try await http.post("\(base)/assign", json: a)
    }

    func state() async throws -> BlobberWire.AllocationState {
        try await call(.get, base).decode(BlobberWire.AllocationState.self)
    }

    func list(_ path: String, recursive: Bool) async throws -> [FileMeta] {
        try await listWithDigests(path, recursive: recursive).map(\.meta)
    }

    /// `list` with each entry's signing digest (see `FileMetaListing.decodeWithDigests`).
    func listWithDigests(_ path: String, recursive: Bool) async throws -> [(meta: FileMeta, digest: [UInt8])] {
        var q = ["path": path, "format": "binary"]
        if recursive { q["recursive"] = "1" }
        return try FileMetaListing.decodeWithDigests(try await call(.get, "\(base)/files", query: q).body)
    }

    /// A folder's entries (with digests) and what proves them against the blobber's signed root.
    func listProven(_ path: String) async throws -> FolderListing {
        try FolderListing(
            try await call(.get, "\(base)/files", query: ["path": path, "format": "proven"]).body, allocationID: allocation, index: index)
    }

    /// The metadata at `path`, or nil when the blobber says it does not exist.
    func stat(_ path: String) async throws -> FileMeta? {
        do {
            return try await call(.get, "\(base)/stat", query: ["path": path]).decode(FileMeta.self)
        } catch let e as HTTPClientError where e.status == 404 {
            return nil
        }
    }

    func uploadStatus(_ upload: String) async throws -> Int64 {
        try await call(.get, "\(base)/uploads/\(upload)").decode(BlobberWire.UploadStatus.self).received
    }

    /// Sends `bytes` as stream offset `offset` of an upload; returns the bytes the blobber now holds.
    func put(_ upload: String, offset: Int64, bytes: [UInt8]) async throws -> Int64 {
        let path = "\(base)/uploads/\(upload)"
        return try await http.send(
            .put, path, headers: signed(.put, path, offset: offset, streamedLength: Int64(bytes.count)),
            body: Data(bytes), contentType: "application/octet-stream"
        ).decode(BlobberWire.UploadStatus.self).received
    }

    /// The encoder's form of `put`: sent straight from its batch buffer over `bulk` when there is one.
    func put(_ upload: String, offset: Int64, fragment: FragmentBytes) async throws -> Int64 {
        guard let bulk else {
            return try await put(upload, offset: offset, bytes: fragment.array)
        }
        let path = "\(base)/uploads/\(upload)"
        let headers = signed(.put, path, offset: offset, streamedLength: Int64(fragment.count))
        return try await bulk.send(.put, path, headers: headers, body: fragment).decode(BlobberWire.UploadStatus.self).received
    }

    /// Whether upload PUTs can be streamed over many encoder batches (`openUpload`): only over the
    /// bulk connection (URLSession, used behind an HTTP proxy, takes a body whole).
    var streamsUploads: Bool { bulk != nil }

    /// Starts one PUT of `length` bytes at stream offset `offset` of an upload, whose body follows
    /// in parts (`sendUpload`) as the encoder produces them; `finishUpload` reads the answer.
    func openUpload(_ upload: String, offset: Int64, length: Int64) async throws {
        guard let bulk else { throw HTTPClientError(status: 0, code: "transport", message: "no bulk connection to stream over") }
        let path = "\(base)/uploads/\(upload)"
        try await bulk.openStream(.put, path, headers: signed(.put, path, offset: offset, streamedLength: length), length: length)
    }

    /// The next bytes of the PUT `openUpload` started, sent straight from the encoder's buffer.
    func sendUpload(_ fragment: FragmentBytes) async throws {
        guard let bulk else { throw HTTPClientError(status: 0, code: "transport", message: "no bulk connection to stream over") }
        try await bulk.streamBody(fragment)
    }

    /// The blobber's answer to the streamed PUT, once all of it is sent: the bytes it now holds.
    func finishUpload() async throws -> Int64 {
        guard let bulk else { throw HTTPClientError(status: 0, code: "transport", message: "no bulk connection to stream over") }
        return try await bulk.finishStream().decode(BlobberWire.UploadStatus.self).received
    }

    /// Gives up a streamed PUT left unfinished (its connection is closed).
    func abortUpload() async {
        await bulk?.abortStream()
    }

    func discard(_ upload: String) async throws {
        _ = try await call(.delete, "\(base)/uploads/\(upload)")
    }

    func commit(_ commit: BlobberWire.Commit) async throws -> BlobberWire.AllocationState {
        let body = try JSONEncoder().encode(commit)
        return try await call(.post, "\(base)/commit", body: body, contentType: "application/json").decode(BlobberWire.AllocationState.self)
    }

    /// The reader's read-marker counter here, checked: a counter above 0 must come with this
    /// reader's own signed marker for it. Else a blobber could claim any counter and have the
    /// reader sign (and pay for) blocks it never read.
    func readCounter() async throws -> UInt64 {
        let answer = try await call(.get, "\(base)/read-counter").decode(BlobberWire.ReadCounter.self)
        guard answer.counter > 0 else { return 0 }
        guard let m = answer.marker, m.counter == answer.counter, m.allocationID == allocation, m.blobberID == blobber.id,
            m.clientID == key.publicKey.clientID, m.publicKey == key.publicKey.hex, (try? m.verify()) != nil
        else {
            throw StorageClientError.untrustedBlobber(
                index: index,
                reason: "it claims read counter \(answer.counter) for this reader without the reader's own signed marker for it")
        }
        return answer.counter
    }

    /// Blocks with their proofs, paid by a read marker whose counter grows by the blocks asked for.
    /// If the blobber's counter moved (another client process of the same reader), it is re-read once.
    func blocks(_ path: String, range: Range<Int>) async throws -> [FragmentBlock] {
        let slot = allocation + "|" + blobber.id
        var attempt = 0
        while true {
            attempt += 1
            let base = try await counters.current(slot) { try await self.readCounter() }
            guard let counter = counters.advance(slot, from: base, by: UInt64(range.count)) else {
                throw StorageClientError.untrustedBlobber(
                    index: index, reason: "its read counter \(base) leaves no room for \(range.count) more blocks")
            }
            // The price is the one the ledger says the allocation agreed with this blobber, never
            // one the blobber names, and the ticket read under is named: the ledger charges no
            // more than this signature allows, and the owner pays only under this ticket.
            var marker = ReadMarker(
                allocationID: allocation, blobberID: blobber.id, clientID: key.publicKey.clientID,
                publicKey: key.publicKey.hex, ownerID: ownerID, counter: counter,
                timestamp: Int64(Date().timeIntervalSince1970), readPrice: blobber.readPrice,
                ticketID: ticket?.id ?? "")
            marker.sign(with: key)
            let header = (try JSONEncoder().encode(marker)).base64EncodedString()
            do {
                let query = ["path": path, "start": String(range.lowerBound), "count": String(range.count)]
                let r: HTTPClientResponse
                if let bulk {
                    // Block batches are ~1 MiB answers: the plain socket reads them straight into the
                    // response, where URLSession cost more CPU than checking the proofs.
                    let p = "\(self.base)/blocks"
                    r = try await bulk.send(
                        .get, p, query: query,
                        headers: signed(.get, p, query: query).merging(["X-Read-Marker": header]) { a, _ in a }, body: [UInt8]())
                } else {
                    r = try await call(.get, "\(self.base)/blocks", query: query, headers: ["X-Read-Marker": header])
                }
                return try BlobberWire.decodeBlocks(r.body)
            } catch let e as HTTPClientError where e.code == StorageRequestError.staleReadCounter("").code && attempt < 3 {
                counters.forget(slot)
            }
        }
    }
}
