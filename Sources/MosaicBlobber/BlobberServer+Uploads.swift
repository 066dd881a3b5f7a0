import Foundation
import MosaicHTTP
import MosaicHTTPServer
import MosaicStorageCore

/// The upload PUT (docs/STORAGE.md §11): checked from its headers before any body byte is read,
/// then streamed into the upload's writer within the bytes reserved for it.
extension BlobberServer {
    /// Offset and length of an upload PUT's body, range-checked.
    func uploadExtent(_ req: HTTPRequest) throws(StorageRequestError) -> (offset: Int64, length: Int64, end: Int64) {
        guard let text = req.headers["X-Offset"], let offset = Int64(text), offset >= 0 else {
            throw .invalid("X-Offset header (the stream offset of the body, an integer in 0…\(Int64.max)) is required")
        }
        guard let lengthText = req.headers["Content-Length"], let length = Int64(lengthText.trimmingCharacters(in: .whitespaces)),
            length >= 0
        else {
            throw .invalid("Content-Length (the body's byte count) is required")
        }
        let (end, overflow) = offset.addingReportingOverflow(length)
        guard !overflow else { throw .invalid("X-Offset \(offset) + Content-Length \(length) is beyond any fragment's length") }
        return (offset, length, end)
    }

    /// The upload id from the path, checked.
    func uploadID(_ req: HTTPRequest) throws -> String {
        let upload = try req.param("upload")
        guard upload.utf8.count <= 100, (try? FragmentStore.validate(upload)) != nil else {
            throw StorageRequestError.invalid("upload ids are 1–100 of A–Z a–z 0–9 . _ - (not starting with .)")
        }
        return upload
    }

    /// Refuses a PUT from its headers alone: signature (its nonce not yet used), expiry, offset,
    /// and the allocation's bounds on uncommitted uploads. With a ledger, an allocation seen for
    /// the first time is read by the handler instead (no network call on the server thread).
    func precheckUpload(_ req: HTTPRequest) throws {
        let id = try req.param("id")
        if configuration.ledger != nil, (try? record(id)) == nil { return }
        let r = try authorize(req, allocation: id, write: true, streamed: true, spendNonce: false)
        let extent = try uploadExtent(req)
        try checkFits(extent.end, r)
        _ = try uploads.begin(
            allocation: id, upload: try uploadID(req), offset: extent.offset, count: extent.length,
            capacity: r.assignment.perBlobberCapacity, reserve: false)
    }

    /// Streams a PUT body into its upload; returns the bytes the upload now holds.
    func receiveUpload(_ req: HTTPRequest, body: RequestBodyStream) async throws -> HTTPResponse {
        let id = try req.param("id")
        try await ensureRecord(id)
        let r = try authorize(req, allocation: id, write: true, streamed: true)
        let upload = try uploadID(req)
        let extent = try uploadExtent(req)
        try checkFits(extent.end, r)
        guard
            let lease = try uploads.begin(
                allocation: id, upload: upload, offset: extent.offset, count: extent.length,
                capacity: r.assignment.perBlobberCapacity)
        else {
            throw StorageRequestError.invalid("upload \(upload) could not be opened")
        }
        defer { uploads.end(lease) }
        var at = extent.offset
        for try await chunk in body {
            // Never past what was reserved, whatever the transfer encoding delivers.
            guard Int64(chunk.count) <= extent.end - at else {
                throw StorageRequestError.invalid("the body is longer than its Content-Length \(extent.length)")
            }
            try chunk.withUnsafeBytes { try lease.writer.receive($0, at: at) }
            at += Int64(chunk.count)
        }
        return try HTTPResponse.json(BlobberWire.UploadStatus(received: lease.writer.length))
    }

    /// One fragment never exceeds the allocation's per-blobber size.
    private func checkFits(_ end: Int64, _ r: AllocationRecord) throws(StorageRequestError) {
        guard end <= r.assignment.perBlobberCapacity else {
            throw .full(
                "this upload would exceed the allocation's \(r.assignment.perBlobberCapacity) bytes on this blobber; grow the allocation")
        }
    }
}
