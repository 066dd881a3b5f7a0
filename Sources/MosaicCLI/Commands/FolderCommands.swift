import Foundation
import MosaicProtocol
import MosaicSDK

/// The folder forms of the file commands: `upload -r`, `download -r` and `sync`. Each moves a
/// whole tree through the SDK's folder API (bounded concurrency, resumable), shows files, bytes
/// and rate on a terminal, lists every failed file at the end with what to do, and exits 1 when
/// any failed (the summary is still printed, in `--json` too).
enum FolderCommands {
    static let sync = Command(
        name: "sync", summary: "make REMOTE match a local folder: send new and changed files (--delete removes the rest)",
        usage: "LOCAL_DIR REMOTE_DIR",
        discussion:
            "Changed means another size, or another mtime and other content (compared by hash). A second run with nothing changed writes nothing. An interrupted sync continues when run again.",
        examples: ["mosaic sync ./photos /photos", "mosaic sync ./site /www --delete --dry-run"],
        options: SyncOptions.self, arguments: ["LOCAL_DIR", "REMOTE_DIR"], minArguments: 2, maxArguments: 2,
        action: { o, inv in
            let ctx = try StorageContext(inv, alloc: o.target.alloc)
            let local = URL(fileURLWithPath: inv.arguments[0])
            let remote = inv.arguments[1]
            let (a, r, started) = try await transfer(ctx, "sync", forWriting: !o.dryRun, json: inv.json) { a, progress in
                try await ctx.storage.syncFolder(
                    local, to: remote, allocation: a, delete: o.delete, dryRun: o.dryRun, concurrency: o.jobs.value, progress: progress)
            }
            return try summary(r, verb: "synced", allocation: a, local: local, remote: remote, started: started)
        })

    struct SyncOptions: CommandOptions {
        var target = AllocTarget()
        @Flag("delete", help: "also delete remote files and folders that are not in LOCAL_DIR") var delete: Bool
        @Flag("dry-run", help: "only show what would be sent, created and deleted") var dryRun: Bool
        @Option("jobs", help: "files sent at once") var jobs = TransferJobs(value: 4)
    }

    /// `mosaic upload -r LOCAL_DIR REMOTE_DIR`.
    static func upload(
        _ ctx: StorageContext, local: URL, remote: String, replace: Bool, jobs: Int, json: Bool
    ) async throws -> CommandOutput {
        let (a, r, started) = try await transfer(ctx, "upload", forWriting: true, json: json) { a, progress in
            try await ctx.storage.uploadFolder(local, to: remote, allocation: a, replace: replace, concurrency: jobs, progress: progress)
        }
        return try summary(r, verb: "uploaded", allocation: a, local: local, remote: remote, started: started)
    }

    /// `mosaic download -r REMOTE_DIR LOCAL_DIR`.
    static func download(
        _ ctx: StorageContext, remote: String, local: URL, replace: Bool, jobs: Int, json: Bool
    ) async throws -> CommandOutput {
        let (a, r, started) = try await transfer(ctx, "download", forWriting: false, json: json) { a, progress in
            try await ctx.storage.downloadFolder(remote, to: local, allocation: a, replace: replace, concurrency: jobs, progress: progress)
        }
        let ms = FileCommands.elapsedMillis(since: started)
        var lines = [
            "downloaded \(r.downloaded.count) file(s) (\(ByteSize.format(UInt64(max(0, r.bytesWritten))))) from \(remote) to \(local.path) in \(DurationText.format(milliseconds: ms))"
                + rate(r.downloaded.count, ms)
        ]
        if !r.unchanged.isEmpty { lines.append("\(r.unchanged.count) file(s) were already complete locally") }
        lines += failureLines(r.failed, retry: "run the same command again to fetch them (complete files are not fetched again)")
        var out = CommandOutput(
            text: lines.joined(separator: "\n"),
            json: .object([
                ("allocation_id", .string(a.id)), ("remote", .string(remote)), ("local", .string(local.path)),
                ("downloaded", .integer(Int64(r.downloaded.count))), ("unchanged", .integer(Int64(r.unchanged.count))),
                ("created_folders", .integer(Int64(r.createdFolders.count))), ("bytes", .integer(r.bytesWritten)),
                ("failed", try .output(r.failed)), ("elapsed_ms", .integer(ms)),
            ]))
        out.exitCode = r.failed.isEmpty ? 0 : 1
        return out
    }

    /// Runs one folder operation on the command's allocation (checked for writing when it
    /// writes) with the progress line `label` on a terminal; returns the allocation, the result
    /// and when it started.
    static func transfer<R>(
        _ ctx: StorageContext, _ label: String, forWriting: Bool, json: Bool,
        _ body: (StorageAllocation, (@Sendable (FolderProgress) -> Void)?) async throws -> R
    ) async throws -> (StorageAllocation, R, ContinuousClock.Instant) {
        let a = try await ctx.allocation(forWriting: forWriting)
        let bar = ProgressBar(label: label, json: json)
        let started = ContinuousClock.now
        let r = try await StorageContext.failing { try await body(a, bar.folderCallback) }
        bar.finish()
        return (a, r, started)
    }

    static func summary(
        _ r: FolderUploadResult, verb: String, allocation a: StorageAllocation, local: URL, remote: String,
        started: ContinuousClock.Instant
    ) throws -> CommandOutput {
        let ms = FileCommands.elapsedMillis(since: started)
        var lines: [String] = []
        if r.dryRun {
            lines.append(
                r.plan.isEmpty
                    ? "nothing to do: \(remote) matches \(local.path)"
                    : "would send \(r.plan.uploads.count) file(s) (\(ByteSize.format(UInt64(max(0, r.plan.bytes))))), create \(r.plan.folders.count) folder(s), delete \(r.plan.deletes.count) path(s):"
            )
            for u in r.plan.uploads { lines.append("  \(u.reason == .new ? "new    " : "changed") \(u.remotePath)") }
            for f in r.plan.folders { lines.append("  folder  \(f)") }
            for d in r.plan.deletes { lines.append("  delete  \(d)") }
        } else if r.writes == 0 && r.failed.isEmpty {
            lines.append(
                "nothing to do: \(remote) matches \(local.path) (\(r.plan.unchanged.count) file(s) unchanged; nothing was written)")
        } else {
            var line =
                "\(verb) \(r.uploaded.count) file(s) (\(ByteSize.format(UInt64(max(0, r.bytesSent))))) from \(local.path) to \(remote) in \(DurationText.format(milliseconds: ms))"
                + rate(r.uploaded.count, ms)
            if !r.plan.unchanged.isEmpty { line += "; \(r.plan.unchanged.count) unchanged" }
            if r.plan.resumed > 0 { line += " (\(r.plan.resumed) finished by an interrupted run)" }
            lines.append(line)
            if !r.createdFolders.isEmpty { lines.append("created \(r.createdFolders.count) empty folder(s)") }
            if !r.deleted.isEmpty { lines.append("deleted \(r.deleted.count) path(s) gone locally: " + r.deleted.joined(separator: ", ")) }
            if !r.degraded.isEmpty {
                lines.append("\(r.degraded.count) file(s) are on fewer blobbers than wanted; run 'mosaic repair --alloc \(a.id)'")
            }
        }
        for s in r.skipped { lines.append("skipped \(s.path): \(s.message)") }
        if !r.changedDuringUpload.isEmpty {
            lines.append("changed while being sent, not uploaded: " + r.changedDuringUpload.joined(separator: ", "))
        }
        lines += failureLines(r.failed, retry: "fix what is said and run the same command again (finished files are not sent again)")
        var out = CommandOutput(
            text: lines.joined(separator: "\n"),
            json: .object([
                ("allocation_id", .string(a.id)), ("local", .string(local.path)), ("remote", .string(remote)),
                ("dry_run", .bool(r.dryRun)), ("uploaded", .integer(Int64(r.uploaded.count))),
                ("unchanged", .integer(Int64(r.plan.unchanged.count))), ("resumed", .integer(Int64(r.plan.resumed))),
                ("created_folders", .array(r.createdFolders.map { .string($0) })), ("deleted", .array(r.deleted.map { .string($0) })),
                ("bytes", .integer(r.bytesSent)), ("writes", .integer(Int64(r.writes))),
                (
                    "planned",
                    .array(
                        r.plan.uploads.map { .object([("path", .string($0.remotePath)), ("reason", .string($0.reason.rawValue))]) })
                ),
                ("planned_folders", .array(r.plan.folders.map { .string($0) })),
                ("planned_deletes", .array(r.plan.deletes.map { .string($0) })),
                ("changed_during_upload", .array(r.changedDuringUpload.map { .string($0) })),
                ("degraded", .array(r.degraded.map { .string($0) })), ("skipped", try .output(r.skipped)),
                ("failed", try .output(r.failed)), ("elapsed_ms", .integer(ms)),
            ]))
        out.exitCode = r.failed.isEmpty ? 0 : 1
        return out
    }

    static func rate(_ files: Int, _ ms: Int64) -> String {
        guard files > 0, ms > 0 else { return "" }
        return String(format: " (%.1f files/s)", Double(files) * 1000 / Double(ms))
    }

    static func failureLines(_ failed: [FolderIssue], retry: String) -> [String] {
        guard !failed.isEmpty else { return [] }
        var lines = ["\(failed.count) failed:"]
        for f in failed { lines.append("  \(f.path): \(f.message)") }
        lines.append(retry)
        return lines
    }
}
