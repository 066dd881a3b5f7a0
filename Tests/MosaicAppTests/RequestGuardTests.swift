import Foundation
import MosaicCrypto
import MosaicProtocol
import MosaicSDK
import MosaicTestSupport
import Synchronization
import Testing

@testable import MosaicApp

/// Attacks from a hostile browser or network on a real app server over loopback, without a node:
/// DNS rebinding, cross-site form posts, session floods, passphrase guessing, old share links.
@Suite(.timeLimit(.minutes(3))) struct RequestGuardTests {
    func raw(_ app: TestApp, _ method: String, _ path: String, host: String?, headers: [String] = [], body: Data = Data()) async throws
        -> RawHTTP.Answer
    {
        var head = ["\(method) \(path) HTTP/1.1"]
        if let host { head.append("Host: \(host)") }
        return try await RawHTTP.send(port: app.port, head + headers, body: body)
    }

    /// A page on evil.example whose name the attacker rebinds to 127.0.0.1 reaches the app with
    /// `Host: evil.example:PORT`. Every route, known or not, answers 421 and nothing else happens.
    @Test func dnsRebindingUnderAnotherHostNameIsRefusedEverywhere() async throws {
        let app = try TestApp.start()
        let port = app.port
        for path in [
            "/", "/api/session", "/api/network", "/openapi.json", "/app.js", "/s/mosaic-ticket:abc", "/authorize?app=x", "/no/such/route",
        ] {
            for host in ["evil.example:\(port)", "evil.example", "127.0.0.1.evil.example:\(port)", "localhost:\(port + 1)", "127.0.0.1"] {
                let r = try await raw(app, "GET", path, host: host)
                #expect(r.status == 421, "\(host) \(path)")
                #expect(r.errorCode == "wrong_host", "\(host) \(path)")
                #expect(r.errorMessage?.contains("--allow-host") == true)
                #expect(r.headers["set-cookie"] == nil, "no session for a foreign host")
            }
        }
        // A state change from the rebinding page: refused before any session or CSRF check.
        let post = try await raw(
            app, "POST", "/api/wallets", host: "evil.example:\(port)", headers: ["Content-Type: application/json"],
            body: Data(#"{"passphrase":"long enough","passphrase_confirm":"long enough"}"#.utf8))
        #expect(post.status == 421)
        // An HTTP/1.0 request without any Host is refused too.
        let none = try await RawHTTP.send(port: port, ["GET /api/session HTTP/1.0"])
        #expect(none.status == 421)
        #expect(app.server.sessions.count == 0, "no refused request created a session")
        #expect(Keystore(home: app.home).list().isEmpty, "nothing was created")
        // The app's own names still work (any letter case), and it is still alive.
        for host in ["127.0.0.1:\(port)", "localhost:\(port)", "LocalHost:\(port)", "[::1]:\(port)"] {
            let r = try await raw(app, "GET", "/api/session", host: host)
            #expect(r.status == 200, "\(host)")
        }
        await app.stop()
    }

    @Test func aNameGivenWithAllowHostIsAnsweredAndOthersAreNot() async throws {
        let app = try TestApp.start { $0.allowedHosts = ["mosaic.local", "proxy.example:8443"] }
        let port = app.port
        #expect(try await raw(app, "GET", "/api/session", host: "mosaic.local:\(port)").status == 200)
        #expect(try await raw(app, "GET", "/api/session", host: "proxy.example:8443").status == 200)
        #expect(try await raw(app, "GET", "/api/session", host: "proxy.example:\(port)").status == 421)
        #expect(try await raw(app, "GET", "/api/session", host: "other.local:\(port)").status == 421)
        await app.stop()
    }

    /// A cross-site HTML form can post only form or text bodies (no preflight). Even with a valid
    /// cookie and CSRF token such a body is refused with 415 and changes nothing.
    @Test func aPlainFormPostIsRefusedWith415AndChangesNothing() async throws {
        let app = try TestApp.start()
        let c = app.client()
        try await c.begin()
        let json = Data(#"{"passphrase":"long enough","passphrase_confirm":"long enough"}"#.utf8)
        for type in [
            "application/x-www-form-urlencoded", "text/plain", "multipart/form-data; boundary=x", "text/plain; charset=utf-8",
            "application/jsonp", "application/json-patch+json",
        ] {
            let r = try await c.send("POST", "/api/wallets", rawBody: json, contentType: type)
            #expect(r.status == 415, "\(type)")
            #expect(r.errorCode == "unsupported_media_type", "\(type)")
            #expect(r.errorMessage?.contains("Content-Type: application/json") == true)
        }
        // A body with no type at all is refused the same way.
        let untyped = try await raw(
            app, "POST", "/api/wallets", host: "127.0.0.1:\(app.port)",
            headers: ["Cookie: mosaic_session=\(c.cookie ?? "")", "X-CSRF-Token: \(c.csrf ?? "")"], body: json)
        #expect(untyped.status == 415)
        #expect(Keystore(home: app.home).list().isEmpty, "no wallet was created")
        #expect(try await c.send("GET", "/api/session").json["state"] as? String == "no_wallet")
        // The real page's request (JSON, any case, with a charset) still works.
        let ok = try await c.send("POST", "/api/wallets", rawBody: json, contentType: "Application/JSON; charset=utf-8")
        #expect(ok.status == 201)
        // Requests without a body need no type (sign out, faucet).
        #expect(try await c.send("POST", "/api/lock").status == 204)
        await app.stop()
    }

    /// Uploads stream raw bytes with their own type, so they cannot require JSON; they still need
    /// the session's CSRF header, and without it nothing is read or stored.
    @Test func uploadsWithoutTheCSRFHeaderAreRefused() async throws {
        let app = try TestApp.start()
        let c = app.client()
        try await c.begin()
        try await c.send("POST", "/api/wallets", json: ["passphrase": "long enough", "passphrase_confirm": "long enough"])
        for path in ["/api/files/upload?path=/x.html", "/api/locker/upload?name=x"] {
            for type in ["text/html", "multipart/form-data; boundary=x", "application/octet-stream"] {
                let r = try await c.send("POST", path, csrf: false, rawBody: Data("<script>alert(1)</script>".utf8), contentType: type)
                #expect(r.status == 403, "\(path) \(type)")
                #expect(r.errorCode == "csrf_missing", "\(path) \(type)")
            }
        }
        let spool = app.home.appendingPathComponent("app-spool")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: spool.path))?.isEmpty ?? true, "nothing was spooled")
        #expect(try await c.send("GET", "/api/wallet").status == 200, "the app is still up")
        await app.stop()
    }

    /// Idle sessions are forgotten altogether, not only locked: the map shrinks, the old cookie
    /// no longer works, and the unlocked keys are released (their `SecretBytes` zeroed on deinit).
    /// No request comes meanwhile: the app's timer does it. The clock is moved on, not waited for.
    @Test func idleSessionsAreForgottenAndTheirKeysReleased() async throws {
        let now = TestClock()
        let app = try TestApp.start(idleTimeout: 1) {
            $0.sessionIdleLimit = 60
            $0.clock = { now.date }
        }
        let c = app.client()
        try await c.begin()
        let created = try await c.send("POST", "/api/wallets", json: ["passphrase": "long enough", "passphrase_confirm": "long enough"])
        #expect(created.status == 201, "\(created.errorMessage ?? "")")
        let id = try #require(c.cookie)
        weak var entropy: SecretBytes?
        app.server.sessions.update(id) { entropy = $0.wallet?.mnemonic.entropy }
        #expect(entropy != nil)
        #expect(app.server.sessions.count == 1)
        // Idle past the wallet's timeout: the timer locks it (the keys go), the session stays.
        now.advance(2)
        try await waitUntil { entropy == nil }
        #expect(entropy == nil, "the idle wallet's keys were released")
        #expect(app.server.sessions.count == 1, "locked, not yet forgotten")
        // Idle past the session's limit: the timer forgets the session.
        now.advance(60)
        try await waitUntil { app.server.sessions.count == 0 }
        #expect(app.server.sessions.count == 0)
        let r = try await c.send("GET", "/api/wallet")
        #expect(r.status == 401)
        #expect(r.errorCode == "no_session")
        await app.stop()
    }

    func waitUntil(_ done: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while !done() && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
    }

    /// A flood of anonymous visits (each GET without a cookie makes a session) stays within the cap
    /// and does not push out the signed-in session.
    @Test func aSessionFloodIsCappedAndKeepsTheSignedInUser() async throws {
        let app = try TestApp.start { $0.maxSessions = 8 }
        let user = app.client()
        try await user.begin()
        try await user.send("POST", "/api/wallets", json: ["passphrase": "long enough", "passphrase_confirm": "long enough"])
        for _ in 0..<60 {
            let flood = app.client()
            #expect(try await flood.send("GET", "/api/session").status == 200)
        }
        #expect(app.server.sessions.count <= 8)
        #expect(try await user.send("GET", "/api/wallet").status == 200, "the signed-in session survived the flood")
        // With every slot holding a wallet, the stalest one goes (its keys with it).
        let store = SessionStore(idleTimeout: 60, maxSessions: 2)
        let a = store.create()
        let b = store.create()
        let w = try Keystore(home: app.home, kdfParameters: .testing).unlock(name: "default", passphrase: "long enough")
        store.update(a.id) { $0.wallet = w }
        store.update(b.id) { $0.wallet = w }
        _ = store.touch(b.id)
        _ = store.create()
        #expect(store.count == 2)
        #expect(store.touch(a.id) == nil)
        #expect(store.touch(b.id)?.wallet != nil)
        await app.stop()
    }

    /// Passphrase guessing through the app: per session, five wrong ones, then every try waits
    /// (even with the right passphrase, which then does not unlock); across sessions, twenty.
    @Test func unlockGuessesWaitPerSessionAndAcrossSessions() async throws {
        let now = TestClock()
        let app = try TestApp.start { $0.clock = { now.date } }
        let c = app.client()
        try await c.begin()
        try await c.send("POST", "/api/wallets", json: ["name": "main", "passphrase": "long enough", "passphrase_confirm": "long enough"])
        try await c.send("POST", "/api/lock")
        for i in 1...5 {
            let r = try await c.send("POST", "/api/unlock", json: ["name": "main", "passphrase": "guess \(i) wrong"])
            #expect(r.status == 401)
            #expect(r.errorCode == "wrong_passphrase")
        }
        let waiting = try await c.send("POST", "/api/unlock", json: ["name": "main", "passphrase": "long enough"])
        #expect(waiting.status == 429)
        #expect(waiting.errorCode == "too_many_attempts")
        #expect(waiting.headers["retry-after"] == "2", "\(waiting.headers)")
        #expect(waiting.errorMessage?.contains("wait") == true)
        #expect(
            try await c.send("GET", "/api/session").json["state"] as? String == "locked",
            "the right passphrase did not unlock while waiting")
        // Another session is not slowed by this one's count; a right passphrase takes its own try
        // back. The reveal checks the passphrase too, and its wrong one counts like an unlock's.
        let other = app.client()
        try await other.begin()
        #expect(try await other.send("POST", "/api/unlock", json: ["name": "main", "passphrase": "long enough"]).status == 200)
        #expect(try await other.send("POST", "/api/wallet/reveal", json: ["passphrase": "not it at all"]).errorCode == "wrong_passphrase")
        // Fresh sessions for every few guesses do not escape the app-wide count: 5 + 1 so far, 20 free.
        var wrong = 6
        while wrong < 20 {
            let s = app.client()
            try await s.begin()
            for _ in 0..<4 where wrong < 20 {
                #expect(try await s.send("POST", "/api/unlock", json: ["name": "main", "passphrase": "still wrong"]).status == 401)
                wrong += 1
            }
        }
        let fresh = app.client()
        try await fresh.begin()
        let global = try await fresh.send("POST", "/api/unlock", json: ["name": "main", "passphrase": "long enough"])
        #expect(global.status == 429)
        #expect(global.errorCode == "too_many_attempts")
        #expect(global.errorMessage?.contains("on this app") == true)
        // It is a delay, not a lock-out: once it has passed, the right passphrase unlocks.
        now.advance(2.5)
        #expect(try await fresh.send("POST", "/api/unlock", json: ["name": "main", "passphrase": "long enough"]).status == 200)
        // An unknown wallet name is not a guess and costs nothing.
        let names = app.client()
        try await names.begin()
        for _ in 0..<8 {
            let r = try await names.send("POST", "/api/unlock", json: ["name": "nobody", "passphrase": "x"])
            #expect(r.status == 404, "\(r.status) \(r.errorMessage ?? "")")
        }
        #expect(try await names.send("POST", "/api/unlock", json: ["name": "main", "passphrase": "long enough"]).status == 200)
        await app.stop()
    }

    /// An old share link (the key inside the ticket, in the path) is answered with a redirect to
    /// the new form, the key in the fragment; the access log shows neither the key nor the ticket.
    @Test func anOldShareLinkMovesTheKeyToTheFragmentAndTheLogNeverHoldsIt() async throws {
        let lines = Mutex<[String]>([])
        let app = try TestApp.start {
            $0.logRequests = true
            $0.logger = { line in lines.withLock { $0.append(line) } }
        }
        let owner = Ed25519.SigningKey.generate()
        let key = SecretBytes(Random.bytes(32))
        let token = try ShareToken(
            owner: owner, allocationID: String(repeating: "a", count: 64), path: "/photo.jpg", kind: .file,
            contentKey: key, recipient: nil, expiration: 0)
        let keyHex = Hex.encode(key.copyBytes())
        let old = try await raw(app, "GET", "/s/" + token.encoded, host: "127.0.0.1:\(app.port)")
        #expect(old.status == 303)
        let location = try #require(old.headers["location"])
        #expect(location == "/s/" + token.withoutKey.encoded + "#key=" + keyHex)
        #expect(try ShareToken.decode(link: "http://127.0.0.1:\(app.port)" + location) == token)
        // Posting the key as a form (a cross-site page) is refused; the old GET download is gone.
        let form = try await raw(
            app, "POST", "/s/\(token.withoutKey.encoded)/download", host: "127.0.0.1:\(app.port)",
            headers: ["Content-Type: application/x-www-form-urlencoded"], body: Data("key=\(keyHex)".utf8))
        #expect(form.status == 415)
        let get = try await raw(app, "GET", "/s/\(token.withoutKey.encoded)/download", host: "127.0.0.1:\(app.port)")
        #expect(get.status == 405)
        let damaged = try await raw(
            app, "POST", "/s/\(token.withoutKey.encoded)/download", host: "127.0.0.1:\(app.port)",
            headers: ["Content-Type: application/json"], body: Data(#"{"key":"zz"}"#.utf8))
        #expect(damaged.status == 400)
        #expect(damaged.errorCode == "invalid_ticket")
        await app.stop()
        let log = lines.withLock { $0 }.joined(separator: "\n")
        #expect(log.contains("GET /s/mosaic-ticket:… 303"), "\(log)")
        #expect(!log.contains(keyHex))
        #expect(!log.contains(token.encoded.dropFirst(ShareToken.prefix.count).prefix(24)))
    }

    /// Errors about the app's own files (a damaged config or wallet file) say what is wrong
    /// without showing where the Mosaic home is on this machine.
    @Test func errorsNeverShowTheHomeFolder() async throws {
        let app = try TestApp.start()
        let c = app.client()
        try await c.begin()
        try await c.send("POST", "/api/wallets", json: ["name": "main", "passphrase": "long enough", "passphrase_confirm": "long enough"])
        try await c.send("POST", "/api/lock")
        try Data("{ not json".utf8).write(to: app.home.appendingPathComponent("config.json"))
        let walletFile = try #require(
            try FileManager.default.subpathsOfDirectory(atPath: app.home.path).first { $0.hasSuffix("main.json") })
        try Data("{ damaged".utf8).write(to: app.home.appendingPathComponent(walletFile))
        var answers: [(String, Int, String)] = []
        for (method, path, body) in [
            ("GET", "/api/network", nil), ("POST", "/api/unlock", ["name": "main", "passphrase": "long enough"]),
            ("POST", "/api/network", ["name": "devnet"]),
            ("GET", "/authorize?app=demo&scopes=vote&redirect=http%3A%2F%2Fa%2Fcb&bounced=1", nil),
        ] as [(String, String, [String: String]?)] {
            let r = try await c.send(method, path, json: body)
            answers.append((path, r.status, String(decoding: r.body, as: UTF8.self)))
        }
        for (path, status, text) in answers {
            #expect(status >= 400, "\(path) \(status)")
            #expect(!text.contains(app.home.path), "\(path) shows the home folder: \(text)")
            #expect(!text.contains(app.home.path.replacingOccurrences(of: "/", with: "\\/")), "\(path): \(text)")
        }
        #expect(answers.contains { $0.2.contains("$MOSAIC_HOME/config.json") }, "the message still says which file: \(answers)")
        await app.stop()
    }
}

/// A clock a test moves on by hand.
final class TestClock: Sendable {
    private let now = Mutex(Date())
    var date: Date { now.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { now.withLock { $0 = $0.addingTimeInterval(seconds) } }
}
