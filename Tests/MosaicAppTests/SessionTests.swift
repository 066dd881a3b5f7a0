import Foundation
import Testing

@testable import MosaicApp

@Suite(.timeLimit(.minutes(2))) struct SessionTests {
    @Test func firstVisitGetsAStrictHttpOnlyCookieAndNoWalletState() async throws {
        let app = try TestApp.start()
        let c = app.client()
        let r = try await c.begin()
        #expect(r.status == 200)
        #expect(r.json["state"] as? String == "no_wallet")
        let cookie = try #require(r.headers["set-cookie"])
        #expect(cookie.contains("HttpOnly"))
        #expect(cookie.contains("SameSite=Strict"))
        #expect((r.json["csrf"] as? String)?.count == 64)
        await app.stop()
    }

    @Test func createWalletShowsMnemonicOnceAndUnlocks() async throws {
        let app = try TestApp.start()
        let c = app.client()
        try await c.begin()
        let created = try await c.send("POST", "/api/wallets", json: ["passphrase": "long enough", "passphrase_confirm": "long enough"])
        #expect(created.status == 201)
        #expect((created.json["mnemonic"] as? String)?.split(separator: " ").count == 24)
        let state = try await c.send("GET", "/api/session")
        #expect(state.json["state"] as? String == "unlocked")
        #expect(!String(decoding: state.body, as: UTF8.self).contains(created.json["mnemonic"] as? String ?? "x"))
        let wallet = try await c.send("GET", "/api/wallet")
        #expect(wallet.json["client_id"] as? String == created.json["client_id"] as? String)
        #expect(wallet.json["mnemonic"] == nil)
        await app.stop()
    }

    @Test func stateChangesWithoutCSRFTokenAreRejected() async throws {
        let app = try TestApp.start()
        let c = app.client()
        try await c.begin()
        let missing = try await c.send(
            "POST", "/api/wallets", json: ["passphrase": "long enough", "passphrase_confirm": "long enough"], csrf: false)
        #expect(missing.status == 403)
        #expect(missing.errorCode == "csrf_missing")
        c.csrf = String(repeating: "0", count: 64)
        let wrong = try await c.send("POST", "/api/wallets", json: ["passphrase": "long enough", "passphrase_confirm": "long enough"])
        #expect(wrong.status == 403)
        #expect(wrong.errorCode == "csrf_invalid")
        // Nothing was created.
        #expect(try await c.send("GET", "/api/session").json["state"] as? String == "no_wallet")
        await app.stop()
    }

    @Test func wrongPassphraseHasItsOwnAnswer() async throws {
        let app = try TestApp.start()
        let c = app.client()
        try await c.begin()
        try await c.send("POST", "/api/wallets", json: ["name": "main", "passphrase": "long enough", "passphrase_confirm": "long enough"])
        try await c.send("POST", "/api/lock")
        let r = try await c.send("POST", "/api/unlock", json: ["name": "main", "passphrase": "not the one"])
        #expect(r.status == 401)
        #expect(r.errorCode == "wrong_passphrase")
        #expect(r.errorMessage == "wrong passphrase for wallet main")
        let ok = try await c.send("POST", "/api/unlock", json: ["name": "main", "passphrase": "long enough"])
        #expect(ok.status == 200)
        let reveal = try await c.send("POST", "/api/wallet/reveal", json: ["passphrase": "nope nope"])
        #expect(reveal.errorCode == "wrong_passphrase")
        await app.stop()
    }

    @Test func idleSessionExpiresWithItsOwnAnswer() async throws {
        let app = try TestApp.start(idleTimeout: 0.3)
        let c = app.client()
        try await c.begin()
        try await c.send("POST", "/api/wallets", json: ["passphrase": "long enough", "passphrase_confirm": "long enough"])
        try await Task.sleep(for: .milliseconds(600))
        let r = try await c.send("GET", "/api/wallet")
        #expect(r.status == 401)
        #expect(r.errorCode == "session_expired")
        let noSession = try await AppTestClient(base: app.server.baseURL).send("POST", "/api/lock")
        #expect(noSession.status == 401)
        #expect(noSession.errorCode == "no_session")
        await app.stop()
    }

    @Test func badInputIsRefusedWithMessages() async throws {
        let app = try TestApp.start()
        let c = app.client()
        try await c.begin()
        let weak = try await c.send("POST", "/api/wallets", json: ["passphrase": "short", "passphrase_confirm": "short"])
        #expect(weak.status == 422)
        #expect(weak.errorCode == "weak_passphrase")
        let mismatch = try await c.send("POST", "/api/wallets", json: ["passphrase": "long enough", "passphrase_confirm": "long enougH"])
        #expect(mismatch.errorCode == "passphrase_mismatch")
        let malformed = try await c.send("POST", "/api/wallets", rawBody: Data("{nope".utf8))
        #expect(malformed.status == 400)
        let badWords = try await c.send(
            "POST", "/api/wallets/recover",
            json: ["mnemonic": "abandon zzz", "passphrase": "long enough", "passphrase_confirm": "long enough"])
        #expect(badWords.status == 422)
        #expect(badWords.errorCode == "invalid_mnemonic")
        #expect(try await c.send("GET", "/api/session").json["state"] as? String == "no_wallet")
        await app.stop()
    }

    @Test func pagesAreServedWithTheirTypesAndAStrictPolicy() async throws {
        let app = try TestApp.start()
        let c = app.client()
        let index = try await c.send("GET", "/")
        #expect(index.status == 200)
        #expect(index.headers["content-type"]?.hasPrefix("text/html") == true)
        #expect(index.headers["content-security-policy"]?.contains("script-src 'self'") == true)
        #expect(try await c.send("GET", "/app.js").headers["content-type"]?.hasPrefix("text/javascript") == true)
        #expect(try await c.send("GET", "/app.css").headers["content-type"]?.hasPrefix("text/css") == true)
        let qr = try await c.send("GET", "/api/qr?text=hello")
        #expect(qr.headers["content-type"] == "image/svg+xml")
        #expect(String(decoding: qr.body, as: UTF8.self).hasPrefix("<svg"))
        await app.stop()
    }
}
