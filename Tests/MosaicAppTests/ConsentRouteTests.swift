import Foundation
import Testing

@testable import MosaicApp

/// The consent page and the social routes' guards, without a node: everything checked before the
/// ledger is asked (the full flow runs in Tests/browser/test_consent.py against a devnet).
@Suite(.timeLimit(.minutes(2))) struct ConsentRouteTests {
    @Test func aLinkWithoutTheSessionCookieBouncesOnceInsteadOfStartingASession() async throws {
        let app = try TestApp.start()
        let c = app.client()
        let r = try await c.send("GET", "/authorize?app=demo&scopes=vote&redirect=http%3A%2F%2F127.0.0.1%3A9%2Fcb&state=s")
        #expect(r.status == 200)
        #expect(r.headers["set-cookie"] == nil)
        let html = String(decoding: r.body, as: UTF8.self)
        #expect(html.contains("http-equiv=\"refresh\""))
        #expect(html.contains("bounced=1"))
        #expect(html.contains("redirect=http%3A%2F%2F127.0.0.1%3A9%2Fcb"))
        await app.stop()
    }

    @Test func malformedRequestsGetAnErrorPageAndNoRedirect() async throws {
        let app = try TestApp.start()
        let c = app.client()
        _ = try await c.begin()
        for (query, status, code) in [
            ("scopes=vote&redirect=http%3A%2F%2Fa%2Fcb", 400, "invalid_request"),
            ("app=demo&scopes=vote", 400, "invalid_request"),
            ("app=demo&scopes=vote,transfer&redirect=http%3A%2F%2Fa%2Fcb", 400, "invalid_scope"),
            ("app=demo&scopes=vote&redirect=http%3A%2F%2Fa%2Fcb&expires=forever", 400, "invalid_expires"),
        ] {
            let r = try await c.send("GET", "/authorize?" + query)
            #expect(r.status == status, "\(query)")
            let html = String(decoding: r.body, as: UTF8.self)
            #expect(html.contains("id=\"consent-refused\" data-code=\"\(code)\""), "\(query)")
            #expect(r.headers["location"] == nil)
            #expect(r.headers["content-security-policy"]?.contains("script-src 'self'") == true)
        }
        await app.stop()
    }

    @Test func approveNeedsTheCSRFTokenAndAnUnlockedWallet() async throws {
        let app = try TestApp.start()
        let c = app.client()
        _ = try await c.begin()
        let body: [String: Any] = ["app": "demo", "scopes": "vote", "redirect": "http://a/cb", "state": "s"]
        let noToken = try await c.send("POST", "/api/authorize/approve", json: body, csrf: false)
        #expect(noToken.status == 403)
        #expect(noToken.errorCode == "csrf_missing")
        let locked = try await c.send("POST", "/api/authorize/approve", json: body)
        #expect(locked.status == 401)
        #expect(locked.errorCode == "locked")
        // Social writes need the unlocked wallet; its feeds read without one (issue 15).
        let vote = try await c.send("POST", "/api/social/votes", json: ["id": String(repeating: "a", count: 64) + "/p", "weight": 100])
        #expect(vote.status == 401 && vote.errorCode == "locked")
        let feed = try await c.send("GET", "/api/social/feed")
        #expect(feed.errorCode != "locked")
        await app.stop()
    }

    @Test func redirectParametersAreEncodedAndAppended() {
        #expect(
            AppServer.redirectURL("http://a/cb", [("grant", "ab12"), ("state", "x y&z=1")]) == "http://a/cb?grant=ab12&state=x%20y%26z%3D1")
        #expect(AppServer.redirectURL("http://a/cb?k=v", [("error", "access_denied")]) == "http://a/cb?k=v&error=access_denied")
    }
}
