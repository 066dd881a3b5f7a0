import Foundation
import MosaicCrypto
import MosaicProtocol
import MosaicSDK
import MosaicStorageCore

/// The file commands of an allocation: `upload`, `download`, `ls`, `stat`, `rm`, `mv`, `cp`,
/// `mkdir`, `sync`, `repair` (the folder forms in `FolderCommands`). Each is one owner-signed operation on the allocation's blobbers; errors say
/// what to do and leave nothing partial (the SDK rolls back and writes downloads beside the target).
enum FileCommands {
    static var all: [Command] { [upload, download, ls, stat, rm, mv, cp, mkdir, FolderCommands.sync, ShareCommand.command, repair] }

    static let upload = Command(
        name: "upload", summary: "upload a local file to REMOTE (encrypted, erasure-coded, streamed to the blobbers)",
        usage: "LOCAL REMOTE | -r LOCAL_DIR REMOTE_DIR",
        discussion:
            "An interrupted upload resumes when the same command is run again. Missing folders are created. With -r, every file of the tree is sent (links are not followed); files that fail are listed at the end and the rest go on.",
        examples: [
            "mosaic upload ./report.pdf /docs/report.pdf", "mosaic upload --alloc 3f9a ./big.iso /isos/big.iso --json",
            "mosaic upload -r ./photos /photos", "mosaic upload --limit-rate 2MiB/s ./big.iso /isos/big.iso",
        ],
        options: UploadOptions.self, arguments: ["LOCAL", "REMOTE"], minArguments: 2, maxArguments: 2,
        action: { o, inv in
            let ctx = try StorageContext(inv, alloc: o.target.alloc, rateLimit: o.limitRate)
            let local = URL(fileURLWithPath: inv.arguments[0])
            let remote = inv.arguments[1]
            if o.recursive {
                if o.contentType != nil {
                    throw CLIError.usage("--content-type is for one file; with -r each file's type comes from its name")
                }
                return try await FolderCommands.upload(
                    ctx, local: local, remote: remote, replace: o.replace, jobs: o.jobs.value, json: inv.json)
            }
            let a = try await ctx.allocation(forWriting: true)
            let bar = ProgressBar(label: "upload", json: inv.json)
            let started = ContinuousClock.now
            let r = try await StorageContext.failing {
                try await ctx.storage.upload(
                    localFile: local, remotePath: remote, allocation: a, contentType: o.contentType,
                    replace: o.replace, progress: bar.callback)
            }
            bar.finish()
            let seconds = elapsedMillis(since: started)
            var text =
                "uploaded \(local.path) to \(r.meta.path) (\(ByteSize.format(UInt64(max(0, r.meta.size))))) on \(r.committed.count) of \(a.totalShards) blobbers in \(DurationText.format(milliseconds: seconds))"
            if r.resumed { text += "; resumed an interrupted upload" }
            if !r.failed.isEmpty {
                text +=
                    "\nblobbers that missed it: "
                    + r.failed.sorted { $0.key < $1.key }.map { "\($0.key + 1) (\($0.value))" }.joined(separator: ", ")
                text += "\nrun 'mosaic repair --alloc \(a.id)' when they are back"
            }
            return CommandOutput(
                text: text,
                json: .object([
                    ("allocation_id", .string(a.id)), ("path", .string(r.meta.path)), ("size", .integer(r.meta.size)),
                    ("committed", .array(r.committed.map { .integer(Int64($0)) })),
                    ("failed", try .output(r.failed)), ("resumed", .bool(r.resumed)), ("degraded", .bool(r.degraded)),
                    ("elapsed_ms", .integer(seconds)),
                ]))
        })

    struct UploadOptions: CommandOptions {
        var target = AllocTarget()
        @Flag("replace", help: "overwrite REMOTE if it exists (with -r: files that exist with other content)") var replace: Bool
        @Option("content-type", "TYPE", help: "MIME type (default: from the extension)") var contentType: String?
        @Flag("recursive", short: "r", help: "LOCAL is a folder: upload its whole tree into REMOTE") var recursive: Bool
        @Option("jobs", help: "with -r: files sent at once") var jobs = TransferJobs(value: 4)
        @Option(
            "limit-rate",
            help: "send at most this much per second, e.g. 2MiB/s (the blobbers get (d+p)/d times it; with -r, all files together)")
        var limitRate: TransferRate?
    }

    static let download = Command(
        name: "download", summary: "download REMOTE to LOCAL (verified, decrypted), or a shared file with --ticket",
        usage: "REMOTE LOCAL | --ticket T LOCAL | -r REMOTE_DIR LOCAL_DIR",
        examples: [
            "mosaic download /docs/report.pdf ./report.pdf", "mosaic download /big.iso ./part --range 0-1048575",
            "mosaic download --ticket mosaic-ticket:… ./shared.pdf", "mosaic download -r /photos ./photos",
        ],
        options: DownloadOptions.self, arguments: ["REMOTE", "LOCAL"], minArguments: 1, maxArguments: 2,
        action: { o, inv in
            let ctx = try StorageContext(inv, alloc: o.target.alloc, rateLimit: o.limitRate)
            if o.recursive {
                guard o.ticket == nil, o.range == nil, o.prefer == nil else {
                    throw CLIError.usage("-r downloads a folder of your own; it takes no --ticket, --range or --prefer")
                }
                guard inv.arguments.count == 2 else { throw CLIError.usage("give REMOTE_DIR and LOCAL_DIR") }
                return try await FolderCommands.download(
                    ctx, remote: inv.arguments[0], local: URL(fileURLWithPath: inv.arguments[1]), replace: o.replace,
                    jobs: o.jobs.value, json: inv.json)
            }
            let range = o.range?.range
            let remote: String
            let local: URL
            let a: StorageAllocation
            var ticket: AuthTicket?
            var key: SecretBytes?
            if let text = o.ticket {
                guard inv.arguments.count == 1 else { throw CLIError.usage("with --ticket give only LOCAL (the ticket names the file)") }
                let share = try ShareToken.decode(link: text)
                local = URL(fileURLWithPath: inv.arguments[0])
                remote = share.ticket.path
                ticket = share.ticket
                key = try share.contentKey(for: ctx.storage.key)
                guard let onLedger = try await ctx.client.storageAllocation(share.ticket.allocationID) else {
                    throw CLIError.failure("the shared allocation \(share.ticket.allocationID) no longer exists")
                }
                a = try StorageAllocation(onLedger)
                try await ensureReadPool(ctx, onLedger, json: inv.json)
            } else {
                guard inv.arguments.count == 2 else { throw CLIError.usage("give REMOTE and LOCAL (or --ticket T LOCAL)") }
                remote = inv.arguments[0]
                local = URL(fileURLWithPath: inv.arguments[1])
                a = try await ctx.allocation(forWriting: false)
            }
            if FileManager.default.fileExists(atPath: local.path), !o.replace {
                throw CLIError.failure("\(local.path) already exists; choose another name or pass --replace")
            }
            let prefer = o.prefer?.indices ?? []
            if let beyond = prefer.first(where: { $0 >= a.blobbers.count }) {
                throw CLIError.usage(
                    "--prefer \(beyond): this allocation has \(a.blobbers.count) blobbers, at indices 0–\(a.blobbers.count - 1) (0 is the first mosaic alloc show lists)"
                )
            }
            let bar = ProgressBar(label: "download", json: inv.json)
            let started = ContinuousClock.now
            let r: DownloadResult
            do {
                r = try await StorageContext.failing {
                    try await ctx.storage.download(
                        remotePath: remote, to: local, allocation: a, range: range, prefer: prefer, ticket: ticket, contentKey: key,
                        progress: bar.callback)
                }
            } catch let e as CLIError where ticket != nil && e.code == StorageClientError.ticketRevoked(path: remote).code {
                bar.finish()
                throw CLIError.failure("the owner revoked this ticket; ask them to share \(remote) again")
            }
            bar.finish()
            let ms = elapsedMillis(since: started)
            return CommandOutput(
                text:
                    "downloaded \(remote) to \(local.path) (\(ByteSize.format(UInt64(max(0, r.bytesWritten))))) in \(DurationText.format(milliseconds: ms))",
                json: .object([
                    ("allocation_id", .string(a.id)), ("path", .string(remote)), ("local", .string(local.path)),
                    ("bytes", .integer(r.bytesWritten)), ("size", .integer(r.meta.size)), ("elapsed_ms", .integer(ms)),
                    // Blobbers given up on the way (index → why: down, slow, bad data): what to repair or avoid.
                    ("dropped", try .output(r.badBlobbers)),
                ]))
        })

    struct DownloadOptions: CommandOptions {
        var target = AllocTarget()
        @Option("ticket", "T", help: "a ticket from 'mosaic share', or its web link (file shared with you or public)") var ticket: String?
        @Option("range", help: "only bytes A to B (inclusive)") var range: ByteRange?
        @Flag("replace", help: "overwrite LOCAL if it exists (with -r: local files with other content)") var replace: Bool
        @Flag("recursive", short: "r", help: "REMOTE is a folder: mirror its tree into the local folder LOCAL") var recursive: Bool
        @Option("jobs", help: "with -r: files fetched at once") var jobs = TransferJobs(value: 4)
        @Option(
            "prefer",
            help:
                "read from these blobbers first, e.g. the ones nearby: indices as --json gives them (0 is the first 'mosaic alloc show' lists)"
        )
        var prefer: BlobberPreference?
        @Option("limit-rate", help: "receive at most this much per second, e.g. 2MiB/s (with -r, all files together)")
        var limitRate: TransferRate?
    }

    static let ls = Command(
        name: "ls", summary: "list a folder of the allocation (name, size, modified, type)",
        usage: "[PATH]", examples: ["mosaic ls", "mosaic ls /docs --json"],
        options: ListOptions.self, arguments: ["PATH"], minArguments: 0, maxArguments: 1,
        action: { o, inv in
            let ctx = try StorageContext(inv, alloc: o.target.alloc)
            let a = try await ctx.allocation(forWriting: false)
            let path = inv.arguments.first ?? "/"
            var entries = try await StorageContext.failing { try await ctx.storage.list(path, allocation: a) }
            if o.recursive {
                var queue = entries.filter { $0.kind == .directory }.map(\.path)
                while let next = queue.popLast() {
                    let more = try await StorageContext.failing { try await ctx.storage.list(next, allocation: a) }
                    entries += more
                    queue += more.filter { $0.kind == .directory }.map(\.path)
                }
                entries.sort { $0.path < $1.path }
            }
            var table = Table(["NAME", "SIZE", "MODIFIED (UTC)", "TYPE"])
            for m in entries {
                let name = o.recursive ? m.path : (m.path.split(separator: "/").last.map(String.init) ?? m.path)
                table.add([
                    m.kind == .directory ? name + "/" : name, m.kind == .directory ? "-" : ByteSize.format(UInt64(max(0, m.size))),
                    m.kind == .directory ? "-" : Wallet.iso8601(m.modified),
                    m.kind == .directory ? "folder" : (m.contentType.isEmpty ? "file" : m.contentType),
                ])
            }
            return CommandOutput(
                text: entries.isEmpty ? "\(path) is empty" : table.rendered(),
                json: .object([
                    ("allocation_id", .string(a.id)), ("path", .string(path)), ("entries", try .output(entries.map(FileEntryOutput.init))),
                ]))
        })

    struct ListOptions: CommandOptions {
        var target = AllocTarget()
        @Flag("recursive", short: "r", help: "everything below PATH") var recursive: Bool
    }

    static let stat = Command(
        name: "stat", summary: "show one file or folder: size, type, times, shards",
        usage: "PATH", options: AllocTarget.self, arguments: ["PATH"], minArguments: 1, maxArguments: 1,
        action: { o, inv in
            let ctx = try StorageContext(inv, alloc: o.alloc)
            let a = try await ctx.allocation(forWriting: false)
            let m = try await StorageContext.failing { try await ctx.storage.stat(inv.arguments[0], allocation: a) }
            var lines = ["path:          \(m.path)", "type:          \(m.kind == .directory ? "folder" : "file")"]
            if m.kind == .file {
                lines += [
                    "size:          \(ByteSize.format(UInt64(max(0, m.size)))) (\(m.size) bytes)", "content type:  \(m.contentType)",
                    "created:       \(Wallet.iso8601(m.created))", "modified:      \(Wallet.iso8601(m.modified))",
                    "shards:        \(m.dataShards)+\(m.parityShards)", "cipher:        \(m.cipher)",
                ]
            }
            return CommandOutput(text: lines.joined(separator: "\n"), json: try .output(FileEntryOutput(m)))
        })

    static let rm = Command(
        name: "rm", summary: "delete a file, or a folder with everything in it",
        usage: "PATH", options: AllocTarget.self, arguments: ["PATH"], minArguments: 1, maxArguments: 1,
        action: { o, inv in
            let path = inv.arguments[0]
            return try await change(inv, o, "deleted \(path)", [("deleted", .string(path))]) { s, a in
                try await s.delete(path, allocation: a)
            }
        })

    static let mv = Command(
        name: "mv", summary: "move or rename a file or folder (no data is sent)",
        usage: "FROM TO", options: AllocTarget.self, arguments: ["FROM", "TO"], minArguments: 2, maxArguments: 2,
        action: { o, inv in
            let (from, to) = (inv.arguments[0], inv.arguments[1])
            return try await change(inv, o, "moved \(from) to \(to)", [("from", .string(from)), ("to", .string(to))]) { s, a in
                try await s.move(from, to: to, allocation: a)
            }
        })

    static let cp = Command(
        name: "cp", summary: "copy a file or folder inside the allocation (no data is sent)",
        usage: "FROM TO", options: AllocTarget.self, arguments: ["FROM", "TO"], minArguments: 2, maxArguments: 2,
        action: { o, inv in
            let (from, to) = (inv.arguments[0], inv.arguments[1])
            return try await change(inv, o, "copied \(from) to \(to)", [("from", .string(from)), ("to", .string(to))]) { s, a in
                try await s.copy(from, to: to, allocation: a)
            }
        })

    static let mkdir = Command(
        name: "mkdir", summary: "create a folder (and its parents)",
        usage: "PATH", options: AllocTarget.self, arguments: ["PATH"], minArguments: 1, maxArguments: 1,
        action: { o, inv in
            let path = inv.arguments[0]
            return try await change(inv, o, "created folder \(path)", [("created", .string(path))]) { s, a in
                try await s.mkdir(path, allocation: a)
            }
        })

    /// `rm`, `mv`, `cp` and `mkdir`: one owner-signed change of the allocation, reported as `text`
    /// and, in `--json`, as the allocation's id and `fields`.
    static func change(
        _ inv: Invocation, _ target: AllocTarget, _ text: String, _ fields: JSONObject,
        _ body: (StorageClient, StorageAllocation) async throws -> Void
    ) async throws -> CommandOutput {
        let ctx = try StorageContext(inv, alloc: target.alloc)
        let a = try await ctx.allocation(forWriting: true)
        try await StorageContext.failing { try await body(ctx.storage, a) }
        var json: JSONObject = [("allocation_id", .string(a.id))]
        for (key, value) in fields { json[key] = value }
        return CommandOutput(text: text, json: .object(json))
    }

    static let repair = Command(
        name: "repair", summary: "rebuild on each blobber the files it lacks, from the others",
        discussion: "Use after an upload that missed blobbers, or after a blobber was replaced.",
        examples: ["mosaic repair", "mosaic repair --alloc 3f9a --json"],
        options: AllocTarget.self,
        action: { o, inv in
            let ctx = try StorageContext(inv, alloc: o.alloc)
            let a = try await ctx.allocation(forWriting: true)
            let r = try await StorageContext.failing { try await ctx.storage.repair(allocation: a) }
            var lines = ["repaired \(r.repaired.count) fragment(s), removed \(r.removed.count) stale path(s) in allocation \(a.id)"]
            for x in r.repaired { lines.append("  rebuilt \(x.path) on blobber \(x.blobber + 1)") }
            for x in r.removed { lines.append("  removed \(x.path) from blobber \(x.blobber + 1)") }
            for (i, why) in r.failed.sorted(by: { $0.key < $1.key }) { lines.append("  blobber \(i + 1) not repaired: \(why)") }
            return CommandOutput(
                text: lines.joined(separator: "\n"),
                json: try .output(r, before: [("allocation_id", .string(a.id))]))
        })

    // MARK: helpers

    /// A reader of someone else's files pays the blobbers from its read pool (the owner pays from
    /// the write pool). Before a ticket download, tops the pool up to what reading every block of
    /// the allocation once from each blobber would cost, so redemptions never bounce.
    static func ensureReadPool(_ ctx: StorageContext, _ a: Allocation, json: Bool) async throws {
        guard a.ownerID != ctx.wallet.clientID else { return }
        let blocks = (a.blobberSize + 65_535) / 65_536
        let need = a.blobbers.reduce(UInt64(0)) { $0 &+ (StoragePricing.readCost(price: $1.readPrice, blocks: blocks) ?? 0) }
        let have = try await ctx.client.storageReadPool(ctx.wallet.clientID)
        guard need > have else { return }
        if !json {
            Console.err("locking \(TokenAmount(baseUnits: need - have)) in this wallet's read pool to pay the blobbers for reading…\n")
        }
        _ = try await AllocCommand.chain({ "cannot lock tokens to pay for the read: \($0)" }) { () async throws(WalletError) in
            try await ctx.wallet.lockReadPool(need - have, until: .finalized)
        }
    }

    static func elapsedMillis(since start: ContinuousClock.Instant) -> Int64 {
        let d = ContinuousClock.now - start
        return d.components.seconds * 1000 + d.components.attoseconds / 1_000_000_000_000_000
    }
}
