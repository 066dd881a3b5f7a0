import Foundation
import MosaicHTTP
import MosaicHTTPServer
import MosaicSDK
import MosaicStorageCore
import Testing

@testable import MosaicApp

/// Client errors are 4xx all the way through the app: a node's 4xx reaches the page with the
/// node's status, code and message (it used to become a 502 gateway error); only a node that
/// cannot be reached (503) or fails itself (502) is the gateway's error. Bad input the SDK
/// refuses (a malformed remote path) is a 4xx too, never a 500.
@Suite(.timeLimit(.minutes(2))) struct NodeErrorMappingTests {
    /// A node that refuses allocation reads with 409 and fails network reads with 500.
    static func fakeNode() throws -> HTTPServer {
        var cfg = HTTPServer.Configuration()
        cfg.logger = nil
        let node = HTTPServer(configuration: cfg)
        node.route(.get, "/v1/storage/allocations/:id", summary: "Refuses") { _ in
            throw HTTPError(status: 409, code: "allocation_busy", message: "the node says this allocation is busy")
        }
        node.route(.get, "/v1/network", summary: "Fails") { _ in
            throw HTTPError(status: 500, code: "internal_error", message: "disk on fire")
        }
        try node.start()
        return node
    }

    func unlockedClient(_ app: TestApp, node: String) async throws -> AppTestClient {
        try ClientConfig(current: "fake", networks: [.init(name: "fake", node: node)]).save(home: app.home)
        let c = app.client()
        _ = try await c.begin()
        let created = try await c.send("POST", "/api/wallets", json: ["passphrase": "long enough", "passphrase_confirm": "long enough"])
        #expect(created.status == 201)
        return c
    }

    @Test func aNodesRefusalReachesTheCallerAsThe4xxWithTheNodesWords() async throws {
        let node = try Self.fakeNode()
        let app = try TestApp.start()
        let c = try await unlockedClient(app, node: node.baseURL.absoluteString)
        let r = try await c.send("GET", "/api/allocations/" + String(repeating: "ab", count: 32))
        #expect(r.status == 409)
        #expect(r.errorCode == "allocation_busy")
        #expect(r.errorMessage == "the node says this allocation is busy")
        await app.stop()
        await node.stop()
    }

    @Test func aNodeThatFailsIsA502AndOneThatIsDownIsA503() async throws {
        let node = try Self.fakeNode()
        let app = try TestApp.start()
        let c = try await unlockedClient(app, node: node.baseURL.absoluteString)
        let failed = try await c.send("GET", "/api/balance")
        #expect(failed.status == 502)
        #expect(failed.errorMessage?.contains("disk on fire") == true)
        await node.stop()
        let down = try await c.send("GET", "/api/balance")
        #expect(down.status == 503)
        await app.stop()
    }

    @Test func mappingKeepsEveryClientErrorA4xx() {
        let url = "http://127.0.0.1:9"
        for status in [400, 403, 404, 409, 413, 422, 429] {
            let e = AppServer.httpError(node: .rejected(code: "c", message: "m", status: status), url: url)
            #expect(e.status == status && e.code == "c" && e.message == "m")
        }
        // The app's 401 means "your session", so a node's 401 must not look like one.
        #expect(AppServer.httpError(node: .rejected(code: "c", message: "m", status: 401), url: url).status == 422)
        #expect(AppServer.httpError(node: .rejected(code: "c", message: "m", status: 503), url: url).status == 502)
        #expect(AppServer.httpError(node: .notFound("gone"), url: url).status == 404)
        #expect(AppServer.httpError(node: .unreachable(url: url, reason: "refused"), url: url).status == 503)
        #expect(AppServer.httpError(node: .invalidResponse("junk"), url: url).status == 502)
        #expect(AppServer.httpError(storage: .invalid("'x' is not a valid remote path")).status == 400)
        #expect(AppServer.httpError(storage: .full("allocation full")).status == 422)
    }

    @Test func aBadRemotePathRefusedByTheSDKIsA400NotA500() async throws {
        let app = try TestApp.start()
        do {
            _ = try await app.server.mapStorage { () async throws -> Int in
                try RemotePath.validate("relative/path")
                return 0
            }
            Issue.record("a relative path was accepted")
        } catch let e as HTTPError {
            #expect(e.status == 400)
            #expect(e.message.contains("relative/path"))
        }
        await app.stop()
    }

    @Test func aMalformedAllocationIdInABodyIsA400BeforeAnythingIsFetched() async throws {
        let node = try Self.fakeNode()
        let app = try TestApp.start()
        let c = try await unlockedClient(app, node: node.baseURL.absoluteString)
        for alloc in ["\u{98}¬L\u{c6d2}", "../../v1/network", String(repeating: "A", count: 64)] {
            let r = try await c.send("POST", "/api/files/delete", json: ["alloc": alloc, "path": "/x"])
            #expect(r.status == 400, "\(alloc)")
            #expect(r.errorCode == "invalid_allocation")
        }
        #expect(try await c.send("GET", "/api/session").status == 200)
        await app.stop()
        await node.stop()
    }
}

/// The app's `/openapi.json` describes its routes well enough for a client (or a fuzzer): typed
/// parameters, body schemas on the routes that read one, and the real success statuses.
@Suite(.timeLimit(.minutes(2))) struct AppOpenAPITests {
    @Test func routesDeclareTypedParametersBodiesAndStatuses() async throws {
        let app = try TestApp.start()
        let r = try await app.client().send("GET", "/openapi.json")
        let doc = try #require(try JSONSerialization.jsonObject(with: r.body) as? [String: Any])
        let paths = try #require(doc["paths"] as? [String: [String: Any]])
        func op(_ path: String, _ method: String) -> [String: Any] { paths[path]?[method] as? [String: Any] ?? [:] }
        func schema(_ path: String, _ method: String, _ name: String) -> [String: Any] {
            ((op(path, method)["parameters"] as? [[String: Any]])?.first { $0["name"] as? String == name }?["schema"] as? [String: Any])
                ?? [:]
        }
        #expect(schema("/api/transactions", "get", "limit")["type"] as? String == "integer")
        #expect((schema("/api/transactions", "get", "limit")["maximum"] as? NSNumber)?.intValue == 100)
        #expect((schema("/api/transactions/{hash}/wait", "get", "timeout")["maximum"] as? NSNumber)?.intValue == 60)
        #expect(schema("/api/transactions/{hash}/wait", "get", "until")["enum"] as? [String] == ["pending", "finalized", "sealed"])
        #expect((schema("/api/notes", "get", "limit")["maximum"] as? NSNumber)?.intValue == 500)
        #expect(schema("/api/files", "get", "alloc")["pattern"] as? String == "^[0-9a-f]{64}$")
        #expect(schema("/api/notes/{id}", "put", "id")["type"] as? String == "integer")
        let vote =
            ((((op("/api/social/votes", "post")["requestBody"] as? [String: Any])?["content"] as? [String: Any])?["application/json"]
            as? [String: Any])?["schema"] as? [String: Any])?["properties"] as? [String: Any]
        #expect(((vote?["weight"] as? [String: Any])?["minimum"] as? NSNumber)?.intValue == -10_000)
        #expect((op("/api/files/delete", "post")["responses"] as? [String: Any])?["204"] != nil)
        #expect((op("/api/allocations", "post")["responses"] as? [String: Any])?["201"] != nil)
        #expect((op("/api/send", "post")["responses"] as? [String: Any])?["202"] != nil)
        // Every path parameter is declared (an undeclared one would be described by its bare name).
        for (path, ops) in paths {
            for (_, o) in ops {
                for p in ((o as? [String: Any])?["parameters"] as? [[String: Any]]) ?? [] where p["in"] as? String == "path" {
                    #expect(p["description"] as? String != p["name"] as? String, "\(path)")
                }
            }
        }
        await app.stop()
    }
}
