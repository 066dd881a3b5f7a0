import Foundation
import MosaicCrypto
import MosaicHTTP
import MosaicHTTPServer
import MosaicProtocol
import MosaicStorageCore

/// The blobber's HTTP routes (docs/STORAGE.md §11). Bulk data travels as binary bodies; everything
/// else is JSON. Every allocation route except `assign` needs a request signed by the owner.
extension BlobberServer {
    func registerRoutes() {
        let alloc = BlobberServer.allocationID
        let upload = BlobberServer.uploadID
        http.route(.get, "/v1/info", summary: "Blobber id, public key and bytes used") { [self] _ in
            try HTTPResponse.json(BlobberWire.Info(blobberID: blobberID, publicKey: key.publicKey.hex, usedBytes: store.totalUsedBytes))
        }
        http.route(
            .post, "/v1/alloc/:id/assign", summary: "Accept an owner-signed allocation assignment naming this blobber",
            parameters: [alloc], body: .json(.object([], required: [], additional: true), description: "AllocationAssignment"),
            response: "AllocationState", errors: [401, 403, 409]
        ) { [self] req in
            try await mappedAsync {
                let a = try req.decodeJSON(AllocationAssignment.self)
                guard a.allocationID == (try req[alloc]) else {
                    throw StorageRequestError.invalid("assignment is for another allocation id")
                }
                return try HTTPResponse.json(state(try assign(a)))
            }
        }
        http.route(
            .get, "/v1/alloc/:id", summary: "This blobber's root, size and latest write marker for an allocation",
            parameters: [alloc], response: "AllocationState", errors: [401, 403]
        ) { [self] req in
            try await allocationRequest(req) { id in
                return try HTTPResponse.json(state(try authorize(req, allocation: id, write: false)))
            }
        }
        http.streamingRoute(
            .put, "/v1/alloc/:id/uploads/:upload",
            summary: "Append fragment bytes to a resumable upload",
            description:
                "Binary body with Content-Length; header X-Offset = stream offset of the first byte. Bytes the blobber already has are skipped; a gap is refused.",
            parameters: [alloc, upload, BlobberServer.offset], response: "UploadStatus", errors: [401, 403, 409, 507],
            bodyLimit: configuration.maxPutBytes,
            precheck: { [self] req in try mapped { try precheckUpload(req) } }
        ) { [self] req, body in
            try await mappedAsync { try await receiveUpload(req, body: body) }
        }
        http.route(
            .get, "/v1/alloc/:id/uploads/:upload", summary: "Bytes received so far for a resumable upload",
            parameters: [alloc, upload], response: "UploadStatus", errors: [401, 403]
        ) { [self] req in
            try await allocationRequest(req) { id in
                _ = try authorize(req, allocation: id, write: false)
                return try HTTPResponse.json(BlobberWire.UploadStatus(received: try uploadLength(allocation: id, upload: try req[upload])))
            }
        }
        http.route(
            .delete, "/v1/alloc/:id/uploads/:upload", summary: "Drop an uncommitted upload", parameters: [alloc, upload],
            response: "UploadStatus", errors: [401, 403]
        ) { [self] req in
            try await allocationRequest(req) { id in
                _ = try authorize(req, allocation: id, write: false)
                try discard(allocation: id, upload: try req[upload])
                return try HTTPResponse.json(BlobberWire.UploadStatus(received: 0))
            }
        }
        http.route(
            .post, "/v1/alloc/:id/commit", summary: "Apply owner-signed changes (put/delete) with a write marker, atomically",
            parameters: [alloc], body: .json(.object([], required: [], additional: true), description: "Commit"),
            response: "AllocationState", errors: [401, 403, 409], bodyLimit: 16 << 20
        ) { [self] req in
            try await allocationRequest(req) { id in
                _ = try authorize(req, allocation: id, write: true)
                return try HTTPResponse.json(try apply(try req.decodeJSON(BlobberWire.Commit.self), allocation: id))
            }
        }
        http.route(
            .get, "/v1/alloc/:id/files", summary: "Metadata of a folder's entries (or of one file)",
            parameters: [alloc, BlobberServer.folder, BlobberServer.recursive, BlobberServer.format],
            response: "Listing", errors: [401, 403]
        ) { [self] req in
            try await allocationRequest(req) { id in
                let path = try req[BlobberServer.folder]
                let r = try await authorizeRead(req, allocation: id, path: path).record
                let recursive = try req[BlobberServer.recursive]
                let format = try req[BlobberServer.format]
                let key = ListingBodyCache.Key(allocationID: id, path: path, recursive: recursive, format: format, state: state(r))
                switch format {
                case "binary":
                    let body = try listingBodies.body(key) {
                        FileMetaListing.encode(try list(r, path: path, recursive: recursive))
                    }
                    return HTTPResponse(status: 200, body: body, contentType: FileMetaListing.contentType)
                case "proven":
                    let body = try listingBodies.body(key) {
                        let entries = try list(r, path: path, recursive: recursive)
                        let folder = path == "/" || r.files[path]?.meta.kind == .directory
                        let proof = BlobberWire.FolderProof(
                            state: state(r), steps: folder && !recursive ? r.leaves.trie.proof(ofFolder: path) : nil)
                        return FileMetaListing.encode(entries, proof: proof)
                    }
                    return HTTPResponse(status: 200, body: body, contentType: FileMetaListing.contentType)
                default: break
                }
                return try HTTPResponse.json(BlobberWire.Listing(entries: try list(r, path: path, recursive: recursive)))
            }
        }
        http.route(
            .get, "/v1/alloc/:id/stat", summary: "Signed metadata of one path", parameters: [alloc, BlobberServer.path],
            response: "FileMeta", errors: [401, 403]
        ) { [self] req in
            try await allocationRequest(req) { id in
                let path = try req[BlobberServer.path]
                let r = try await authorizeRead(req, allocation: id, path: path).record
                guard let f = r.files[path] else { throw StorageRequestError.notFound("\(path) does not exist") }
                return try HTTPResponse.json(f.meta)
            }
        }
        http.route(
            .get, "/v1/alloc/:id/read-counter", summary: "The signing reader's current read-marker counter here",
            parameters: [alloc], response: "{counter}", errors: [401, 403]
        ) { [self] req in
            try await allocationRequest(req) { id in
                _ = try record(id)
                return try HTTPResponse.json(try await readCounterAnswer(req, allocation: id))
            }
        }
        http.route(
            .get, "/v1/alloc/:id/blocks", summary: "Blocks of this blobber's fragment of a file, each with its Merkle proof",
            description: "Binary: \"MBK1\" ‖ u32 count ‖ count × (u32 length ‖ data ‖ u32 proof length ‖ proof), big-endian.",
            parameters: [alloc, BlobberServer.path, BlobberServer.start, BlobberServer.count],
            response: "application/octet-stream", errors: [401, 403]
        ) { [self] req in
            try await allocationRequest(req) { id in
                let path = try req[BlobberServer.path]
                let grant = try await authorizeRead(req, allocation: id, path: path)
                let blocks = try blocks(grant.record, path: path, range: try blockRange(req))
                try await acceptReadMarker(req, grant: grant, blocks: blocks.count)
                // Encoded straight into the memory the server sends from (no copy on the way out).
                let body = try ResponseBuffer(count: BlobberWire.encodedSize(blocks))
                body.withUnsafeMutableBytes { BlobberWire.encodeBlocks(blocks, into: $0) }
                return HTTPResponse.bytes(body)
            }
        }
    }

    static let allocationID = Path.string("id", .hex64, "allocation id (64 hex)")
    static let uploadID = Path.string(
        "upload", .string(maxLength: 100, pattern: "^[A-Za-z0-9._-]{1,100}$", hint: "1–100 of A–Z a–z 0–9 . _ -"),
        "client-chosen upload id")
    static let offset = Header.requiredInteger("X-Offset", in: Int64(0)...Int64.max, "stream offset of the body's first byte")
    static let folder = Query.string("path", .string(maxLength: RemotePath.maxBytes), default: "/", "remote folder or file (default /)")
    static let path = Query.requiredString("path", .string(maxLength: RemotePath.maxBytes), "remote path")
    static let recursive = Query.boolean("recursive", "true (or 1) for everything below the folder")
    static let format = Query.string(
        "format", .choice(["json", "binary", "proven"]), default: "json",
        "binary for FileMetaListing bytes instead of JSON; proven for those bytes with the folder's proof against the signed root")
    /// A fragment of 2^31 blocks of 64 KiB is 128 TiB, beyond any allocation.
    static let start = Query.requiredInteger("start", in: 0...Int(Int32.max), "first block")
    static let count = Query.requiredInteger("count", in: 0...64, "blocks to read (0–64)")

    /// Maps storage errors to the JSON error format with the right status.
    func mapped(_ body: () throws -> HTTPResponse) throws -> HTTPResponse {
        do { return try body() } catch { throw Self.httpError(error) }
    }

    func mapped(_ body: () throws -> Void) throws {
        do { try body() } catch { throw Self.httpError(error) }
    }

    func mappedAsync(_ body: () async throws -> HTTPResponse) async throws -> HTTPResponse {
        do { return try await body() } catch { throw Self.httpError(error) }
    }

    /// What every route of one allocation does first: its id from the path, its record loaded
    /// (from the ledger when this blobber has not seen it yet), errors mapped to HTTP.
    func allocationRequest(_ req: HTTPRequest, _ body: (String) async throws -> HTTPResponse) async throws -> HTTPResponse {
        try await mappedAsync {
            let id = try req[Self.allocationID]
            try await ensureRecord(id)
            return try await body(id)
        }
    }

    static func httpError(_ error: any Error) -> any Error {
        switch error {
        case let e as StorageRequestError: return HTTPError(status: e.status, code: e.code, message: e.message)
        case let e as StorageError:
            switch e {
            case .notFound: return HTTPError.notFound(e.description)
            case .blockIndexOutOfRange, .invalidName: return HTTPError.badRequest(e.description)
            case .rootMismatch, .fragmentLengthMismatch: return HTTPError.badRequest(e.description, code: "fragment_mismatch")
            default: return HTTPError.internalError(e.description)
            }
        default: return error
        }
    }
}
