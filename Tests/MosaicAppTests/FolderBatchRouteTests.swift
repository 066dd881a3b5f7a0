import Foundation
import MosaicCrypto
import MosaicTestSupport
import Testing

@testable import MosaicApp

/// The web app's folder batches (`POST /api/files/batch`) against a real devnet: a dropped
/// folder's small files land in one commit with their tree and times, a second drop sends
/// nothing, a conflict is named per file, and malformed batches are refused with nothing written.
@Suite(.serialized, .timeLimit(.minutes(6))) struct FolderBatchRouteTests {
    struct File {
        let path: String
        let bytes: [UInt8]
        let modified: Int64
    }

    /// The framed body a page builds: u32 BE manifest length, the manifest, the files' bytes.
    static func body(_ files: [File], manifest: [[String: Any]]? = nil) throws -> Data {
        let list = manifest ?? files.map { ["path": $0.path, "size": $0.bytes.count, "modified": $0.modified] }
        let json = try JSONSerialization.data(withJSONObject: ["files": list])
        var out = Data([
            UInt8(json.count >> 24 & 0xff), UInt8(json.count >> 16 & 0xff), UInt8(json.count >> 8 & 0xff), UInt8(json.count & 0xff),
        ])
        out.append(json)
        for f in files { out.append(contentsOf: f.bytes) }
        return out
    }

    func post(_ s: StorageAttackTests.Setup, folder: String, _ body: Data, replace: Bool = false) async throws -> AppTestClient.Reply {
        let path = folder.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? folder
        return try await s.browser.send(
            "POST", "/api/files/batch?alloc=\(s.alloc)&path=\(path)" + (replace ? "&replace=true" : ""), rawBody: body,
            contentType: "application/octet-stream")
    }

    func list(_ s: StorageAttackTests.Setup, _ folder: String) async throws -> [String: [String: Any]] {
        let path = folder.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? folder
        let r = try await s.browser.send("GET", "/api/files?alloc=\(s.alloc)&path=\(path)")
        #expect(r.status == 200, "\(folder): \(r.errorMessage ?? "")")
        let entries = r.json["entries"] as? [[String: Any]] ?? []
        return Dictionary(entries.compactMap { e in (e["name"] as? String).map { ($0, e) } }, uniquingKeysWith: { a, _ in a })
    }

    /// A fresh devnet and app for `body`, stopped whatever `body` does.
    func withDevnet(_ body: (StorageAttackTests.Setup) async throws -> Void) async throws {
        let s = try await StorageAttackTests.setUp()
        do { try await body(s) } catch {
            await s.stop()
            throw error
        }
        await s.stop()
    }

    @Test func aDroppedFolderLandsInOneCommitAndASecondDropSendsNothing() async throws {
        try await withDevnet { s in try await droppedFolder(s) }
    }

    func droppedFolder(_ s: StorageAttackTests.Setup) async throws {
        // 60 files in nested folders, with an empty file and names beyond ASCII.
        var files: [File] = []
        for i in 0..<57 {
            files.append(
                File(path: "trip/day\(i % 3)/photo-\(i).jpg", bytes: Random.bytes(1 + (i * 997) % 9000), modified: 1_700_000_000 + Int64(i))
            )
        }
        files.append(File(path: "trip/empty.txt", bytes: [], modified: 1_700_000_100))
        files.append(File(path: "trip/Ünïcødé 日本/ファイル.txt", bytes: Array("こんにちは".utf8), modified: 1_700_000_200))
        files.append(File(path: "trip/day0/notes.md", bytes: Array("# day 0".utf8), modified: 1_700_000_300))

        let r = try await post(s, folder: "/", try Self.body(files))
        #expect(r.status == 200, "\(r.errorMessage ?? "")")
        #expect(Set(r.json["uploaded"] as? [String] ?? []) == Set(files.map(\.path)))
        #expect((r.json["failed"] as? [Any])?.isEmpty == true, "\(r.json)")
        #expect(r.json["writes"] as? Int == 1, "the whole batch is one commit: \(r.json)")

        let day0 = try await list(s, "/trip/day0")
        #expect(day0.count == 20, "\(day0.keys.sorted())")
        #expect(day0["notes.md"]?["modified"] as? Int == 1_700_000_300, "the page's time is kept")
        #expect(try await list(s, "/trip")["empty.txt"]?["size"] as? Int == 0)
        for f in [files[5], files[57], files[58]] {
            let path = ("/" + f.path).addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? f.path
            let got = try await s.browser.send("GET", "/api/files/download?alloc=\(s.alloc)&path=\(path)")
            #expect(got.status == 200, "\(f.path): \(got.errorMessage ?? "")")
            #expect(got.body == Data(f.bytes), "\(f.path) reads back byte for byte")
        }

        // The same drop again (a resumed or repeated one): nothing is sent, nothing written.
        let again = try await post(s, folder: "/", try Self.body(files))
        #expect(again.status == 200, "\(again.errorMessage ?? "")")
        #expect((again.json["uploaded"] as? [String])?.isEmpty == true, "\(again.json)")
        #expect(Set(again.json["unchanged"] as? [String] ?? []) == Set(files.map(\.path)))
        #expect(again.json["writes"] as? Int == 0)

        // Another file where one stands: named as a conflict (the page offers Replace and Keep
        // both); the new file beside it goes in.
        let clash = [
            File(path: "trip/day0/notes.md", bytes: Array("# another day 0, longer".utf8), modified: 1_700_000_400),
            File(path: "trip/day0/new.md", bytes: Array("new".utf8), modified: 1_700_000_500),
        ]
        let c = try await post(s, folder: "/", try Self.body(clash))
        #expect(c.status == 200, "\(c.errorMessage ?? "")")
        #expect(c.json["uploaded"] as? [String] == ["trip/day0/new.md"], "\(c.json)")
        let failed = try #require((c.json["failed"] as? [[String: Any]])?.first, "\(c.json)")
        #expect(failed["path"] as? String == "trip/day0/notes.md")
        #expect(failed["code"] as? String == "exists")
        #expect((failed["message"] as? String)?.contains("--") == false, "the page's words, no CLI flags: \(failed)")
        let replaced = try await post(s, folder: "/", try Self.body([clash[0]]), replace: true)
        #expect(replaced.json["uploaded"] as? [String] == ["trip/day0/notes.md"], "\(replaced.json)")
        #expect(try await list(s, "/trip/day0")["notes.md"]?["size"] as? Int == clash[0].bytes.count)
    }

    @Test func malformedBatchesAreRefusedAndWriteNothing() async throws {
        try await withDevnet { s in try await malformed(s) }
    }

    func malformed(_ s: StorageAttackTests.Setup) async throws {
        let ok = File(path: "in/a.txt", bytes: Array("a".utf8), modified: 1_700_000_000)
        func refused(_ body: Data, _ status: Int, _ code: String, _ why: Comment) async throws {
            let r = try await post(s, folder: "/", body)
            #expect(r.status == status, "\(why): \(r.status) \(r.errorMessage ?? "")")
            #expect(r.errorCode == code, "\(why): \(r.errorCode ?? "none")")
        }
        try await refused(Data(), 400, "invalid_batch", "an empty body")
        try await refused(Data([0xff, 0xff, 0xff, 0xff]), 400, "invalid_batch", "a manifest length beyond the body")
        try await refused(Data([0, 0, 0, 3]) + Data("{x}".utf8), 400, "invalid_batch", "a manifest that is not JSON")
        for bad in ["../a.txt", "/abs.txt", "in//a.txt", "in/./a.txt", "", "in/a\u{0}.txt", String(repeating: "n", count: 256)] {
            let f = File(path: bad, bytes: [1], modified: 1)
            try await refused(try Self.body([f]), 422, "invalid_path", "the path \(bad.prefix(20).debugDescription)")
        }
        try await refused(try Self.body([ok, ok]), 422, "invalid_batch", "a path listed twice")
        try await refused(
            try Self.body([File(path: "in", bytes: [1], modified: 1), ok]), 422, "invalid_batch", "a file and a folder of one name")
        try await refused(
            try Self.body([File(path: "big.bin", bytes: [UInt8](repeating: 7, count: 256 * 1024 + 1), modified: 1)]), 422,
            "invalid_batch", "a file too large for a batch")
        try await refused(
            try Self.body([File(path: "t.txt", bytes: [1], modified: -1)]), 422, "invalid_batch", "a time before 1970")
        try await refused(
            try Self.body([ok], manifest: [["path": "in/a.txt", "size": 5, "modified": 1]]), 400, "invalid_batch",
            "sizes that do not add up to the body")
        try await refused(
            try Self.body([ok], manifest: [["path": "in/a.txt", "size": -1, "modified": 1]]), 422, "invalid_batch", "a negative size")
        let many = (0...128).map { File(path: "m/\($0)", bytes: [1], modified: 1) }
        try await refused(try Self.body(many), 422, "invalid_batch", "129 files")
        let huge = try await post(s, folder: "/", Data(count: UploadBatch.maxBodyBytes + 1))
        #expect(huge.status == 413, "\(huge.status) \(huge.errorMessage ?? "")")
        let badFolder = try await post(s, folder: "/a/../b", try Self.body([ok]))
        #expect(badFolder.status == 422 || badFolder.status == 400, "\(badFolder.status) \(badFolder.errorMessage ?? "")")
        #expect(try await list(s, "/").isEmpty, "nothing was written")
    }
}
