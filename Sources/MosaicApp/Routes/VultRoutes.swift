import Foundation
import MosaicCrypto
import MosaicHTTP
import MosaicHTTPServer
import MosaicProtocol
import MosaicSDK
import MosaicStorageCore

/// Vult: allocations and files. Uploads are spooled to a private temp file (bounded memory) and
/// then encrypted, erasure-coded and streamed to the blobbers by the SDK; downloads come back the
/// same way. Keys never leave this process.
extension AppServer {
    struct NewAllocationBody: Decodable {
        let name: String?
        let dataShards: Int?
        let parityShards: Int?
        let size: String?
        let expire: String?
        let lock: String?
        enum CodingKeys: String, CodingKey {
            case name, size, expire, lock
            case dataShards = "data_shards"
            case parityShards = "parity_shards"
        }
    }

    struct PathBody: Decodable {
        let alloc: String
        let path: String
    }

    struct MoveBody: Decodable {
        let alloc: String
        let from: String
        let to: String
    }

    /// `{alloc, path}` of mkdir and delete.
    static let pathSchema = JSONSchema.object([("alloc", .hex64), ("path", .string(maxLength: RemotePath.maxBytes))])

    func registerVultRoutes() {
        api(.get, "/api/allocations", summary: "The wallet's allocations", access: .wallet) { [self] req in
            let wallet = try ledgerWallet(req)
            let list = try await allocations(owner: wallet.clientID, client: wallet.client)
            return try AppServer.json(["allocations": list.map(AppServer.allocationJSON)])
        }

        api(
            .get, "/api/allocations/:id", summary: "One allocation with every detail", access: .wallet,
            parameters: [AppParameters.allocationID], errors: [404]
        ) { [self] req in
            let wallet = try ledgerWallet(req)
            let a = try await allocation(try req.http[AppParameters.allocationID], client: wallet.client)
            return try AppServer.json(AppServer.allocationJSON(a))
        }

        api(
            .get, "/api/allocations/quote",
            summary: "What a new allocation costs: the network's quote, the suggested lock, the fee and the balance",
            access: .wallet,
            parameters: [AppParameters.quoteSize, AppParameters.quoteData, AppParameters.quoteParity, AppParameters.quoteExpire],
            errors: [422]
        ) { [self] req in
            let wallet = try ledgerWallet(req)
            let terms = try AppServer.allocationTerms(
                data: try req.http[AppParameters.quoteData], parity: try req.http[AppParameters.quoteParity],
                size: try req.http[AppParameters.quoteSize], expire: try req.http[AppParameters.quoteExpire])
            return try AppServer.json(try await allocationQuote(terms, wallet: wallet).json)
        }

        api(
            .post, "/api/allocations", summary: "Create an allocation", access: .wallet,
            body: .json(
                .object(
                    [
                        ("name", .string(maxLength: 256)), ("data_shards", .integer(1...Int64(AllocationTerms.maxShards))),
                        ("parity_shards", .integer(0...Int64(AllocationTerms.maxShards))),
                        ("size", .described(.string(maxLength: 32), "a size such as 500MiB or 1GiB")),
                        ("expire", .described(.string(maxLength: 32), "a duration such as 7d or 30d")),
                        ("lock", .described(.string(maxLength: 64), "tokens to lock, e.g. 1.5")),
                    ], required: [])),
            statuses: [201], errors: [409, 422]
        ) { [self] req in
            let body = try req.decode(NewAllocationBody.self)
            let wallet = try ledgerWallet(req)
            let a = try await createAllocation(body, wallet: wallet)
            return try AppServer.json(AppServer.allocationJSON(a), status: 201)
        }

        api(
            .get, "/api/files", summary: "List a folder", access: .wallet,
            parameters: [AppParameters.alloc, AppParameters.folder], errors: [403, 404, 422]
        ) { [self] req in
            let (client, alloc) = try await storage(req, allocationID: try req.http[AppParameters.alloc])
            let path = try req.http[AppParameters.folder]
            let entries = try await mapStorage { try await client.list(path, allocation: alloc) }
            return try AppServer.json(["path": path, "entries": entries.map(AppServer.entryJSON)])
        }

        apiStreaming(
            .post, "/api/files/upload", summary: "Upload a file (raw body)",
            parameters: [AppParameters.alloc, AppParameters.file, AppParameters.replace]
        ) { [self] req, body in
            let (client, alloc) = try await storage(req, allocationID: try req.http[AppParameters.alloc])
            let path = try req.http[AppParameters.file]
            let spool = try spoolFile()
            defer { try? FileManager.default.removeItem(at: spool) }
            try await AppServer.write(body, to: spool)
            let type = req.http.headers["Content-Type"].flatMap { $0.hasPrefix("application/x-www-form") ? nil : $0 }
            let result = try await mapStorage {
                try await client.upload(
                    localFile: spool, remotePath: path, allocation: alloc, contentType: type,
                    replace: try req.http[AppParameters.replace])
            }
            return try AppServer.json(AppServer.entryJSON(result.meta), status: 201)
        }

        apiStreaming(
            .post, "/api/files/batch",
            summary:
                "Upload up to 128 small files of a folder in one commit per blobber (body: u32 BE manifest length, JSON manifest, the files' bytes)",
            parameters: [AppParameters.alloc, AppParameters.folder, AppParameters.replace], statuses: [200],
            bodyLimit: Int64(UploadBatch.maxBodyBytes)
        ) { [self] req, body in
            let (client, alloc) = try await storage(req, allocationID: try req.http[AppParameters.alloc])
            let folder = try req.http[AppParameters.folder]
            if folder != "/" {
                do throws(StorageRequestError) { try RemotePath.validate(folder) } catch { throw AppServer.httpError(storage: error) }
            }
            let batch = try UploadBatch(body: try await body.collect(maxBytes: UploadBatch.maxBodyBytes))
            return try await uploadBatch(batch, to: folder, client: client, allocation: alloc, replace: try req.http[AppParameters.replace])
        }

        api(
            .get, "/api/files/download", summary: "Download a file", access: .wallet,
            parameters: [AppParameters.alloc, AppParameters.file], errors: [403, 404, 422]
        ) { [self] req in
            try await downloadResponse(req, attachment: true)
        }

        api(
            .get, "/api/files/thumbnail", summary: "An image file, for thumbnails", access: .wallet,
            parameters: [AppParameters.alloc, AppParameters.file], errors: [403, 404, 422]
        ) { [self] req in
            try await downloadResponse(req, attachment: false)
        }

        api(
            .post, "/api/files/mkdir", summary: "Create a folder", access: .wallet,
            body: .json(AppServer.pathSchema), statuses: [201], errors: [403, 404, 409, 422]
        ) { [self] req in
            let body = try req.decode(PathBody.self)
            let (client, alloc) = try await storage(req, allocationID: body.alloc)
            try await mapStorage { try await client.mkdir(body.path, allocation: alloc) }
            return try AppServer.json(["path": body.path], status: 201)
        }

        api(
            .post, "/api/files/move", summary: "Rename or move a file or folder", access: .wallet,
            body: .json(
                .object([
                    ("alloc", .hex64), ("from", .string(maxLength: RemotePath.maxBytes)), ("to", .string(maxLength: RemotePath.maxBytes)),
                ])),
            errors: [403, 404, 409, 422]
        ) { [self] req in
            let body = try req.decode(MoveBody.self)
            let (client, alloc) = try await storage(req, allocationID: body.alloc)
            try await mapStorage { try await client.move(body.from, to: body.to, allocation: alloc) }
            let meta = try await mapStorage { try await client.stat(body.to, allocation: alloc) }
            return try AppServer.json(AppServer.entryJSON(meta))
        }

        api(
            .post, "/api/files/delete", summary: "Delete a file or folder", access: .wallet,
            body: .json(AppServer.pathSchema), statuses: [204], errors: [403, 404, 422]
        ) { [self] req in
            let body = try req.decode(PathBody.self)
            let (client, alloc) = try await storage(req, allocationID: body.alloc)
            try await mapStorage { try await client.delete(body.path, allocation: alloc) }
            return HTTPResponse(status: 204, body: Data(), contentType: "text/plain")
        }
    }

    /// Like `api`, for a route whose body streams in (uploads); needs an unlocked wallet and CSRF.
    func apiStreaming(
        _ method: HTTPMethod, _ path: String, summary: String, parameters: [any RouteParameter] = [], statuses: [Int] = [201],
        bodyLimit: Int64 = 64 << 30, handler: @escaping @Sendable (AppRequest, RequestBodyStream) async throws -> HTTPResponse
    ) {
        let sessions = self.sessions
        server.streamingRoute(
            method, path, summary: summary, parameters: parameters, statuses: statuses,
            errors: [400, 401, 403, 404, 409, 413, 422], bodyLimit: bodyLimit,
            precheck: { req in
                _ = try AppServer.resolve(req, access: .wallet, sessions: sessions)
            }
        ) { req, body in
            do {
                let app = try AppServer.resolve(req, access: .wallet, sessions: sessions)
                return AppServer.secured(try await handler(app, body))
            } catch let e as HTTPError {
                return AppServer.secured(e.response)
            }
        }
    }

    /// A private temp file under the app's spool folder (mode 0600).
    func spoolFile() throws -> URL {
        let dir = configuration.home.appendingPathComponent("app-spool", isDirectory: true)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let url = dir.appendingPathComponent(Hex.encode(Random.bytes(16)))
        guard FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw HTTPError.internalError(
                "cannot create a temporary file in the app's spool folder ($MOSAIC_HOME/app-spool); check that the disk has space")
        }
        return url
    }

    static func write(_ body: RequestBodyStream, to url: URL) async throws {
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        for try await chunk in body {
            try handle.write(contentsOf: chunk)
        }
    }

    /// Sends a batch through the SDK's folder upload (which commits small files together) from a
    /// spool folder of its own, compared with the listing of the deepest folder that holds them
    /// all. One batch per target folder at a time: they share the spool and the SDK's journal.
    func uploadBatch(
        _ batch: UploadBatch, to folder: String, client: StorageClient, allocation alloc: StorageAllocation, replace: Bool
    ) async throws -> HTTPResponse {
        let common = batch.commonFolder
        let remote = common.isEmpty ? folder : (folder == "/" ? "" : folder) + "/" + common
        let prefix = common.isEmpty ? "" : common + "/"
        let key = alloc.id + "\n" + remote
        return try await batchQueue.serially(key) {
            let spool = configuration.home.appendingPathComponent("app-spool", isDirectory: true)
                .appendingPathComponent("batch-" + Hex.encode(SHA256.hash(Array(key.utf8)).prefix(16)), isDirectory: true)
            defer { try? FileManager.default.removeItem(at: spool) }
            do { try batch.spool(into: spool, below: common) } catch {
                throw HTTPError.internalError(
                    "the batch could not be written to the app's spool folder ($MOSAIC_HOME/app-spool); check that the disk has space")
            }
            let r = try await mapStorage {
                try await client.uploadFolder(spool, to: remote, allocation: alloc, replace: replace, concurrency: 4)
            }
            let failed = (r.failed + r.skipped).map { issue -> [String: Any] in
                let e = AppServer.webWords(issue, path: (remote == "/" ? "" : remote) + "/" + issue.path)
                return ["path": prefix + issue.path, "code": e.code, "message": e.message]
            }
            return try AppServer.json([
                "uploaded": r.uploaded.map { prefix + $0 }, "unchanged": r.plan.unchanged.map { prefix + $0 }, "failed": failed,
                "writes": r.writes,
            ])
        }
    }

    /// A file of a batch that failed, in the page's words (the SDK's name CLI flags); `exists`
    /// makes the page offer Replace and Keep both, as for a single upload.
    static func webWords(_ issue: FolderIssue, path: String) -> (code: String, message: String) {
        switch issue.code {
        case StorageClientError.alreadyExists(path: "").code:
            return ("exists", "A file named \(RemotePath.name(path)) is already in this folder.")
        case StorageClientError.notAFile(path: "").code:
            return (issue.code, "\(RemotePath.parent(path)) has a folder named \(RemotePath.name(path)); rename one of them.")
        case StorageClientError.changedDuringUpload(path: "").code:
            return (issue.code, "\(RemotePath.name(path)) changed while it was sent; nothing was saved for it. Try again.")
        default:
            return (issue.code, issue.message)
        }
    }

    func downloadResponse(_ req: AppRequest, attachment: Bool) async throws -> HTTPResponse {
        let (client, alloc) = try await storage(req, allocationID: try req.http[AppParameters.alloc])
        let path = try req.http[AppParameters.file]
        let spool = try spoolFile()
        do {
            _ = try await mapStorage { try await client.download(remotePath: path, to: spool, allocation: alloc) }
        } catch {
            try? FileManager.default.removeItem(at: spool)
            throw error
        }
        // Inline only for an image recognised by its bytes; the response holds the open file, so
        // the name can go now and nothing stays on disk.
        defer { try? FileManager.default.removeItem(at: spool) }
        return try AppServer.userFile(atPath: spool.path, name: (path as NSString).lastPathComponent, inline: !attachment)
    }

    /// The session's storage client and the allocation named (or the wallet's only one).
    func storage(_ req: AppRequest, allocationID: String?) async throws -> (StorageClient, StorageAllocation) {
        let wallet = try ledgerWallet(req)
        let unlocked = try req.wallet()
        let a: Allocation
        if let id = allocationID, !id.isEmpty {
            // Bodies carry the id too; it is checked like the query parameter before any use.
            guard ParameterType.hex64.parse(id) != nil else {
                throw HTTPError.badRequest(
                    "alloc must be an allocation id, 64 lowercase hex characters; got \"\(id.prefix(80))\"", code: "invalid_allocation")
            }
            a = try await allocation(id, client: wallet.client)
        } else {
            let all = try await allocations(owner: wallet.clientID, client: wallet.client).filter { $0.status == .active }
            guard all.count == 1, let only = all.first else {
                throw HTTPError.badRequest(
                    all.isEmpty ? "this wallet has no allocation yet; create one first" : "choose an allocation with ?alloc=ID",
                    code: "no_allocation")
            }
            a = only
        }
        guard a.ownerID == unlocked.clientID else {
            throw HTTPError.forbidden("allocation \(a.id) belongs to another wallet", code: "not_owner")
        }
        let alloc: StorageAllocation
        do { alloc = try StorageAllocation(a) } catch {
            throw HTTPError(status: 502, code: "invalid_allocation", message: error.description)
        }
        return (StorageClient(signingKey: unlocked.signingKey, home: configuration.home), alloc)
    }

    static func entryJSON(_ m: FileMeta) -> [String: Any] {
        let name = m.path == "/" ? "/" : (m.path as NSString).lastPathComponent
        return [
            "name": name, "path": m.path, "type": m.kind == .file ? "file" : "dir", "size": m.size,
            "modified": m.modified, "mime": m.contentType,
        ]
    }

    static func allocationJSON(_ a: Allocation) -> [String: Any] {
        [
            "id": a.id, "name": a.name, "expiration": a.expiration, "size": a.size, "used_size": a.usedSize,
            "data_shards": a.dataShards, "parity_shards": a.parityShards, "num_writes": a.numWrites,
            "num_reads": a.numReads, "successful_challenges": a.successfulChallenges,
            "failed_challenges": a.failedChallenges,
            "latest_closed_challenge": a.latestClosedChallenge.map { $0 as Any } ?? NSNull(),
            "blobbers": a.blobbers.map { ["id": $0.blobberID, "url": $0.url, "used": $0.used] },
            "write_pool": a.writePool, "tokens_locked": TokenAmount(baseUnits: a.writePool).description,
            "status": a.status.rawValue, "created_at": a.createdAt,
        ]
    }

    /// Storage failures as HTTP answers with the SDK's message.
    func mapStorage<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let e as StorageClientError {
            throw AppServer.httpError(client: e)
        } catch let e as StorageRequestError {
            throw AppServer.httpError(storage: e)
        } catch let e as ShareError {
            throw HTTPError.unprocessable(e.description, code: e.code)
        } catch let e as LedgerClientError {
            throw AppServer.httpError(node: e, url: (try? networkState.current().node) ?? "?")
        }
    }

    /// The SDK's storage errors in the web app's words: its messages name CLI commands
    /// ('mosaic ls', --replace, 'mosaic repair'), which mean nothing on a page. The code stays, so
    /// the page offers its own action (Replace / Keep both for `exists`).
    static func httpError(client e: StorageClientError) -> HTTPError {
        switch e {
        case .notFound(let p):
            return HTTPError.notFound(
                "\(RemotePath.name(p)) is not there any more; it may have been moved or deleted. Reload the folder.", code: "not_found")
        case .alreadyExists(let p):
            return HTTPError.conflict("A file named \(RemotePath.name(p)) is already in this folder.", code: "exists")
        case .expired(_, let at):
            let date = AppServer.utcDate(at)
            return HTTPError.unprocessable(
                "This allocation expired on \(date); it can no longer be written. Create a new allocation from Home.", code: "storage")
        case .unreadable(let p, _):
            return HTTPError.unprocessable(
                "\(RemotePath.name(p)) cannot be read from enough blobbers right now. Try again in a moment.", code: "storage")
        case .lockerFile(let p):
            return HTTPError.unprocessable(
                "\(RemotePath.name(p)) is a locker file, locked with a PIN; open it on the Locker page.", code: "locker_file")
        case .tooFewBlobbers(let needed, let reached, _):
            return HTTPError.unprocessable(
                "Only \(reached) of the \(needed) blobbers this needs answered. Try again in a moment.", code: "storage")
        default:
            return HTTPError.unprocessable(e.description, code: "storage")
        }
    }

    /// A storage refusal (a bad remote path checked by the SDK, or a blobber's answer) as a 4xx
    /// with its words: a full allocation (507 at the blobber) is the caller's to fix, so 422.
    static func httpError(storage e: StorageRequestError) -> HTTPError {
        HTTPError(status: e.status < 500 ? e.status : 422, code: e.code, message: e.message)
    }
}
