import Foundation
import MosaicCrypto
import MosaicErrors
import MosaicHTTP
import MosaicProtocol
import MosaicStorageCore
import Synchronization

/// The client side of storage: upload, download, folders and repair over an allocation's blobbers.
///
/// Every write is an owner-signed change plus one write marker per blobber, applied by each
/// blobber atomically; a write succeeds when d + 1 blobbers applied it, and the ones that missed it
/// are recorded in `$MOSAIC_HOME/repairs.json` for `repair(allocation:)`. Uploads keep a journal
/// under `$MOSAIC_HOME/uploads/` and continue where they stopped when run again.
public final class StorageClient: Sendable {
    /// Tuning for transfers; the defaults suit a desktop and loopback tests alike.
    public struct Configuration: Sendable {
        /// Seconds without progress before a blobber request fails (and that blobber is dropped).
        public var requestTimeout: TimeInterval = 30
        /// Chunks coded per batch (the client holds two batches of fragments at a time).
        public var chunksPerBatch = 16
        /// The most one upload PUT carries to a blobber when the file's size is known: the batches
        /// of a fragment stream into PUTs of up to this many bytes (a PUT per batch cost a round
        /// trip each). Memory does not grow with it; a resume loses nothing by it either, since a
        /// blobber keeps what arrived of a PUT cut short.
        public var uploadRequestBytes: Int64 = 64 << 20
        /// Files a repair rebuilds onto one blobber before it commits them: well below a blobber's
        /// bound on uncommitted uploads (`BlobberServer.Configuration.maxOpenUploads`, 1024).
        public var repairBatch = 256
        /// Shortest wait, once a read has enough answers, for blobbers that have not answered its
        /// metadata yet (a blobber cut off would otherwise hold every read for a timeout); see `resolve`.
        public var lagGrace: Duration = .milliseconds(500)
        /// Bytes of files per second this client's uploads and downloads may move on average, all
        /// together (nil: as fast as they go), for a user who shares a slow link. An upload sends
        /// (d + p) / d times that to the blobbers. A folder's files share it.
        public var rateLimit: Int64?
        /// The defaults.
        public init() {}
    }

    /// The wallet key that signs requests, metadata and markers (the owner's, or a reader's).
    public let key: Ed25519.SigningKey
    /// The Mosaic home folder, where the repair log and upload journals are kept.
    public let home: URL
    /// The tuning in use.
    public let configuration: Configuration
    /// Holds every transfer of this client to `configuration.rateLimit`, when set.
    let pacer: RatePacer?
    private let repairLock = NSLock()
    let readCounters = ReadCounters()
    let listings = ListingCache()
    /// One metadata client per blobber URL, shared by every operation: a new URLSession per
    /// operation cost a TCP connection and its setup on each small write.
    private let httpClients = Mutex<[URL: HTTPClient]>([:])

    /// - Parameters:
    ///   - signingKey: the wallet key that signs.
    ///   - home: the Mosaic home folder (repair log, upload journals).
    ///   - configuration: transfer tuning.
    public init(signingKey: Ed25519.SigningKey, home: URL, configuration: Configuration = Configuration()) {
        key = signingKey
        self.home = home
        self.configuration = configuration
        pacer = configuration.rateLimit.map { RatePacer(bytesPerSecond: $0) }
    }

    /// A client that signs with an unlocked wallet's key.
    /// - Parameters:
    ///   - wallet: the unlocked wallet.
    ///   - home: the Mosaic home folder.
    ///   - configuration: transfer tuning.
    public convenience init(wallet: UnlockedWallet, home: URL, configuration: Configuration = Configuration()) {
        self.init(signingKey: wallet.signingKey, home: home, configuration: configuration)
    }

    var now: Int64 { Int64(Date().timeIntervalSince1970) }

    func connections(_ a: StorageAllocation, ticket: AuthTicket? = nil) -> [BlobberConnection] {
        let timeout = configuration.requestTimeout
        return a.blobbers.enumerated().map { i, b in
            let http = httpClients.withLock { all in
                if let c = all[b.url] { return c }
                let c = BlobberConnection.client(for: b.url, timeout: timeout)
                all[b.url] = c
                return c
            }
            return BlobberConnection(
                index: i, blobber: b, allocation: a.id, ownerID: a.ownerPublicKey.clientID, key: key,
                timeout: timeout, ticket: ticket, counters: readCounters, http: http)
        }
    }

    func checkWritable(_ a: StorageAllocation) throws {
        guard a.ownerPublicKey == key.publicKey else {
            throw StorageClientError.invalidAllocation("allocation \(a.id) belongs to \(a.ownerPublicKey.clientID), not to this wallet")
        }
        guard a.expiration > now else { throw StorageClientError.expired(allocation: a.id, at: a.expiration) }
    }

    /// Sends the owner-signed assignment to every blobber (allocation setup without a ledger).
    /// Returns the blobbers that refused or were unreachable.
    /// - Parameters:
    ///   - assignment: the owner-signed assignment.
    ///   - allocation: the allocation it sets up.
    /// - Returns: blobber index → reason for each one that did not take it; empty when all did.
    @discardableResult
    public func assign(_ assignment: AllocationAssignment, to allocation: StorageAllocation) async -> [Int: String] {
        await forEach(connections(allocation)) { c in _ = try await c.assign(assignment) }.mapValues(\.message)
    }

    /// Runs `body` on every connection concurrently; returns the failures by blobber index.
    func forEach(_ conns: [BlobberConnection], _ body: @escaping @Sendable (BlobberConnection) async throws -> Void) async -> [Int:
        SinkFailure]
    {
        await Fanout.failures(conns.map { ($0.index, $0) }, body).mapValues(Self.failure)
    }

    static func reason(_ error: any Error) -> String {
        if let e = error as? HTTPClientError { return e.status == 0 ? "unreachable (\(e.message))" : e.message }
        return "\(error)"
    }

    /// `reason` with the error's code, which the quorum summaries decide on.
    static func failure(_ error: any Error) -> SinkFailure {
        SinkFailure(code: errorCode(of: error), message: reason(error))
    }

    // MARK: Commits

    /// Applies changes on one blobber: reads its root and files (from `listings` when this client
    /// made the last write there; else listed and checked), lets `build` decide the changes from
    /// them, signs the write marker for the resulting root and commits. Nothing is signed over a
    /// state that does not check out (`checkedState`, `checkedListing`). Retries if another write
    /// landed in between.
    @discardableResult
    func commit(
        _ c: BlobberConnection, allocation a: StorageAllocation,
        build: @Sendable ([String: FileMeta]) throws -> [BlobberWire.Change]
    ) async throws -> (state: BlobberWire.AllocationState, changes: [BlobberWire.Change]) {
        try await CommitQueue.shared.serially(a.id + "/" + c.blobber.id) {
            try await commitNow(c, allocation: a, build: build)
        }
    }

    private func commitNow(
        _ c: BlobberConnection, allocation a: StorageAllocation,
        build: @Sendable ([String: FileMeta]) throws -> [BlobberWire.Change]
    ) async throws -> (state: BlobberWire.AllocationState, changes: [BlobberWire.Change]) {
        var attempt = 0
        while true {
            attempt += 1
            let state = try await checkedState(c, allocation: a)
            // The cached listing is taken out of the cache, so that the changes below update it in
            // place instead of copying maps that grow with the files; it goes back on any failure.
            var files: [String: FileMeta]
            var leaves: AllocationLeaves
            if let cached = listings.take(allocation: a.id, blobber: c.blobber.id, root: state.root) {
                (files, leaves) = (cached.files, cached.leaves)
            } else {
                (files, leaves) = try checkedListing(try await c.list("/", recursive: true), of: c, state: state, allocation: a)
            }
            // Path → its entry before the changes (nil: absent), for each path they touch.
            var undo: [String: FileMeta?] = [:]
            func keepListing() {
                for (path, old) in undo {
                    files[path] = old
                    if let old { try? leaves.set(AllocationRoot.entry(old, index: c.index)) } else { leaves.remove(path) }
                }
                undo = [:]
                listings.store(allocation: a.id, blobber: c.blobber.id, .init(root: state.root, files: files, leaves: leaves))
            }
            func remember(_ path: String) {
                if undo.index(forKey: path) == nil { undo.updateValue(files[path], forKey: path) }
            }
            let changes: [BlobberWire.Change]
            do { changes = try build(files) } catch {
                keepListing()
                throw error
            }
            if changes.isEmpty {
                keepListing()
                return (state, [])
            }
            do {
                for ch in changes {
                    switch ch.op {
                    case .delete:
                        if let p = ch.path {
                            for k in leaves.removeAll(within: p) {
                                remember(k)
                                files[k] = nil
                            }
                        }
                    case .put:
                        if let m = ch.meta {
                            remember(m.path)
                            files[m.path] = m
                            try leaves.set(AllocationRoot.entry(m, index: c.index))
                        }
                    }
                }
            } catch {
                keepListing()
                throw error
            }
            // The checked state's size is exact (its marker's); the new one changes by the touched
            // paths only (saturating, as `AllocationRoot.size`).
            let removed = min(AllocationRoot.size(of: undo.values.lazy.compactMap { $0 }), state.size)
            let (sum, overflow) = (state.size - removed).addingReportingOverflow(
                AllocationRoot.size(of: undo.keys.lazy.compactMap { files[$0] }))
            // Milliseconds, strictly increasing per blobber (the ledger refuses a marker not after
            // the last, and another device's clock may be ahead): a second write within the same
            // millisecond signs the next one.
            let after = state.writeMarker.map { $0.timestamp == .max ? Int64.max : $0.timestamp + 1 } ?? .min
            var marker = WriteMarker(
                allocationID: a.id, blobberID: c.blobber.id, clientID: key.publicKey.clientID,
                previousRoot: state.root, root: leaves.root,
                size: overflow ? .max : sum,
                timestamp: max(Int64(Date().timeIntervalSince1970 * 1000), after))
            marker.sign(with: key)
            do {
                let committed = try await c.commit(BlobberWire.Commit(changes: changes, writeMarker: marker))
                listings.store(
                    allocation: a.id, blobber: c.blobber.id,
                    .init(root: marker.root, files: files, leaves: leaves, timestamp: marker.timestamp))
                return (committed, changes)
            } catch let e as HTTPClientError where e.code == StorageRequestError.staleRoot("").code && attempt < 3 {
                keepListing()
                continue
            } catch {
                keepListing()
                throw error
            }
        }
    }

    /// A blobber's state, checked before anything is signed over it: it names this blobber and
    /// allocation; a root other than the empty one comes with the owner's write marker for exactly
    /// that root and size; and it is not older than the root the ledger committed for the blobber
    /// (when the allocation was read from the ledger) nor than the last marker this client signed
    /// there. A blobber may be ahead of the ledger (its markers wait to be committed), never behind.
    func checkedState(_ c: BlobberConnection, allocation a: StorageAllocation) async throws -> BlobberWire.AllocationState {
        let state = try await c.state()
        try check(state, of: c, allocation: a)
        return state
    }

    /// The checks of `checkedState` on a state the blobber sent.
    func check(_ state: BlobberWire.AllocationState, of c: BlobberConnection, allocation a: StorageAllocation) throws {
        guard state.blobberID == c.blobber.id else {
            throw StorageClientError.invalidAllocation(
                "blobber \(c.index) at \(c.blobber.url) answers as \(state.blobberID), expected \(c.blobber.id)")
        }
        func untrusted(_ why: String) -> StorageClientError { .untrustedBlobber(index: c.index, reason: why) }
        guard state.allocationID == a.id else { throw untrusted("it answered for allocation \(state.allocationID), not \(a.id)") }
        if let m = state.writeMarker {
            do { try m.verify(ownerPublicKey: a.ownerPublicKey.hex) } catch {
                throw untrusted("its latest write marker is not signed by the owner (\(error))")
            }
            guard m.allocationID == a.id, m.blobberID == c.blobber.id, m.root == state.root, m.size == state.size else {
                throw untrusted("its latest write marker is not the owner's marker for its root \(state.root) of \(state.size) bytes")
            }
        } else if state.root != AllocationRoot.empty || state.size != 0 {
            throw untrusted("it shows root \(state.root) without the owner's write marker for it")
        }
        let shown = state.writeMarker?.timestamp ?? .min
        if let committed = c.blobber.committedRoot, committed != state.root,
            shown < (c.blobber.committedTimestamp ?? .min) || state.writeMarker == nil
        {
            throw untrusted(
                "it shows root \(state.root), older than the root \(committed) the ledger committed for it (stale or rolled back)")
        }
        if let mine = listings.latestTimestamp(allocation: a.id, blobber: c.blobber.id), shown < mine {
            throw untrusted("it shows a write marker from \(shown), older than the one this client signed there at \(mine) (rolled back)")
        }
    }

    /// A blobber's full listing, checked against its (already checked) state: every entry is
    /// owner-signed metadata of this allocation, no path twice, and together they give exactly the
    /// root and size of the owner's write marker. So an added, dropped or altered entry is refused.
    /// Whether `entries`, the listing of `folder` a blobber sent with `proof`, are exactly that
    /// folder's entries under the owner's write marker (checked as `checkedState` does): the
    /// trie over them, climbed through the proof's steps (all above the folder's subtree), gives
    /// the marker's root. Each leaf commits to its entry's digest, so every entry is then the
    /// owner's without a signature check of its own, and none was dropped or added.
    /// True when `listing` is exactly the blobber's entries directly in `folder`, and `proof` (the
    /// listing's own) climbs from their subtree to the root of the owner's write marker in its
    /// state: then every entry is the owner's signed bytes, with no signature checked.
    func proves(
        _ listing: FolderListing, folder: String, proof: BlobberWire.FolderProof?, of c: BlobberConnection, allocation a: StorageAllocation
    ) -> Bool {
        guard let proof, let steps = proof.steps, !listing.entries.isEmpty,
            (try? check(proof.state, of: c, allocation: a)) != nil
        else { return false }
        let folderKey = AllocationTrie.folderKey(folder)
        var leaves: [AllocationTrie.Leaf] = []
        leaves.reserveCapacity(listing.entries.count)
        for (i, e) in listing.entries.enumerated() {
            let (parent, name) = AllocationTrie.split(e.path)
            guard e.inAllocation, parent == folder, let leaf = listing.leaf(i, name: name, folderKey: folderKey) else { return false }
            leaves.append(leaf)
        }
        guard let sub = try? AllocationTrie.subtree(of: leaves),
            let top = AllocationTrie.climb(
                hash: sub.hash, count: sub.count, bytes: sub.bytes, key: folderKey, under: AllocationTrie.folderBits, steps: steps)
        else { return false }
        return AllocationTrie.root(count: top.count, size: top.bytes, trieRoot: top.hash) == proof.state.root
    }

    func checkedListing(
        _ entries: [FileMeta], of c: BlobberConnection, state: BlobberWire.AllocationState,
        allocation a: StorageAllocation
    ) throws -> (files: [String: FileMeta], leaves: AllocationLeaves) {
        func untrusted(_ why: String) -> StorageClientError { .untrustedBlobber(index: c.index, reason: why) }
        var files: [String: FileMeta] = [:]
        files.reserveCapacity(entries.count)
        for m in entries {
            guard m.allocationID == a.id, (try? m.verify(owner: a.ownerPublicKey)) != nil else {
                throw untrusted("its listing has an entry for \(m.path) that is not the owner's signed metadata of this allocation")
            }
            guard files.updateValue(m, forKey: m.path) == nil else { throw untrusted("its listing names \(m.path) twice") }
        }
        var leaves: AllocationLeaves
        do { leaves = try AllocationRoot.leaves(of: files.values, index: c.index) } catch {
            throw untrusted("its listing cannot form an allocation tree (\(error))")
        }
        guard leaves.root == state.root, AllocationRoot.size(of: files.values) == state.size else {
            throw untrusted("its file list does not match its committed root \(state.root) (an entry was added, dropped or altered)")
        }
        return (files, leaves)
    }

    /// Commits on every blobber in `indices` concurrently; succeeds when `quorum` applied it.
    /// Missed blobbers are logged for repair. Below quorum, `undo` is committed on the ones that
    /// applied (nothing partial stays) and the best blobber error is thrown.
    func commitAll(
        _ a: StorageAllocation, indices: [Int], quorum: Int, path: String,
        build: @escaping @Sendable (Int, [String: FileMeta]) throws -> [BlobberWire.Change],
        undo: (@Sendable (Int, [String: FileMeta]) throws -> [BlobberWire.Change])? = nil
    ) async throws -> (ok: [Int], failed: [Int: String]) {
        let conns = connections(a).filter { indices.contains($0.index) }
        let failures = await forEach(conns) { c in
            try await self.commit(c, allocation: a) { try build(c.index, $0) }
        }
        let ok = indices.filter { failures[$0] == nil }.sorted()
        var failed = failures.mapValues(\.message)
        for i in 0..<a.totalShards where !indices.contains(i) && failed[i] == nil { failed[i] = "skipped (failed earlier)" }
        if ok.count < quorum {
            if let undo {
                _ = await forEach(conns.filter { ok.contains($0.index) }) { c in
                    try await self.commit(c, allocation: a) { try undo(c.index, $0) }
                }
            }
            throw Self.summarize(failures, needed: quorum, reached: ok.count, path: path, allocation: a)
        }
        if !failed.isEmpty { recordRepairs(a, path: path, failed: failed) }
        return (ok, failed)
    }

    /// The clearest error for a failed quorum: a shared user-facing cause (exists, missing, full,
    /// expired) when the blobbers agree on one, else the list of reasons.
    static func summarize(
        _ failures: [Int: SinkFailure], needed: Int, reached: Int, path: String, allocation a: StorageAllocation
    ) -> StorageClientError {
        let all = failures.sorted { $0.key < $1.key }.map(\.value)
        if all.contains(where: { $0.code == StorageRequestError.alreadyExists("").code }) { return .alreadyExists(path: path) }
        if all.contains(where: { $0.code == StorageRequestError.notFound("").code }) { return .notFound(path: path) }
        if let full = all.first(where: { $0.code == StorageRequestError.full("").code }) { return .full(full.message) }
        if all.contains(where: { $0.code == StorageRequestError.expired("").code }) {
            // The blobbers' clock says it ended: by now at the latest, whatever a stale copy says.
            return .expired(allocation: a.id, at: min(a.expiration, Int64(Date().timeIntervalSince1970)))
        }
        return .tooFewBlobbers(needed: needed, reached: reached, failures: failures.mapValues(\.message))
    }

    func recordRepairs(_ a: StorageAllocation, path: String, failed: [Int: String]) {
        recordRepairs(a, paths: [(path, failed)])
    }

    /// Many paths in one read and write of the log (a batch with a blobber down misses them all).
    func recordRepairs(_ a: StorageAllocation, paths: [(path: String, failed: [Int: String])]) {
        repairLock.withLock {
            var log = RepairLog.load(home: home)
            let touched = Set(paths.map(\.path))
            let renewed = Set(paths.flatMap { p in p.failed.keys.map { "\($0)\n\(p.path)" } })
            log.items.removeAll { $0.allocationID == a.id && touched.contains($0.path) && renewed.contains("\($0.blobber)\n\($0.path)") }
            for (path, failed) in paths {
                for (i, why) in failed.sorted(by: { $0.key < $1.key }) {
                    log.items.append(.init(allocationID: a.id, path: path, blobber: i, reason: why, time: now))
                }
            }
            try? log.save(home: home)
        }
    }

    /// Blobbers recorded as missing writes for an allocation (blobber index → paths).
    /// - Parameter allocation: the allocation id.
    /// - Returns: the paths each blobber missed; empty when none is recorded.
    public func pendingRepairs(allocation: String) -> [Int: [String]] {
        repairLock.withLock {
            var out: [Int: [String]] = [:]
            for item in RepairLog.load(home: home).items where item.allocationID == allocation {
                out[item.blobber, default: []].append(item.path)
            }
            return out
        }
    }

    func clearRepairs(_ allocation: String, blobbers: Set<Int>) {
        repairLock.withLock {
            var log = RepairLog.load(home: home)
            log.items.removeAll { $0.allocationID == allocation && blobbers.contains($0.blobber) }
            try? log.save(home: home)
        }
    }

    // MARK: Reading metadata

    /// Metadata at `path` as most blobbers report it (each copy's owner signature checked), with the
    /// blobbers that hold exactly that version, fastest first.
    ///
    /// With `early`, a read does not wait out blobbers that are down or cut off (each would hold it
    /// for a connect timeout): once n − d blobbers answered and one version has d holders, the rest
    /// get a short grace (`Configuration.lagGrace`, at least 4× the slowest answer so far) and are
    /// then left out; once every blobber answered, the read goes on at once.
    /// n − d answers always include a copy of the latest committed write, which reached d + 1.
    /// Writers pass `early: false`: they need every blobber's view (which ones miss the file).
    /// Blobbers in `awaiting` (a reader's preferred ones) are always waited for.
    func resolve(
        _ path: String, allocation a: StorageAllocation, ticket: AuthTicket? = nil, early: Bool = false, awaiting: Set<Int> = []
    ) async throws -> (meta: FileMeta, holders: [Int]) {
        try RemotePath.validate(path)
        let conns = connections(a, ticket: ticket)
        let enough = max(1, a.totalShards - a.dataShards)
        let grace = configuration.lagGrace
        enum Event: Sendable {
            case answer(Int, Duration, FileMeta?, SinkFailure?)
            case graceOver
        }
        let answers = await withTaskGroup(of: Event.self) { group in
            for c in conns {
                group.addTask {
                    let clock = ContinuousClock()
                    let start = clock.now
                    do {
                        let m = try await c.stat(path)
                        return .answer(c.index, clock.now - start, m, nil)
                    } catch {
                        return .answer(c.index, clock.now - start, nil, Self.failure(error))
                    }
                }
            }
            var out: [(Int, Duration, FileMeta?, SinkFailure?)] = []
            var holdersByHash: [String: Int] = [:]
            var slowest: Duration = .zero
            var waiting = false
            while let event = await group.next() {
                switch event {
                case .answer(let i, let t, let m, let e):
                    out.append((i, t, m, e))
                    slowest = max(slowest, t)
                    if let m, m.allocationID == a.id, m.path == path, (try? m.verify(owner: a.ownerPublicKey)) != nil {
                        holdersByHash[m.hash, default: 0] += 1
                    }
                    // Checked before the grace: the last answer must not wait out a grace set
                    // for it (the read sat out the whole grace, 500 ms, whenever everyone answered).
                    if out.count == conns.count {
                        group.cancelAll()
                        return out
                    }
                    guard early, !waiting, out.count >= enough,
                        holdersByHash.values.contains(where: { $0 >= a.dataShards }),
                        awaiting.isSubset(of: out.map(\.0))
                    else { continue }
                    waiting = true
                    let wait = max(grace, slowest * 4)
                    group.addTask {
                        try? await Task.sleep(for: wait)
                        return .graceOver
                    }
                case .graceOver:
                    group.cancelAll()
                    return out
                }
            }
            return out
        }
        var byHash: [String: (meta: FileMeta, holders: [(Int, Duration)])] = [:]
        var failures: [Int: SinkFailure] = [:]
        var missing = 0
        for (i, t, m, e) in answers {
            if let e {
                failures[i] = e
                continue
            }
            guard let m else {
                missing += 1
                continue
            }
            guard m.allocationID == a.id, m.path == path, (try? m.verify(owner: a.ownerPublicKey)) != nil else {
                failures[i] = SinkFailure(code: "untrusted_blobber", message: "served metadata that is not signed by the owner")
                continue
            }
            byHash[m.hash, default: (m, [])].holders.append((i, t))
        }
        guard let best = byHash.values.max(by: { ($0.holders.count, $0.meta.modified) < ($1.holders.count, $1.meta.modified) }) else {
            if missing > 0 { throw StorageClientError.notFound(path: path) }
            if failures.values.contains(where: { $0.code == StorageRequestError.ticketRevoked("").code }) {
                throw StorageClientError.ticketRevoked(path: path)
            }
            throw StorageClientError.unreadable(
                path: path, reason: failures.sorted { $0.key < $1.key }.map { "blobber \($0.key): \($0.value)" }.joined(separator: "; "))
        }
        return (best.meta, Self.readingOrder(best.holders, dataShards: a.dataShards))
    }

    /// Holders fastest first, except that among those about as fast as the fastest (within 4× its
    /// answer time plus 20 ms) data fragments come before parity ones: reading every data fragment
    /// makes decoding a plain copy, while one parity fragment costs rebuilding every chunk (a
    /// quarter more client CPU for a 4+2 download). Metadata answer times that close apart say
    /// little about which blobber will serve blocks faster (on a busy machine they swing by tens of
    /// ms), and a data blobber that then lags is dropped as slow by the decoder anyway.
    static func readingOrder(_ holders: [(index: Int, took: Duration)], dataShards d: Int) -> [Int] {
        let byTime = holders.sorted { $0.took < $1.took }
        guard let fastest = byTime.first?.took else { return [] }
        let near = fastest * 4 + .milliseconds(20)
        let close = byTime.filter { $0.took <= near }
        let rest = byTime.filter { $0.took > near }
        return close.filter { $0.index < d }.map(\.index) + close.filter { $0.index >= d }.map(\.index) + rest.map(\.index)
    }

    /// Metadata of one path; another wallet reads it with the owner's `ticket`.
    /// - Parameters:
    ///   - path: the remote path.
    ///   - allocation: the allocation.
    ///   - ticket: the owner's auth ticket when this wallet is not the owner.
    /// - Returns: the signed metadata most blobbers agree on.
    /// - Throws: `StorageClientError.notFound` when no such path exists, `.unreadable` or
    ///   `.tooFewBlobbers` when too few blobbers answer, `StorageRequestError` for a malformed path.
    public func stat(_ path: String, allocation: StorageAllocation, ticket: AuthTicket? = nil) async throws -> FileMeta {
        try await resolve(path, allocation: allocation, ticket: ticket, early: true).meta
    }

    /// Entries of a folder ("/" for the top), merged over blobbers: a path counts when d blobbers
    /// (or all that answered, if fewer) list the same signed version.
    /// - Parameters:
    ///   - path: the folder.
    ///   - allocation: the allocation.
    /// - Returns: the folder's entries.
    /// - Throws: `StorageClientError` when too few blobbers answer or an answer does not check out,
    ///   `StorageRequestError` for a malformed path.
    public func list(_ path: String = "/", allocation a: StorageAllocation) async throws -> [FileMeta] {
        if path != "/" { try RemotePath.validate(path) }
        let conns = connections(a)
        let lists = await withTaskGroup(of: (Int, FolderListing?, SinkFailure?).self) { group in
            for c in conns {
                group.addTask {
                    do {
                        // Awaited on its own line: `(c.index, try await …, nil)` built in one
                        // expression came back with a garbage index from Swift 6.3's release
                        // optimizer (seen here; bench-storage --folder crashed on it).
                        let listing = try await c.listProven(path)
                        return (c.index, listing, nil)
                    } catch {
                        return (c.index, nil, Self.failure(error))
                    }
                }
            }
            var out: [(Int, FolderListing?, SinkFailure?)] = []
            for await r in group { out.append(r) }
            return out.sorted { $0.0 < $1.0 }
        }
        let answered = lists.compactMap(\.1)
        guard !answered.isEmpty else {
            let failures = Dictionary(uniqueKeysWithValues: lists.compactMap { i, _, e in e.map { (i, $0) } })
            if failures.values.allSatisfy({ $0.code == StorageRequestError.notFound("").code }) {
                throw StorageClientError.notFound(path: path)
            }
            throw StorageClientError.unreadable(
                path: path, reason: failures.sorted { $0.key < $1.key }.map { "blobber \($0.key): \($0.value)" }.joined(separator: "; "))
        }
        let needed = min(a.dataShards, answered.count)
        // Each listing with the connection it came from (a listing's index is its blobber's).
        var from: [BlobberConnection] = []
        for (i, listing, _) in lists where listing != nil { from.append(conns[i]) }
        var votes = ListingVotes(lists: answered)
        return votes.merged(owner: a.ownerPublicKey, needed: needed) { [from] k in
            self.proves(answered[k], folder: path, proof: answered[k].proof, of: from[k], allocation: a)
        }
    }
}
