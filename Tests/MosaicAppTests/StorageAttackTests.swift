import Foundation
import MosaicCrypto
import MosaicSDK
import MosaicTestSupport
import Synchronization
import Testing

@testable import MosaicApp

/// Attacks that need real files: a real app server over loopback in front of `mosaic devnet`
/// (node and four blobbers). Hostile files are never shown inline, a share link's key never reaches
/// the log, a locked file's count survives a rename, and errors show no server folder.
@Suite(.serialized, .timeLimit(.minutes(6))) struct StorageAttackTests {
    /// The devnet, the app on the same home and a signed-in browser with an allocation.
    struct Setup {
        let devnet: MosaicProcess
        let app: TestApp
        let browser: AppTestClient
        let alloc: String
        let log: LogLines

        var home: URL { app.home }

        func stop() async {
            await devnet.terminate(timeout: 20)
            await app.stop()
        }
    }

    static func setUp() async throws -> Setup {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("mosaic-app-storage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let devnet = try MosaicProcess(
            [
                "devnet", "--dir", home.appendingPathComponent("dn").path, "--port", "0", "--no-app",
                "--block-time", "100ms", "--confirmations", "1", "--blobbers", "4", "--json",
            ],
            environment: ["MOSAIC_HOME": home.path])
        _ = try #require(await devnet.firstJSON(timeout: 60), "the devnet did not start")
        let lines = LogLines()
        let app = try TestApp.start(home: home, network: "devnet") {
            $0.logRequests = true
            $0.logger = { line in lines.append(line) }
        }
        let b = app.client()
        try await b.begin()
        #expect(
            try await b.send("POST", "/api/wallets", json: ["passphrase": "long enough", "passphrase_confirm": "long enough"]).status == 201
        )
        let pour = try await b.send("POST", "/api/faucet")
        let hash = try #require(pour.json["hash"] as? String, "\(pour.errorMessage ?? "")")
        _ = try await b.send("GET", "/api/transactions/\(hash)/wait?until=sealed&timeout=30")
        let alloc = try await b.send(
            "POST", "/api/allocations",
            json: [
                "name": "attack", "data_shards": 2, "parity_shards": 2,
                "size": "32MiB", "expire": "1d", "lock": "0.5",
            ])
        let id = try #require(alloc.json["id"] as? String, "\(alloc.errorMessage ?? "")")
        return Setup(devnet: devnet, app: app, browser: b, alloc: id, log: lines)
    }

    func upload(_ s: Setup, _ path: String, _ bytes: [UInt8], type: String) async throws {
        let r = try await s.browser.send("POST", "/api/files/upload?alloc=\(s.alloc)&path=\(path)", rawBody: Data(bytes), contentType: type)
        #expect(r.status == 201, "\(path): \(r.errorMessage ?? "")")
    }

    @Test func hostileFilesSharesLockerRenamesAndErrorPaths() async throws {
        let s = try await Self.setUp()
        let b = s.browser
        let a = s.alloc

        // 1. Files that claim to be images but hold script are never served inline.
        let svg = Array("<svg xmlns=\"http://www.w3.org/2000/svg\" onload=\"alert(document.cookie)\"></svg>".utf8)
        let html = Array("<!doctype html><script>fetch('/api/wallet/reveal')</script>".utf8)
        let png = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Random.bytes(3000)
        try await upload(s, "/cat.png", svg, type: "image/png")
        try await upload(s, "/cat.svg", svg, type: "image/svg+xml")
        try await upload(s, "/page.html", html, type: "text/html")
        try await upload(s, "/real.png", png, type: "application/octet-stream")
        for path in ["/cat.png", "/cat.svg", "/page.html"] {
            for route in ["thumbnail", "download"] {
                let r = try await b.send("GET", "/api/files/\(route)?alloc=\(a)&path=\(path)")
                #expect(r.status == 200, "\(route) \(path)")
                #expect(r.headers["content-type"] == "application/octet-stream", "\(route) \(path): \(r.headers)")
                #expect(r.headers["content-disposition"]?.hasPrefix("attachment;") == true, "\(route) \(path)")
                #expect(r.headers["x-content-type-options"]?.contains("nosniff") == true)
                #expect(r.headers["content-security-policy"]?.contains("sandbox") == true)
                #expect(r.body == Data(path == "/page.html" ? html : svg), "the bytes are the user's, only their labels changed")
            }
        }
        // A real image (whatever type its uploader gave) is the one thing shown in place.
        let thumb = try await b.send("GET", "/api/files/thumbnail?alloc=\(a)&path=/real.png")
        #expect(thumb.headers["content-type"] == "image/png")
        #expect(thumb.headers["content-disposition"]?.hasPrefix("inline;") == true)
        #expect(thumb.body == Data(png))
        let download = try await b.send("GET", "/api/files/download?alloc=\(a)&path=/real.png")
        #expect(download.headers["content-disposition"]?.hasPrefix("attachment;") == true)

        // 2. A public share link: the key is in the fragment, the page posts it in a JSON body.
        let share = try await b.send("POST", "/api/files/share", json: ["alloc": a, "path": "/real.png", "expire": "1d"])
        let link = try #require(share.json["url"] as? String, "\(share.errorMessage ?? "")")
        let url = try #require(URL(string: link))
        let keyHex = try #require(url.fragment?.split(separator: "=").last.map(String.init))
        #expect(url.fragment == "key=" + keyHex)
        #expect(!url.path.contains(keyHex))
        #expect(try ShareToken.decode(String(url.path.dropFirst(3))).key == nil, "the ticket in the path carries no key")
        let reader = AppTestClient(base: s.app.server.baseURL)
        let page = try await reader.send("GET", url.path)
        #expect(page.status == 200)
        #expect(String(decoding: page.body, as: UTF8.self).contains("/share.js"))
        let got = try await reader.send("POST", url.path + "/download", json: ["key": keyHex])
        #expect(got.status == 200, "\(got.errorMessage ?? "")")
        #expect(got.body == Data(png))
        #expect(got.headers["content-disposition"]?.hasPrefix("attachment;") == true)
        // Without the key, with a wrong one, or as a form: refused, and never a 5xx.
        let none = try await reader.send("POST", url.path + "/download", json: [:])
        #expect((400..<500).contains(none.status), "\(none.status) \(none.errorMessage ?? "")")
        let wrong = try await reader.send("POST", url.path + "/download", json: ["key": Hex.encode(Random.bytes(32))])
        #expect((400..<500).contains(wrong.status), "\(wrong.status) \(wrong.errorMessage ?? "")")
        let form = try await reader.send(
            "POST", url.path + "/download", rawBody: Data("key=\(keyHex)".utf8), contentType: "application/x-www-form-urlencoded")
        #expect(form.status == 415)

        // 3. The Locker: five wrong PINs, then the attacker renames the file for fresh tries.
        let locked = try await b.send(
            "POST", "/api/locker/upload?alloc=\(a)&name=diary.txt", rawBody: Data(Random.bytes(2000)),
            contentType: "application/octet-stream", headers: ["X-Locker-PIN": "Sentinel4821", "X-Locker-PIN-Repeat": "Sentinel4821"])
        #expect(locked.status == 201, "\(locked.errorMessage ?? "")")
        for _ in 1...5 {
            #expect(try await b.send("POST", "/api/locker/download", json: ["alloc": a, "name": "diary.txt", "pin": "1111"]).status == 403)
        }
        #expect(
            try await b.send("POST", "/api/locker/download", json: ["alloc": a, "name": "diary.txt", "pin": "Sentinel4821"]).status == 429)
        let moved = try await b.send(
            "POST", "/api/files/move", json: ["alloc": a, "from": "/locker/diary.txt", "to": "/locker/renamed.txt"])
        #expect(moved.status == 200, "\(moved.errorMessage ?? "")")
        let renamed = try await b.send("POST", "/api/locker/download", json: ["alloc": a, "name": "renamed.txt", "pin": "Sentinel4821"])
        #expect(renamed.status == 429, "a rename gives no fresh tries: \(renamed.errorMessage ?? "")")
        #expect(renamed.errorCode == "too_many_attempts")

        // 4. Errors about the app's own files show no folder of this machine.
        let attempts = s.home.appendingPathComponent("locker/attempts.json")
        try Data("damaged".utf8).write(to: attempts)
        let damaged = try await b.send("POST", "/api/locker/download", json: ["alloc": a, "name": "renamed.txt", "pin": "Sentinel4821"])
        #expect(damaged.status >= 400)
        #expect(damaged.errorMessage?.contains("$MOSAIC_HOME/locker/attempts.json") == true, "\(damaged.errorMessage ?? "")")
        let spool = s.home.appendingPathComponent("app-spool")
        try? FileManager.default.removeItem(at: spool)
        try Data("not a folder".utf8).write(to: spool)
        let noSpool = try await b.send("GET", "/api/files/download?alloc=\(a)&path=/real.png")
        #expect(noSpool.status >= 400)
        var answers = [damaged, noSpool]
        for path in [
            "/api/files?alloc=\(a)&path=/no/such/folder", "/api/files/download?alloc=\(a)&path=/missing.bin",
            "/api/files?alloc=\(a)&path=../../etc", "/api/allocations/\(String(repeating: "0", count: 64))",
        ] {
            answers.append(try await b.send("GET", path))
        }
        for r in answers {
            let text = String(decoding: r.body, as: UTF8.self)
            #expect(r.status >= 400)
            #expect(!text.contains(s.home.path), "\(text)")
            #expect(!text.contains(FileManager.default.temporaryDirectory.path + "/mosaic"), "\(text)")
        }
        await s.stop()

        // 5. The access log holds no key and no request body.
        let log = s.log.text
        #expect(log.contains("POST /s/mosaic-ticket:…/download 200"), "\(log.suffix(2000))")
        #expect(!log.contains(keyHex))
        #expect(!log.contains("Sentinel4821"))
        #expect(!log.contains("long enough"))
    }
}

/// The app's access log, kept for the test to read.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var text: String { lines.withLock { $0 }.joined(separator: "\n") }
}
