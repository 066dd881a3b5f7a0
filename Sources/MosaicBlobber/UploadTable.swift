import Foundation
import MosaicStorageCore
import Synchronization

/// A blobber's uncommitted uploads, and the bounds that keep an owner from filling the blobber
/// with them: at most `perAllocation` uploads per allocation; their bytes together at most the
/// allocation's per-blobber size (a PUT reserves what it may add before its body is read, so
/// concurrent PUTs cannot overshoot); at most `openFiles` open file descriptors for the whole
/// blobber (idle ones are closed first, and reopened from disk by the next PUT); and an upload
/// nobody wrote to for `expiry` seconds is removed. Committed fragments are not counted here:
/// their bytes are charged by the commit's own size check.
final class UploadTable: Sendable {
    struct Limits: Sendable {
        var perAllocation: Int
        var openFiles: Int
        /// Seconds after which a writer nobody uses gives back its descriptor (bytes stay on disk).
        var idleClose: Double
        /// Seconds after which an upload nobody wrote to is removed.
        var expiry: Int64
    }

    /// A PUT's hold on its upload: the writer and the bytes reserved for its body.
    struct Lease {
        let allocation: String
        let upload: String
        let writer: FragmentWriter
        let reserved: Int64
    }

    private struct Entry {
        /// Bytes on disk when no writer is open (else the writer's length).
        var length: Int64
        var reserved: Int64 = 0
        /// Unix seconds of the last write.
        var modified: Int64
        var writer: FragmentWriter?
        /// PUTs using the writer now (it is not closed while > 0).
        var active = 0
        var used: ContinuousClock.Instant

        var bytes: Int64 { writer?.length ?? length }
    }

    private struct State {
        var uploads: [String: [String: Entry]] = [:]
        var lastExpirySweep: Int64 = 0
    }

    let limits: Limits
    private let store: FragmentStore
    private let state: Mutex<State>

    init(store: FragmentStore, limits: Limits) {
        self.store = store
        self.limits = limits
        var s = State()
        let now = ContinuousClock.now
        for u in store.uploads() {
            s.uploads[u.allocation, default: [:]][u.upload] = Entry(length: u.length, modified: u.modified, used: now)
        }
        state = Mutex(s)
    }

    /// Bytes received so far for an upload (0 when there is none).
    func length(allocation: String, upload: String) -> Int64 {
        state.withLock { $0.uploads[allocation]?[upload]?.bytes ?? 0 }
    }

    /// Uploads with an open writer ("allocation.upload").
    var openWriters: Set<String> {
        state.withLock { s in
            Set(s.uploads.flatMap { a, list in list.compactMap { $0.value.writer == nil ? nil : a + "." + $0.key } })
        }
    }

    /// Uncommitted uploads of an allocation, and their bytes (held and reserved).
    func usage(allocation: String) -> (uploads: Int, bytes: Int64) {
        state.withLock { s in
            let list = s.uploads[allocation] ?? [:]
            return (list.count, list.values.reduce(0) { $0 + $1.bytes + $1.reserved })
        }
    }

    /// Checks that a PUT of `count` bytes at `offset` may proceed (offset, open-upload count, byte
    /// bound) and, when `reserve`, opens the writer and reserves the bytes it may add.
    func begin(
        allocation: String, upload: String, offset: Int64, count: Int64, capacity: Int64,
        reserve: Bool = true
    ) throws -> Lease? {
        let now = Int64(Date().timeIntervalSince1970)
        return try state.withLock { s throws -> Lease? in
            closeIdle(&s)
            if now - s.lastExpirySweep >= 60 { expire(&s, allocation: nil, now: now) }
            let entry = s.uploads[allocation]?[upload]
            if entry == nil, (s.uploads[allocation]?.count ?? 0) >= limits.perAllocation {
                expire(&s, allocation: allocation, now: now)
                guard (s.uploads[allocation]?.count ?? 0) < limits.perAllocation else {
                    throw StorageRequestError.tooMany(
                        "allocation \(allocation) has \(limits.perAllocation) uncommitted uploads on this blobber, the most it keeps; commit them or drop them (DELETE /v1/alloc/\(allocation)/uploads/<upload>) before starting another"
                    )
                }
            }
            let held = entry?.bytes ?? 0
            guard offset <= held else {
                throw StorageRequestError.conflict("offset \(offset) is beyond the \(held) bytes received; resume from \(held)")
            }
            // offset ≤ held, so the body adds at most `count` bytes: no overflow.
            let growth = max(0, count - (held - offset))
            let pending = (s.uploads[allocation] ?? [:]).values.reduce(Int64(0)) { $0 + $1.bytes + $1.reserved }
            let (total, overflow) = pending.addingReportingOverflow(growth)
            guard !overflow, total <= capacity else {
                throw StorageRequestError.full(
                    "uncommitted uploads of allocation \(allocation) would hold \(overflow ? "more than \(Int64.max)" : "\(total)") bytes on this blobber, more than its \(capacity); commit or drop unfinished uploads, or grow the allocation"
                )
            }
            guard reserve else { return nil }
            var e = entry ?? Entry(length: 0, modified: now, used: .now)
            if e.writer == nil {
                try makeRoomForWriter(&s)
                e.writer = try store.resumableWrite(allocation: allocation, upload: upload, file: "u-" + upload)
            }
            guard let writer = e.writer else { return nil }
            e.reserved += growth
            e.active += 1
            e.used = .now
            s.uploads[allocation, default: [:]][upload] = e
            return Lease(allocation: allocation, upload: upload, writer: writer, reserved: growth)
        }
    }

    /// Ends a PUT: its reservation is replaced by what the writer now holds.
    func end(_ lease: Lease) {
        let now = Int64(Date().timeIntervalSince1970)
        state.withLock { s in
            guard var e = s.uploads[lease.allocation]?[lease.upload], e.writer === lease.writer else { return }
            e.active = max(0, e.active - 1)
            e.reserved = max(0, e.reserved - lease.reserved)
            e.length = lease.writer.length
            e.modified = now
            e.used = .now
            s.uploads[lease.allocation]?[lease.upload] = e
        }
    }

    /// The open writer of an upload, reopened from its bytes on disk when it was closed (a commit
    /// takes it from here; nothing is reserved).
    func writer(allocation: String, upload: String) throws -> FragmentWriter {
        let now = Int64(Date().timeIntervalSince1970)
        return try state.withLock { s in
            closeIdle(&s, keeping: (allocation, upload))
            var e = s.uploads[allocation]?[upload] ?? Entry(length: 0, modified: now, used: .now)
            if let w = e.writer {
                e.used = .now
                s.uploads[allocation]?[upload] = e
                return w
            }
            try makeRoomForWriter(&s)
            let w = try store.resumableWrite(allocation: allocation, upload: upload, file: "u-" + upload)
            e.writer = w
            e.used = .now
            s.uploads[allocation, default: [:]][upload] = e
            return w
        }
    }

    /// Forgets an upload (committed, or failed its commit: its writer already removed the bytes).
    func remove(allocation: String, upload: String) {
        state.withLock { s in
            s.uploads[allocation]?[upload] = nil
            if s.uploads[allocation]?.isEmpty == true { s.uploads[allocation] = nil }
        }
    }

    /// Drops an upload and its bytes.
    func discard(allocation: String, upload: String) throws {
        let w = state.withLock { s -> FragmentWriter? in
            defer {
                s.uploads[allocation]?[upload] = nil
                if s.uploads[allocation]?.isEmpty == true { s.uploads[allocation] = nil }
            }
            return s.uploads[allocation]?[upload]?.writer
        }
        w?.abort()
        try store.discardUpload(allocation: allocation, upload: upload)
    }

    /// Closes every writer (server stop); bytes stay on disk for a later resume.
    func closeAll() {
        state.withLock { s in
            for (a, list) in s.uploads { for u in list.keys { s.uploads[a]?[u]?.writer = nil } }
        }
    }

    // MARK: Under the lock

    /// Closes writers nobody used for `idleClose` seconds (their bytes stay on disk).
    private func closeIdle(_ s: inout State, keeping: (String, String)? = nil) {
        let idle = Duration.milliseconds(Int64(min(max(limits.idleClose, 0), 1e9) * 1000))
        let now = ContinuousClock.now
        for (a, list) in s.uploads {
            for (u, e) in list where e.writer != nil && e.active == 0 && now - e.used >= idle {
                if let keep = keeping, keep == (a, u) { continue }
                close(&s, a, u)
            }
        }
    }

    /// Closes the least recently used idle writers until one more fits under `openFiles`.
    private func makeRoomForWriter(_ s: inout State) throws {
        var open = s.uploads.flatMap { a, list in list.filter { $0.value.writer != nil }.map { (a, $0.key, $0.value) } }
        guard open.count >= limits.openFiles else { return }
        open.sort { $0.2.used < $1.2.used }
        var excess = open.count - limits.openFiles + 1
        for (a, u, e) in open where excess > 0 && e.active == 0 {
            close(&s, a, u)
            excess -= 1
        }
        if excess > 0 {
            throw StorageRequestError.tooMany(
                "this blobber has \(limits.openFiles) uploads in progress, the most it keeps open; retry in a moment")
        }
    }

    private func close(_ s: inout State, _ a: String, _ u: String) {
        guard var e = s.uploads[a]?[u], let w = e.writer else { return }
        e.length = w.length
        e.writer = nil
        s.uploads[a]?[u] = e
    }

    /// Removes uploads nobody wrote to for `expiry` seconds (of one allocation, or of all).
    private func expire(_ s: inout State, allocation: String?, now: Int64) {
        if allocation == nil { s.lastExpirySweep = now }
        for a in allocation.map({ [$0] }) ?? Array(s.uploads.keys) {
            for (u, e) in s.uploads[a] ?? [:] where e.active == 0 && now - e.modified > limits.expiry {
                e.writer?.abort()
                try? store.discardUpload(allocation: a, upload: u)
                s.uploads[a]?[u] = nil
            }
            if s.uploads[a]?.isEmpty == true { s.uploads[a] = nil }
        }
    }
}
