import Foundation
import MosaicSDK
import MosaicStorageCore
import MosaicTestSupport
import Testing

/// `upload -r`, `download -r` and `sync` through the real CLI binary on a real devnet: a tree of
/// 2,000 files in nested folders (empty files, an empty folder, Unicode names, a symbolic link),
/// a folder upload killed with SIGKILL and run again, and sync with and without changes.
@Suite(.serialized, .timeLimit(.minutes(20))) struct FolderCLITests: DevnetCLITesting {
    /// Writes `count` files into `root`: 10 × 10 nested folders (some with Unicode names), every
    /// 25th file empty, the rest 1–700 random bytes; plus an empty nested folder and a link.
    func makeTree(_ root: URL, count: Int) throws {
        let fm = FileManager.default
        let tops = ["alpha", "dossier é", "日本語", "d3", "d4", "d5", "d6", "d7", "d8", "émoji 🌊"]
        for i in 0..<count {
            let dir = root.appendingPathComponent(tops[i % 10]).appendingPathComponent("sub\((i / 10) % 10)")
            try fm.createDirectory(at: dir, withIntermediateDirectories: true)
            let name = i % 7 == 0 ? "fïchier-\(i) ✓.txt" : "f\(i).bin"
            let size = i % 25 == 0 ? 0 : Int.random(in: 1...700)
            try Data((0..<size).map { _ in UInt8.random(in: 0...255) }).write(to: dir.appendingPathComponent(name))
        }
        try fm.createDirectory(at: root.appendingPathComponent("empty/inner"), withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("link").path, withDestinationPath: "/etc/hostname")
    }

    /// Relative path → content (nil for a folder), symbolic links left out.
    func snapshot(_ root: URL) throws -> [String: Data?] {
        var out: [String: Data?] = [:]
        let base = root.standardizedFileURL.path
        var queue = [base]
        while let dir = queue.popLast() {
            for name in try FileManager.default.contentsOfDirectory(atPath: dir) {
                let path = dir + "/" + name
                let rel = String(path.dropFirst(base.count + 1))
                let type = try FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType
                if type == .typeDirectory {
                    out[rel] = .some(nil)
                    queue.append(path)
                } else if type == .typeRegular {
                    out[rel] = try Data(contentsOf: URL(fileURLWithPath: path))
                }
            }
        }
        return out
    }

    /// The wallet's storage client and its only allocation, as the SDK sees them (for what the
    /// CLI does not show: the blobbers' roots and each file's signed metadata hash).
    func sdk(_ cli: CLIRunner, _ net: CLIDevnet) async throws -> (StorageClient, StorageAllocation) {
        let keystore = Keystore(home: cli.home)
        let wallet = try keystore.unlock(name: try keystore.resolveName(nil), passphrase: "correct horse")
        let ledger = LedgerClient(baseURL: try #require(URL(string: net.node)))
        let mine = try await ledger.storageAllocations(owner: wallet.clientID)
        let a = try StorageAllocation(try #require(mine.first))
        return (StorageClient(wallet: wallet, home: cli.home.appendingPathComponent("sdk-home")), a)
    }

    /// Signed metadata hash of every file below `folder`.
    func remoteHashes(_ storage: StorageClient, _ a: StorageAllocation, _ folder: String) async throws -> [String: String] {
        var out: [String: String] = [:]
        var queue = [folder]
        while let next = queue.popLast() {
            for m in try await storage.list(next, allocation: a) {
                if m.kind == .directory { queue.append(m.path) } else { out[m.path] = m.hash }
            }
        }
        return out
    }

    @Test func folderOf2000FilesSurvivesAKillAndRoundTripsAndSyncWritesOnlyWhatChanged() async throws {
        let cli = try cli()
        defer { cli.cleanup() }
        let net = try await devnet(cli)
        defer { net.stopBlocking(timeout: 10) }
        try await funded(cli)
        try await ok(cli, ["alloc", "new", "--data", "2", "--parity", "2", "--size", "1GiB", "--expire", "30d"])
        let src = cli.home.appendingPathComponent("src")
        try makeTree(src, count: 2000)
        let expected = try snapshot(src)
        #expect(expected.values.filter { $0 != nil }.count == 2000)

        // Kill the folder upload once a few hundred files are committed (the folder log says so).
        let first = try MosaicProcess(
            ["upload", "-r", src.path, "/tree", "--json"],
            environment: ["MOSAIC_HOME": cli.home.path, "MOSAIC_PASSPHRASE": "correct horse"])
        let folders = cli.home.appendingPathComponent("folders")
        func finished() -> [String] {
            let logs = (try? FileManager.default.contentsOfDirectory(at: folders, includingPropertiesForKeys: nil)) ?? []
            return logs.flatMap { url -> [String] in
                let lines = ((try? String(contentsOf: url, encoding: .utf8)) ?? "").split(separator: "\n")
                return lines.compactMap { line in
                    (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["path"] as? String
                }
            }
        }
        let deadline = ContinuousClock.now + .seconds(300)
        while finished().count < 300, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        first.signal(SIGKILL)
        _ = await first.waitForExit(timeout: 10)
        let before = Set(finished())
        #expect(before.count >= 300, "the killed run committed and logged files before it died")
        #expect(before.count < 2000, "the kill came before the end")

        let (storage, a) = try await sdk(cli, net)
        let sentBefore = try await remoteHashes(storage, a, "/tree")
        for rel in before { #expect(sentBefore["/tree/" + rel] != nil, "\(rel) is logged as finished, so it is on the blobbers") }

        // Run again: the files the first run finished are not sent again (same signed metadata).
        let again = try await ok(cli, ["upload", "-r", src.path, "/tree"])
        #expect((again["failed"] as? [Any])?.isEmpty == true, "\(again["failed"] ?? "")")
        let resumed = try #require(again["resumed"] as? Int)
        let unchanged = try #require(again["unchanged"] as? Int)
        let uploaded = try #require(again["uploaded"] as? Int)
        #expect(resumed >= before.count)
        #expect(uploaded + unchanged == 2000)
        #expect(uploaded <= 2000 - before.count)
        #expect((again["skipped"] as? [[String: Any]])?.map { $0["path"] as? String } == ["link"])
        let sentAfter = try await remoteHashes(storage, a, "/tree")
        #expect(sentAfter.count == 2000)
        for (path, hash) in sentBefore { #expect(sentAfter[path] == hash, "\(path) was sent again") }
        #expect(
            ((try? FileManager.default.contentsOfDirectory(atPath: folders.path)) ?? []).isEmpty,
            "a folder upload that finished leaves no log")

        // download -r mirrors the tree: every file byte-exact, empty files and the empty folder too.
        let out = cli.home.appendingPathComponent("out")
        let down = try await ok(cli, ["download", "-r", "/tree", out.path])
        #expect(down["downloaded"] as? Int == 2000)
        let got = try snapshot(out)
        #expect(Set(got.keys).symmetricDifference(expected.keys).sorted() == [])
        #expect(got.filter { expected[$0.key] != $0.value }.map(\.key).sorted() == [])
        // Run again: everything is complete locally, nothing is fetched.
        let downAgain = try await ok(cli, ["download", "-r", "/tree", out.path])
        #expect(downAgain["downloaded"] as? Int == 0)
        #expect(downAgain["unchanged"] as? Int == 2000)

        // sync with nothing changed writes nothing: no commit, every blobber's root unchanged.
        let roots = await storage.blobberRoots(allocation: a)
        #expect(roots.count == 4)
        let idle = try await ok(cli, ["sync", src.path, "/tree"])
        #expect(idle["writes"] as? Int == 0)
        #expect(idle["unchanged"] as? Int == 2000)
        #expect(await storage.blobberRoots(allocation: a) == roots)

        // A touched file (same content, new mtime) is compared by hash and still not sent.
        let touched = src.appendingPathComponent("alpha/sub1/f10.bin")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -86_400)], ofItemAtPath: touched.path)
        #expect(try await ok(cli, ["sync", src.path, "/tree"])["writes"] as? Int == 0)
        #expect(await storage.blobberRoots(allocation: a) == roots)

        // Change one file, add one, remove one and a folder: --dry-run shows it and writes nothing.
        try Data("changed".utf8).write(to: src.appendingPathComponent("d3/sub0/f3.bin"))
        try Data("new".utf8).write(to: src.appendingPathComponent("日本語/new ✓.txt"))
        try FileManager.default.removeItem(at: src.appendingPathComponent("d4/sub0/f4.bin"))
        try FileManager.default.removeItem(at: src.appendingPathComponent("empty/inner"))
        let dry = try await ok(cli, ["sync", src.path, "/tree", "--delete", "--dry-run"])
        let planned = (dry["planned"] as? [[String: Any]] ?? []).map { "\($0["reason"] ?? "") \($0["path"] ?? "")" }.sorted()
        #expect(planned == ["changed /tree/d3/sub0/f3.bin", "new /tree/日本語/new ✓.txt"])
        #expect((dry["planned_deletes"] as? [String])?.sorted() == ["/tree/d4/sub0/f4.bin", "/tree/empty/inner"])
        #expect(await storage.blobberRoots(allocation: a) == roots)

        let synced = try await ok(cli, ["sync", src.path, "/tree", "--delete"])
        #expect(synced["uploaded"] as? Int == 2)
        #expect((synced["deleted"] as? [String])?.sorted() == ["/tree/d4/sub0/f4.bin", "/tree/empty/inner"])
        let now = try await remoteHashes(storage, a, "/tree")
        #expect(now["/tree/d4/sub0/f4.bin"] == nil)
        #expect(now["/tree/日本語/new ✓.txt"] != nil)
        #expect(now["/tree/d3/sub0/f3.bin"] != sentAfter["/tree/d3/sub0/f3.bin"])
        #expect(now.count == 2000)
        let changedRoots = await storage.blobberRoots(allocation: a)
        #expect(changedRoots != roots)
        // And once more: nothing left to do, nothing written.
        #expect(try await ok(cli, ["sync", src.path, "/tree", "--delete"])["writes"] as? Int == 0)
        #expect(await storage.blobberRoots(allocation: a) == changedRoots)
    }

    @Test func aFailedFileIsListedAtTheEndAndTheRestAreSent() async throws {
        let cli = try cli()
        defer { cli.cleanup() }
        let net = try await devnet(cli, blobbers: 3)
        defer { net.stopBlocking(timeout: 10) }
        try await funded(cli)
        try await ok(cli, ["alloc", "new", "--data", "2", "--parity", "1", "--size", "64MiB", "--expire", "30d"])
        let src = cli.home.appendingPathComponent("src")
        try FileManager.default.createDirectory(at: src.appendingPathComponent("a"), withIntermediateDirectories: true)
        for i in 0..<5 { try Data("file \(i)".utf8).write(to: src.appendingPathComponent("a/f\(i).txt")) }
        // A remote file with other content where the folder upload wants to put a/f2.txt.
        let other = cli.home.appendingPathComponent("other.txt")
        try Data("something else".utf8).write(to: other)
        try await ok(cli, ["upload", other.path, "/up/a/f2.txt"])

        let r = try await cli.run(["upload", "-r", src.path, "/up", "--json"])
        #expect(r.code == 1, "a failed file makes the exit code non-zero")
        let failed = try #require(r.json["failed"] as? [[String: Any]])
        #expect(failed.map { $0["path"] as? String } == ["a/f2.txt"])
        #expect(failed.first?["code"] as? String == "already_exists")
        #expect(r.json["uploaded"] as? Int == 4)
        let text = try await cli.run(["upload", "-r", src.path, "/up"])
        #expect(text.code == 1)
        #expect(text.out.contains("1 failed:") && text.out.contains("a/f2.txt") && text.out.contains("--replace"), "\(text.out)")

        // --replace sends it; then download -r refuses to overwrite a local file with other content.
        let replaced = try await ok(cli, ["upload", "-r", src.path, "/up", "--replace"])
        #expect(replaced["uploaded"] as? Int == 1)
        let out = cli.home.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out.appendingPathComponent("a"), withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: out.appendingPathComponent("a/f0.txt"))
        let down = try await cli.run(["download", "-r", "/up", out.path, "--json"])
        #expect(down.code == 1)
        #expect((down.json["failed"] as? [[String: Any]])?.map { $0["path"] as? String } == ["a/f0.txt"])
        #expect(try String(contentsOf: out.appendingPathComponent("a/f0.txt"), encoding: .utf8) == "mine")
        #expect(down.json["downloaded"] as? Int == 4)
        // download -r of a file, and upload -r of a file, are refused with what to do.
        #expect(try await fails(cli, ["download", "-r", "/up/a/f1.txt", out.path]).contains("without -r"))
        #expect(try await fails(cli, ["upload", "-r", other.path, "/x"]).contains("not a folder"))
    }
}
