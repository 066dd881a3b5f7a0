import Foundation
import MosaicCrypto
import MosaicHTTP
import MosaicHTTPServer
import MosaicProtocol
import MosaicStorageCore
import Synchronization

/// A storage provider: receives fragment streams over HTTP, checks them against the owner's signed
/// metadata and write marker, makes them visible atomically, and serves verified blocks.
///
/// Disk layout under `directory`: `blobber.key` (its Ed25519 seed, hex), `fragments/` (a
/// `FragmentStore`: committed fragments and resumable uploads), `meta.sqlite` (a `BlobberMetaStore`:
/// allocations, paths, pending write markers), `read-markers.sqlite` (accepted read markers not yet
/// redeemed). At start, fragment files no record points to (left by a crash between publishing a
/// fragment and committing the metadata) are deleted, so a killed write never shows. HTTP API: docs/STORAGE.md §11.
package final class BlobberServer: Sendable {
    package struct Configuration: Sendable {
        package var directory: String
        package var host = "127.0.0.1"
        package var port: UInt16 = 0
        /// Serve HTTPS with these; nil serves plain HTTP.
        package var tls: TLSCredentials?
        /// Largest body of one upload PUT.
        package var maxPutBytes: Int64 = 256 << 20
        package var logger: HTTPLogger? = nil
        /// When set, allocations are read from the ledger (the `assign` route is refused) and write
        /// markers are committed to it by `commitPendingMarkers()`.
        package var ledger: (any BlobberLedger)? = nil
        /// Seconds a ledger read of an allocation is reused before it is read again (expiry, growth).
        package var ledgerRefresh: Double = 5
        /// Seconds after which an upload nobody writes to gives back its open file; its bytes stay
        /// on disk and the next PUT of the same upload id resumes from them.
        package var idleUploadTimeout: Double = 600
        /// Seconds a connection may go without traffic before it is closed, also in the middle
        /// of a request body (a client's upload PUT waiting on its slowest blobber).
        package var connectionTimeout = 30
        /// Uncommitted uploads one allocation may have open here (their bytes together are bounded
        /// by the allocation's per-blobber size).
        package var maxOpenUploads = 1024
        /// Upload files the blobber keeps open at once (idle ones are closed to make room).
        package var maxOpenUploadFiles = 256
        /// Seconds after which an upload nobody wrote to is removed, bytes and all.
        package var uploadExpiry: Int64 = 7 * 24 * 3600
        /// Files and folders one allocation may hold here. Folders cost no fragment bytes, so the
        /// allocation's size alone does not bound them (each costs about 1 KiB of memory).
        package var maxEntriesPerAllocation = 200_000
        /// Changes one commit may carry (a commit holds the blobber's metadata lock while it runs).
        package var maxChangesPerCommit = 20_000
        package init(directory: String) { self.directory = directory }
    }

    /// How far ahead of the blobber's clock a write marker's timestamp may be: the storage
    /// contract's `marker_clock_skew` (600 s), so no marker is accepted that the ledger refuses.
    static let markerClockSkew: Int64 = 600
    /// Blocks one `blocks` request may ask for (a batch answer is then at most ~4 MiB).
    static let maxBlocksPerRequest = 64

    package let configuration: Configuration
    package let key: Ed25519.SigningKey
    package var blobberID: String { key.publicKey.clientID }
    let store: FragmentStore
    let http: HTTPServer
    let records: Mutex<[String: AllocationRecord]>
    /// Taken only inside `records.withLock`, so metadata rows change in the same order as the map.
    private let meta: Mutex<BlobberMetaStore>
    let uploads: UploadTable
    /// Nonces of the owners' signed writes inside the signature window (replays are refused).
    let nonces = RequestNonces()
    private let refreshed = Mutex<[String: ContinuousClock.Instant]>([:])
    let readState: Mutex<ReadState>
    let listingBodies = ListingBodyCache()
    private let markerCommits = Mutex<Task<Void, Never>?>(nil)

    package init(configuration: Configuration) throws {
        self.configuration = configuration
        let dir = configuration.directory
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        key = try Self.loadKey(dir + "/blobber.key")
        store = try FragmentStore(directory: dir + "/fragments")
        store.removeStaleUploads(olderThan: TimeInterval(configuration.uploadExpiry))
        uploads = UploadTable(
            store: store,
            limits: .init(
                perAllocation: configuration.maxOpenUploads,
                openFiles: configuration.maxOpenUploadFiles,
                idleClose: configuration.idleUploadTimeout,
                expiry: configuration.uploadExpiry))
        let metaStore = try BlobberMetaStore(path: dir + "/meta.sqlite")
        try metaStore.importJSONRecords(from: dir + "/meta")  // blobbers from before meta.sqlite
        var loaded = try metaStore.loadAll()
        for (id, r) in loaded {
            let leaves = try AllocationRoot.leaves(of: r.files.values.map(\.meta), index: r.index)
            loaded[id]?.leaves = leaves
            // Files whose root is not the one committed: kept from a blobber before the v2 allocation
            // root (2026-12-04), or damaged. Clients refuse such a blobber ("does not match its
            // committed root"); say why here, where its operator looks.
            if r.writeMarker != nil, leaves.root != r.root {
                configuration.logger?(
                    "allocation \(id): its \(r.files.count) stored entries give root \(leaves.root), not the committed \(r.root); "
                        + "written by a Mosaic from before the v2 allocation root (2026-12-04), or damaged. Clients refuse it until its "
                        + "owner writes it anew; a devnet from then is best started in a new folder")
            }
        }
        meta = Mutex(metaStore)
        // Fragments published but never recorded (crash mid-commit) or orphaned by a delete.
        for (id, record) in loaded {
            let referenced = Set(record.files.values.compactMap(\.fragment))
            for file in (try? store.files(allocation: id)) ?? [] where !referenced.contains(file) {
                try? store.delete(allocation: id, file: file)
            }
        }
        records = Mutex(loaded)
        let journal = try ReadMarkerJournal(path: dir + "/read-markers.sqlite")
        let (latest, redeemed) = try journal.load()
        readState = Mutex(ReadState(latest: latest, redeemed: redeemed, journal: journal))
        var http = HTTPServer.Configuration()
        http.host = configuration.host
        http.port = configuration.port
        http.tls = configuration.tls
        http.threads = 4
        http.connectionTimeout = configuration.connectionTimeout
        http.logger = configuration.logger
        http.title = "Mosaic blobber API"
        // No error body shows where this blobber keeps its fragments and databases.
        http.privatePaths = [dir: "$BLOBBER_DIR"]
        self.http = HTTPServer(configuration: http)
        registerRoutes()
        registerMetrics()
    }

    package func start() throws { try http.start() }

    package func stop() async {
        markerCommits.withLock { $0?.cancel() }
        await http.stop(grace: .seconds(1))
        // Open uploads keep their bytes in uploads/ for a later resume; only the descriptors go.
        uploads.closeAll()
    }

    /// Commits pending write markers to the ledger every `seconds` (batched per allocation).
    /// Challenges are answered by `ChallengeResponder` (MosaicSDK) with a `ChallengeProver`.
    package func startMarkerCommits(every seconds: Double) {
        let task = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(Int64(seconds * 1000)))
                guard let self else { return }
                _ = await self.commitPendingMarkers()
            }
        }
        markerCommits.withLock {
            $0?.cancel()
            $0 = task
        }
    }
    package var baseURL: URL { http.baseURL }
    package var port: UInt16 { http.port }

    static func loadKey(_ path: String) throws -> Ed25519.SigningKey {
        if let text = try? String(contentsOfFile: path, encoding: .utf8),
            let seed = Hex.decode(text.trimmingCharacters(in: .whitespacesAndNewlines)), seed.count == 32
        {
            return try Ed25519.SigningKey(seed: SecretBytes(seed))
        }
        let key = Ed25519.SigningKey.generate()
        let seed = key.seed.copyBytes()
        try AtomicWrite.replace(path, with: Data(Hex.encode(seed).utf8))
        return key
    }

    // MARK: State

    func record(_ id: String) throws(StorageRequestError) -> AllocationRecord {
        guard let r = records.withLock({ $0[id] }) else {
            throw .notFound(
                "allocation \(id) is not assigned to this blobber; send its signed assignment first (POST /v1/alloc/\(id)/assign)")
        }
        return r
    }

    /// Persists the allocation's own row; call inside `records.withLock`.
    private func save(_ record: AllocationRecord) throws {
        try meta.withLock { try $0.saveAllocation(record) }
    }

    /// Reads the allocation from the ledger when one is configured (at most every `ledgerRefresh`
    /// seconds) and creates or updates the local record: size and expiry follow the ledger.
    @discardableResult
    func ensureRecord(_ id: String) async throws -> AllocationRecord {
        guard let ledger = configuration.ledger else { return try record(id) }
        let fresh = refreshed.withLock {
            $0[id].map { ContinuousClock.now - $0 < .milliseconds(Int64(configuration.ledgerRefresh * 1000)) } ?? false
        }
        if fresh, let r = records.withLock({ $0[id] }) { return r }
        guard Transaction.isHexID(id) else { throw StorageRequestError.invalid("allocation id must be 64 lowercase hex characters") }
        let read: Allocation?
        do { read = try await ledger.allocation(id) } catch {
            // The node is down or cut off (a restart, a partition): an allocation this blobber
            // already holds goes on with its last terms, so uploads and downloads in flight carry on
            // (the ledger still checks every write marker when it is back); a new one must wait.
            // The next read waits for the refresh interval, so requests meanwhile do not each wait
            // for the node's connect timeout (nor each log a line).
            if let r = records.withLock({ $0[id] }) {
                refreshed.withLock { $0[id] = ContinuousClock.now }
                configuration.logger?("ledger unreachable, allocation \(id) goes on with its last terms: \(error)")
                return r
            }
            throw HTTPError.unavailable("cannot read allocation \(id) from the ledger node (\(error)); retry when the node is reachable")
        }
        guard let a = read else {
            throw StorageRequestError.notFound("allocation \(id) does not exist on the ledger")
        }
        guard let index = a.index(of: blobberID) else {
            throw StorageRequestError.forbidden("this blobber (\(blobberID)) is not one of allocation \(id)'s blobbers")
        }
        guard let owner = Ed25519.PublicKey(hex: a.ownerPublicKey) else {
            throw StorageRequestError.invalid("the allocation's owner key is malformed")
        }
        let terms = AllocationAssignment(
            allocationID: a.id, ownerPublicKey: owner, dataShards: a.dataShards, parityShards: a.parityShards,
            size: Int64(clamping: a.size), expiration: a.status == .active ? a.expiration : min(a.expiration, 0),
            blobbers: a.blobbers.map(\.blobberID), signature: "ledger")
        let r = try records.withLock { all -> AllocationRecord in
            var r = all[id] ?? AllocationRecord(assignment: terms, index: index)
            if r.assignment != terms || all[id] == nil {
                r.assignment = terms
                r.index = index
                try save(r)
                all[id] = r
            }
            return r
        }
        refreshed.withLock { $0[id] = ContinuousClock.now }
        return r
    }

    /// Sends every allocation's pending write markers to the ledger, oldest first, and forgets the
    /// ones the ledger has (markers up to its committed root for this blobber are dropped first, so
    /// a retry after a crash never sends one twice); then redeems the latest read markers.
    /// Returns failures by allocation id ("read markers" for a failed redemption).
    @discardableResult
    package func commitPendingMarkers() async -> [String: String] {
        guard let ledger = configuration.ledger else { return [:] }
        var failures: [String: String] = [:]
        let pending = records.withLock { $0.filter { !$0.value.pendingMarkers.isEmpty }.map { ($0.key, $0.value.pendingMarkers) } }
        for (id, markers) in pending {
            do {
                var todo = markers
                if let a = try await ledger.allocation(id), let i = a.index(of: blobberID),
                    let done = todo.lastIndex(where: { $0.root == a.blobbers[i].allocationRoot })
                {
                    todo.removeFirst(done + 1)
                }
                for batch in stride(from: 0, to: todo.count, by: 64).map({ Array(todo[$0..<min(todo.count, $0 + 64)]) }) {
                    try await ledger.commitWriteMarkers(batch)
                }
                let sent = Set(markers.map(\.signature))
                try records.withLock { all in
                    guard var r = all[id] else { return }
                    r.pendingMarkers.removeAll { sent.contains($0.signature) }
                    try meta.withLock { try $0.removePending(id, signatures: sent) }
                    all[id] = r
                }
            } catch {
                failures[id] = "\(error)"
            }
        }
        do { try await redeemReadMarkers(with: ledger) } catch { failures["read markers"] = "\(error)" }
        return failures
    }

    /// Accepts the first signed assignment naming this blobber; later ones must be identical.
    func assign(_ a: AllocationAssignment) throws -> AllocationRecord {
        guard configuration.ledger == nil else {
            throw StorageRequestError.forbidden("this blobber reads allocations from the ledger; create the allocation there")
        }
        try a.verify()
        guard let index = a.blobbers.firstIndex(of: blobberID) else {
            throw StorageRequestError.forbidden("this blobber (\(blobberID)) is not one of the allocation's blobbers")
        }
        return try records.withLock { all in
            if let existing = all[a.allocationID] {
                guard existing.assignment == a else {
                    throw StorageRequestError.conflict("allocation \(a.allocationID) is already assigned with other parameters")
                }
                return existing
            }
            let r = AllocationRecord(assignment: a, index: index)
            try save(r)
            all[a.allocationID] = r
            return r
        }
    }

    /// What the signature of `req` must cover (docs/STORAGE.md §11): this blobber, the allocation,
    /// method, path, query, `X-Offset`, and the body by its hash, or by its length when it is
    /// `streamed` (an upload PUT, checked against its Merkle root at commit).
    func signatureTarget(_ req: HTTPRequest, allocation: String, streamed: Bool) throws(StorageRequestError) -> RequestSignature.Target {
        var offset: Int64?
        if let text = req.headers["X-Offset"] {
            guard let v = Int64(text), v >= 0 else {
                throw .invalid("X-Offset must be a stream offset, an integer in 0…\(Int64.max)")
            }
            offset = v
        }
        let length: Int64
        if streamed {
            guard let text = req.headers["Content-Length"], let v = Int64(text.trimmingCharacters(in: .whitespaces)), v >= 0 else {
                throw .invalid("Content-Length (the body's byte count) is required")
            }
            length = v
        } else {
            length = Int64(req.body.count)
        }
        let hash = streamed ? nil : req.body.withUnsafeBytes { SHA256.hash($0) }
        return RequestSignature.Target(
            blobberID: blobberID, allocationID: allocation, method: req.method.rawValue, path: req.path,
            query: req.query, offset: offset, bodyLength: length, bodyHash: hash)
    }

    /// The verified signer of `req` (any key; callers decide what it may do).
    func verifySignature(_ req: HTTPRequest, allocation: String, streamed: Bool = false) throws(StorageRequestError)
        -> RequestSignature.Verified
    {
        try RequestSignature.verify(try signatureTarget(req, allocation: allocation, streamed: streamed), headers: { req.headers[$0] })
    }

    /// The allocation of an owner-signed request. A request that changes state (any method but
    /// GET) spends its nonce, so the same signed request is refused a second time; `spendNonce`
    /// false only checks it (the upload PUT's precheck, before its handler spends it).
    func authorize(
        _ req: HTTPRequest, allocation: String, write: Bool, streamed: Bool = false,
        spendNonce: Bool = true
    ) throws -> AllocationRecord {
        let r = try record(allocation)
        let signed = try verifySignature(req, allocation: allocation, streamed: streamed)
        guard signed.key == r.assignment.ownerPublicKey else {
            throw StorageRequestError.forbidden(
                write ? "only the allocation owner may write" : "only the allocation owner may read the allocation state")
        }
        let now = Int64(Date().timeIntervalSince1970)
        if write, r.assignment.expiration <= now {
            throw StorageRequestError.expired("allocation \(allocation) expired at \(r.assignment.expiration); extend it before writing")
        }
        if req.method != .get {
            if spendNonce {
                try nonces.use(signed.nonce, allocation: allocation, time: signed.time, now: now)
            } else if nonces.contains(signed.nonce, allocation: allocation) {
                throw StorageRequestError.unauthorized(
                    "this signed request was already used (X-Mosaic-Nonce repeats); sign every request with a new nonce")
            }
        }
        return r
    }

    // MARK: Uploads

    /// The open writer of an upload (reopened from its bytes on disk when it was closed). Writers
    /// idle for `idleUploadTimeout` give back their file descriptors: clients that vanish
    /// mid-upload must not keep them forever.
    func writer(allocation: String, upload: String) throws -> FragmentWriter {
        guard upload.utf8.count <= 100 else { throw StorageRequestError.invalid("an upload id has at most 100 characters") }
        return try uploads.writer(allocation: allocation, upload: upload)
    }

    /// Uploads with an open writer ("allocation.upload").
    var openUploads: Set<String> { uploads.openWriters }

    func uploadLength(allocation: String, upload: String) throws -> Int64 {
        do { try FragmentStore.validate(upload) } catch {
            throw StorageRequestError.invalid("upload ids are 1–100 of A–Z a–z 0–9 . _ - (not starting with .)")
        }
        return uploads.length(allocation: allocation, upload: upload)
    }

    func discard(allocation: String, upload: String) throws {
        do { try FragmentStore.validate(upload) } catch {
            throw StorageRequestError.invalid("upload ids are 1–100 of A–Z a–z 0–9 . _ - (not starting with .)")
        }
        try uploads.discard(allocation: allocation, upload: upload)
    }

    // MARK: Commit

    /// Applies `commit` atomically: verifies the marker and every metadata signature, checks that the
    /// marker's root is the root of the resulting entries, checks each uploaded fragment's Merkle root
    /// against the metadata, publishes the fragments, then records it. Any failure leaves the
    /// previous state untouched.
    ///
    /// The record is changed in place, not copied (its maps grow with the files held, so a copy
    /// per commit made every write cost more as the allocation filled): it is taken out of the
    /// table so nothing else shares its storage, each touched path's previous entry goes into an
    /// undo log, and a failure puts those back. Root and size are updated from the changed paths only.
    func apply(_ commit: BlobberWire.Commit, allocation: String) throws -> BlobberWire.AllocationState {
        try records.withLock { all in
            guard var r = all.removeValue(forKey: allocation) else {
                throw StorageRequestError.notFound("allocation \(allocation) is not assigned to this blobber")
            }
            defer { all[allocation] = r }
            let a = r.assignment
            let owner = a.ownerPublicKey
            let m = commit.writeMarker
            do { try m.verify(ownerPublicKey: owner.hex) } catch {
                throw StorageRequestError.forbidden("write marker refused: \(error)")
            }
            guard m.allocationID == allocation, m.blobberID == blobberID else {
                throw StorageRequestError.invalid(
                    "the write marker is for allocation \(m.allocationID) on blobber \(m.blobberID), not \(allocation) on \(blobberID)")
            }
            guard m.previousRoot == r.root else {
                throw StorageRequestError.staleRoot(
                    "write marker previous_root \(m.previousRoot) is not this blobber's root \(r.root); another write landed first, refresh and retry"
                )
            }
            let now = Int64(Date().timeIntervalSince1970)
            if a.expiration <= now {
                throw StorageRequestError.expired("allocation \(allocation) expired at \(a.expiration); extend it before writing")
            }
            // The ledger's rules for a marker (storage.commit_write_markers): a marker it would refuse
            // would block every later one of this blobber, so it is refused here first.
            if let last = r.writeMarker?.timestamp, m.timestamp <= last {
                throw StorageRequestError.invalid(
                    "the write marker's timestamp \(m.timestamp) is not after the previous marker's \(last); write markers' timestamps (milliseconds) must strictly increase: sign it with at least \(last) + 1"
                )
            }
            let nowMillis = Int64(Date().timeIntervalSince1970 * 1000)
            let (latest, overflow) = nowMillis.addingReportingOverflow(Self.markerClockSkew * 1000)
            guard overflow || m.timestamp <= latest else {
                throw StorageRequestError.invalid(
                    "the write marker's timestamp \(m.timestamp) (ms) is more than \(Self.markerClockSkew) s ahead of the blobber's clock \(nowMillis); check your clock"
                )
            }
            guard commit.changes.count <= configuration.maxChangesPerCommit else {
                throw StorageRequestError.invalid(
                    "a commit carries at most \(configuration.maxChangesPerCommit) changes, this one \(commit.changes.count); split it into several commits"
                )
            }
            let before = (root: r.root, size: r.size, count: r.files.count, writeMarker: r.writeMarker)
            // Path → its entry before this commit (nil: it did not exist), for each path touched.
            var undo: [String: AllocationRecord.StoredFile?] = [:]
            func remember(_ path: String) {
                if undo.index(forKey: path) == nil { undo.updateValue(r.files[path], forKey: path) }
            }
            /// The entry at `path` before this commit.
            func original(_ path: String) -> AllocationRecord.StoredFile? {
                if let i = undo.index(forKey: path) { return undo.values[i] }
                return r.files[path]
            }
            func rollBack() {
                for (path, old) in undo {
                    r.files[path] = old
                    if let old { try? r.leaves.set(AllocationRoot.entry(old.meta, index: r.index)) } else { r.leaves.remove(path) }
                }
                (r.root, r.size, r.writeMarker) = (before.root, before.size, before.writeMarker)
            }
            var fromUploads: [(upload: String, meta: FileMeta)] = []
            var links: [(from: String, to: String)] = []
            do {
                for change in commit.changes {
                    switch change.op {
                    case .delete:
                        guard let path = change.path else { throw StorageRequestError.invalid("a delete needs a path") }
                        guard r.files[path] != nil else { throw StorageRequestError.notFound("\(path) does not exist") }
                        for p in r.leaves.removeAll(within: path) {
                            remember(p)
                            r.files[p] = nil
                        }
                    case .put:
                        guard let meta = change.meta else { throw StorageRequestError.invalid("a put needs metadata") }
                        try meta.verify(owner: owner)
                        guard meta.allocationID == allocation else {
                            throw StorageRequestError.invalid("metadata of \(meta.path) is for another allocation")
                        }
                        if meta.kind == .file, meta.dataShards != a.dataShards || meta.parityShards != a.parityShards {
                            throw StorageRequestError.invalid(
                                "metadata of \(meta.path) uses \(meta.dataShards)+\(meta.parityShards) shards, the allocation \(a.dataShards)+\(a.parityShards)"
                            )
                        }
                        if let existing = r.files[meta.path], change.replace != true || existing.meta.kind != meta.kind {
                            throw StorageRequestError.alreadyExists("\(meta.path) already exists; delete it first or upload with replace")
                        }
                        var fragment: String?
                        if let upload = change.uploadID {
                            try FragmentStore.validate(upload)
                            fragment = "u-" + upload
                            guard let f = fragment, !store.contains(allocation: allocation, file: f) else {
                                throw StorageRequestError.conflict("upload \(upload) was already committed; start a new upload id")
                            }
                            fromUploads.append((upload, meta))
                        } else if let source = change.source {
                            guard let src = original(source) else { throw StorageRequestError.notFound("\(source) does not exist") }
                            guard src.meta.kind == .file, src.meta.fragmentRoots[safe: r.index] == meta.fragmentRoots[safe: r.index],
                                src.meta.fragmentLength == meta.fragmentLength
                            else {
                                throw StorageRequestError.invalid("\(meta.path) must have the same fragments as its source \(source)")
                            }
                            if let f = src.fragment {
                                let id = "c-" + Hex.encodeRandom()
                                links.append((f, id))
                                fragment = id
                            }
                        } else if meta.kind == .file && meta.fragmentLength > 0 {
                            throw StorageRequestError.invalid("\(meta.path) has content: give an upload_id or a source")
                        }
                        remember(meta.path)
                        r.files[meta.path] = .init(meta: meta, fragment: fragment)
                        do { try r.leaves.set(AllocationRoot.entry(meta, index: r.index)) } catch {
                            throw StorageRequestError.invalid("\(error)")
                        }
                    }
                }
                guard r.files.count <= configuration.maxEntriesPerAllocation || r.files.count <= before.count else {
                    throw StorageRequestError.full(
                        "allocation \(allocation) would hold \(r.files.count) files and folders on this blobber, more than the \(configuration.maxEntriesPerAllocation) it keeps per allocation; delete some first"
                    )
                }
                let root = r.leaves.root
                // The committed size is the exact sum (it passed the capacity check below), so the
                // new one is it less the touched paths' old bytes plus their new ones (saturating,
                // as `AllocationRoot.size`).
                let removed = AllocationRoot.size(of: undo.values.lazy.compactMap { $0?.meta })
                let added = AllocationRoot.size(of: undo.keys.lazy.compactMap { r.files[$0]?.meta })
                let (size, overflow) = (before.size - min(removed, before.size)).addingReportingOverflow(added)
                let newSize = overflow ? UInt64.max : size
                guard m.root == root, m.size == newSize else {
                    throw StorageRequestError.invalid(
                        "the write marker says root \(m.root) size \(m.size) but the changes give root \(root) size \(newSize); recompute it from GET /v1/alloc/\(allocation)/files?recursive=1"
                    )
                }
                guard newSize <= UInt64(max(0, a.perBlobberCapacity)) else {
                    throw StorageRequestError.full(
                        "allocation \(allocation) is full on this blobber: \(newSize) bytes needed, \(a.perBlobberCapacity) allowed; grow the allocation or delete files"
                    )
                }
                // Publish fragments; undo on any failure so nothing partial stays.
                var published: [String] = []
                do {
                    for (upload, meta) in fromUploads {
                        let w = try writer(allocation: allocation, upload: upload)
                        guard let root = meta.fragmentRoots[safe: r.index].flatMap({ Hex.decode($0) }) else {
                            throw StorageRequestError.invalid("metadata of \(meta.path) has no fragment root for blobber \(r.index)")
                        }
                        do {
                            try w.commit(expectedRoot: root, expectedLength: meta.fragmentLength)
                        } catch let e as StorageError {
                            uploads.remove(allocation: allocation, upload: upload)
                            throw StorageRequestError.invalid(
                                "fragment of \(meta.path) does not match its signed metadata (\(e)); upload it again")
                        }
                        uploads.remove(allocation: allocation, upload: upload)
                        published.append("u-" + upload)
                    }
                    for (from, to) in links {
                        try store.link(allocation: allocation, from: from, to: to)
                        published.append(to)
                    }
                    let erases = undo.values.contains { $0 != nil }
                    r.root = root
                    r.size = newSize
                    r.writeMarker = m
                    r.pendingMarkers.append(m)
                    do {
                        try meta.withLock { try $0.commit(r, paths: Set(undo.keys), marker: m, erases: erases) }
                    } catch {
                        r.pendingMarkers.removeLast()
                        throw error
                    }
                } catch {
                    for f in published { try? store.delete(allocation: allocation, file: f) }
                    throw error
                }
            } catch {
                rollBack()
                throw error
            }
            // Fragment files are one per path (an upload's own, or a fresh link for a copy), so the
            // ones to delete are the touched paths' old fragments that no path still names.
            let kept = Set(undo.keys.compactMap { r.files[$0]?.fragment })
            for f in undo.values.compactMap({ $0?.fragment }) where !kept.contains(f) { try? store.delete(allocation: allocation, file: f) }
            return state(r)
        }
    }

    func state(_ r: AllocationRecord) -> BlobberWire.AllocationState {
        BlobberWire.AllocationState(
            allocationID: r.assignment.allocationID, blobberID: blobberID, index: r.index, root: r.root,
            size: r.size, capacity: r.assignment.perBlobberCapacity, fileCount: r.files.count,
            expiration: r.assignment.expiration, writeMarker: r.writeMarker)
    }

    // MARK: Reads

    func list(_ r: AllocationRecord, path: String, recursive: Bool) throws -> [FileMeta] {
        if path != "/" {
            guard let f = r.files[path] else { throw StorageRequestError.notFound("\(path) does not exist") }
            if f.meta.kind == .file { return [f.meta] }
        }
        // The range of sorted paths below the folder (byte order), not a pass over every file.
        return r.leaves.sortedPaths(within: path).compactMap { p in
            guard recursive || RemotePath.parent(p) == path else { return nil }
            return r.files[p]?.meta
        }
    }

    func blocks(_ r: AllocationRecord, path: String, range: Range<Int>) throws -> [FragmentBlock] {
        guard let f = r.files[path], f.meta.kind == .file else { throw StorageRequestError.notFound("\(path) does not exist") }
        guard let fragment = f.fragment else {
            guard range.isEmpty else { throw StorageRequestError.invalid("\(path) has no blocks") }
            return []
        }
        return try store.readBlocks(allocation: r.assignment.allocationID, file: fragment, range: range)
    }
}
