import Foundation
import MosaicHTTP
import MosaicHTTPServer
import MosaicTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct Transfer: Codable, Equatable {
    var to: String
    var amount: Int
}

struct Echo: Codable, Equatable {
    var hash: String
    var limit: String?
    var cookie: String?
    var agent: String?
}

struct Boom: Error {}

private func registerBasics(_ s: HTTPServer) {
    s.route(
        .get, "/v1/transactions/:hash", summary: "Get a transaction",
        parameters: [
            Path.string("hash", .string(maxLength: 256), "hex transaction hash"),
            Query.string("limit", .string(maxLength: 64), "max items"),
        ],
        response: "the transaction"
    ) { req in
        try .json(
            Echo(
                hash: try req.param("hash"), limit: req.query["limit"], cookie: req.cookies["session"],
                agent: req.headers["x-agent"]))
    }
    s.route(.get, "/v1/transactions/latest", summary: "Latest transaction") { _ in .text("latest") }
    s.route(.post, "/v1/transfer", summary: "Transfer tokens", bodyLimit: 1024) { req in
        let t = try req.decodeJSON(Transfer.self)
        return try .json(t, status: 201)
    }
    s.route(.get, "/boom", summary: "Throws a plain error") { _ in throw Boom() }
    s.route(.get, "/conflict", summary: "Throws an HTTPError") { _ in throw HTTPError.conflict("nonce already used", code: "stale_nonce") }
}

extension MosaicHTTPTests {
    @Suite(.serialized, .timeLimit(.minutes(2)))
    struct HTTPServerTests {
        @Test func pathParamsQueryHeadersAndCookies() async throws {
            try await withServer(registerBasics) { _, client in
                let r = try await client.send(
                    .get, "/v1/transactions/ab12", query: ["limit": "5"],
                    headers: ["X-Agent": "tests", "Cookie": "a=1; session=xyz"])
                #expect(r.status == 200)
                #expect(r.headers["content-type"] == "application/json")
                #expect(try r.decode(Echo.self) == Echo(hash: "ab12", limit: "5", cookie: "xyz", agent: "tests"))
                // A literal segment wins over a parameter.
                let latest = try await client.send(.get, "/v1/transactions/latest")
                #expect(String(decoding: latest.body, as: UTF8.self) == "latest")
                let t: Transfer = try await client.post("/v1/transfer", json: Transfer(to: "bob", amount: 7))
                #expect(t == Transfer(to: "bob", amount: 7))
            }
        }

        @Test func malformedJSONIs400NamingTheProblem() async throws {
            try await withServer(registerBasics) { _, client in
                let cases: [(String, String)] = [
                    ("{\"to\": \"bob\"", "malformed JSON"),
                    ("{\"to\": \"bob\"}", "missing field 'amount'"),
                    ("{\"to\": \"bob\", \"amount\": \"seven\"}", "field 'amount' has the wrong type"),
                ]
                for (body, expected) in cases {
                    do {
                        _ = try await client.send(.post, "/v1/transfer", body: Data(body.utf8), contentType: "application/json")
                        Issue.record("expected 400 for \(body)")
                    } catch let e as HTTPClientError {
                        #expect(e.status == 400)
                        #expect(e.code == "invalid_json")
                        #expect(e.message.contains(expected), "\(e.message)")
                    }
                }
            }
        }

        @Test func oversizedBodyIs413() async throws {
            try await withServer(registerBasics) { _, client in
                do {
                    _ = try await client.send(.post, "/v1/transfer", body: Data(count: 4096), contentType: "application/json")
                    Issue.record("expected 413")
                } catch let e as HTTPClientError {
                    #expect(e.status == 413)
                    #expect(e.code == "payload_too_large")
                }
            }
        }

        @Test func chunkedOversizedBodyIs413() async throws {
            try await withServer(registerBasics) { server, _ in
                guard let sock = RawSocket(port: server.port) else {
                    Issue.record("connect failed")
                    return
                }
                let chunk = String(repeating: "x", count: 1000)
                var req = "POST /v1/transfer HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                for _ in 0..<3 { req += "3e8\r\n\(chunk)\r\n" }
                req += "0\r\n\r\n"
                sock.send(req)
                let answer = sock.readAll()
                #expect(answer.hasPrefix("HTTP/1.1 413"), "\(answer.prefix(80))")
                #expect(answer.contains("\"code\":\"payload_too_large\""))
            }
        }

        @Test func unknownRouteIs404AndWrongMethodIs405() async throws {
            try await withServer(registerBasics) { server, client in
                await #expect(throws: HTTPClientError.self) { _ = try await client.send(.get, "/nope") }
                do { _ = try await client.send(.get, "/nope") } catch let e as HTTPClientError {
                    #expect(e.status == 404)
                    #expect(e.code == "not_found")
                }
                guard let sock = RawSocket(port: server.port) else {
                    Issue.record("connect failed")
                    return
                }
                sock.send("DELETE /v1/transfer HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                let answer = sock.readAll()
                #expect(answer.hasPrefix("HTTP/1.1 405"))
                #expect(answer.contains("Allow: POST"))
                #expect(answer.contains("{\"error\":{\"code\":\"method_not_allowed\""))
            }
        }

        @Test func headFallsBackToGetAndUnknownMethodIs405() async throws {
            try await withServer(registerBasics) { server, _ in
                guard let head = RawSocket(port: server.port) else {
                    Issue.record("connect failed")
                    return
                }
                head.send("HEAD /v1/transactions/x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                let answer = head.readAll()
                #expect(answer.hasPrefix("HTTP/1.1 200"))
                #expect(!answer.contains("{"))
                guard let odd = RawSocket(port: server.port) else {
                    Issue.record("connect failed")
                    return
                }
                odd.send("PROPFIND /v1/transfer HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                let oddAnswer = odd.readAll()
                #expect(oddAnswer.hasPrefix("HTTP/1.1 405"))
                #expect(oddAnswer.contains("Allow: POST"))
            }
        }

        /// The 413 must come from the declared length alone: the client has sent only the headers, so an answer
        /// proves the server did not wait for (or read) the 16 MiB. A client streaming the body would race the
        /// server's close (broken pipe) — that is why this speaks raw HTTP.
        @Test func largeOversizedBodyIsRejectedWithoutReadingIt() async throws {
            try await withServer(registerBasics) { server, client in
                guard let sock = RawSocket(port: server.port) else {
                    Issue.record("connect failed")
                    return
                }
                sock.send(
                    "POST /v1/transfer HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                        + "Content-Length: \(16 << 20)\r\nConnection: close\r\n\r\n")
                let answer = sock.readAll()
                #expect(answer.hasPrefix("HTTP/1.1 413"), "\(answer.prefix(200))")
                #expect(answer.contains("payload_too_large"))
                let r = try await client.send(.get, "/v1/transactions/still-up")
                #expect(r.status == 200)
            }
        }

        @Test func thrownErrorsBecomeJSONAndServerKeepsAnswering() async throws {
            try await withServer(registerBasics) { _, client in
                for _ in 0..<3 {
                    do {
                        _ = try await client.send(.get, "/boom")
                        Issue.record("expected 500")
                    } catch let e as HTTPClientError {
                        #expect(e.status == 500)
                        #expect(e.code == "internal_error")
                        #expect(e.message == "internal error")
                    }
                }
                do {
                    _ = try await client.send(.get, "/conflict")
                    Issue.record("expected 409")
                } catch let e as HTTPClientError {
                    #expect(e == HTTPClientError(status: 409, code: "stale_nonce", message: "nonce already used"))
                }
                let r = try await client.send(.get, "/v1/transactions/x")
                #expect(r.status == 200)
            }
        }

        @Test func slowClientDoesNotBlockOthers() async throws {
            try await withServer(registerBasics) { server, client in
                var stalled: [RawSocket] = []
                for _ in 0..<4 {
                    guard let s = RawSocket(port: server.port) else {
                        Issue.record("connect failed")
                        return
                    }
                    s.send("POST /v1/transfer HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"to\":")
                    stalled.append(s)
                }
                // Served while the stalled bodies are still pending: had the server waited on
                // them, these answers could only come after it timed them out and closed them.
                for i in 0..<20 {
                    let r = try await client.send(.get, "/v1/transactions/\(i)")
                    #expect(r.status == 200)
                }
                for s in stalled { #expect(s.isOpenAndSilent, "a stalled client was answered or dropped") }
            }
        }

        @Test func fiveHundredConcurrentRequests() async throws {
            try await withServer(registerBasics) { server, _ in
                var cfg = HTTPClient.Configuration()
                cfg.maxConnectionsPerHost = 64
                let clients = (0..<4).map { _ in HTTPClient(baseURL: server.baseURL, configuration: cfg) }
                let ok = try await withThrowingTaskGroup(of: Bool.self) { group in
                    for i in 0..<500 {
                        let c = clients[i % clients.count]
                        group.addTask {
                            let e: Echo = try await c.get("/v1/transactions/h\(i)", query: ["limit": "\(i)"])
                            return e.hash == "h\(i)" && e.limit == "\(i)"
                        }
                    }
                    var n = 0
                    for try await good in group where good { n += 1 }
                    return n
                }
                #expect(ok == 500)
            }
        }

        @Test func openAPIListsRegisteredRoutes() async throws {
            try await withServer(registerBasics) { _, client in
                let r = try await client.send(.get, "/openapi.json")
                let doc = try #require(try JSONSerialization.jsonObject(with: r.body) as? [String: Any])
                #expect(doc["openapi"] as? String == "3.1.0")
                let paths = try #require(doc["paths"] as? [String: Any])
                #expect(
                    Set(paths.keys) == [
                        "/v1/transactions/{hash}", "/v1/transactions/latest", "/v1/transfer", "/boom", "/conflict", "/openapi.json",
                        "/metrics",
                    ])
                let get = try #require((paths["/v1/transactions/{hash}"] as? [String: Any])?["get"] as? [String: Any])
                #expect(get["summary"] as? String == "Get a transaction")
                let params = try #require(get["parameters"] as? [[String: Any]])
                #expect(
                    params.contains {
                        $0["name"] as? String == "hash" && $0["in"] as? String == "path"
                            && $0["description"] as? String == "hex transaction hash"
                    })
                #expect(((get["responses"] as? [String: Any])?["200"] as? [String: Any])?["description"] as? String == "the transaction")
                #expect(params.contains { $0["name"] as? String == "limit" && $0["in"] as? String == "query" })
                let schemas = (doc["components"] as? [String: Any])?["schemas"] as? [String: Any]
                #expect(schemas?["Error"] != nil)
            }
        }

        @Test func gracefulStopFinishesInFlightRequests() async throws {
            var cfg = HTTPServer.Configuration()
            cfg.logger = nil
            let server = HTTPServer(configuration: cfg)
            let (started, handlerEntered) = AsyncStream<Void>.makeStream()
            server.route(.get, "/slow", summary: "Slow") { _ in
                handlerEntered.yield()
                try await Task.sleep(for: .milliseconds(400))
                return .text("done")
            }
            try server.start()
            let client = HTTPClient(baseURL: server.baseURL)
            let inflight = Task { try await client.send(.get, "/slow") }
            // Stop only once the request is in the handler: in flight, not merely scheduled.
            for await _ in started { break }
            await server.stop(grace: .seconds(5))
            let r = try await inflight.value
            #expect(String(decoding: r.body, as: UTF8.self) == "done")
            var noRetry = HTTPClient.Configuration()
            noRetry.retries = 0
            do {
                _ = try await HTTPClient(baseURL: server.baseURL, configuration: noRetry).send(.get, "/slow")
                Issue.record("server still answering after stop")
            } catch let e as HTTPClientError {
                #expect(e.status == 0)
            }
        }

        @Test func configurableHost() async throws {
            var cfg = HTTPServer.Configuration()
            cfg.logger = nil
            cfg.host = "0.0.0.0"
            let any = HTTPServer(configuration: cfg)
            any.route(.get, "/ping", summary: "Ping") { _ in .text("pong") }
            try any.start()
            #expect(any.port != 0)
            let r = try await HTTPClient(baseURL: any.baseURL).send(.get, "/ping")
            #expect(String(decoding: r.body, as: UTF8.self) == "pong")
            await any.stop()
            cfg.host = "not-an-address"
            #expect(throws: HTTPError.self) { try HTTPServer(configuration: cfg).start() }
        }

        @Test func accessLogHasOneLinePerRequest() async throws {
            let lines = Box<[String]>([])
            var cfg = HTTPServer.Configuration()
            cfg.logger = { line in lines.mutate { $0.append(line) } }
            let server = HTTPServer(configuration: cfg)
            registerBasics(server)
            try server.start()
            let client = HTTPClient(baseURL: server.baseURL)
            _ = try await client.send(.get, "/v1/transactions/abc")
            _ = try? await client.send(.get, "/missing")
            await server.stop()
            let log = lines.value
            #expect(log.count == 2)
            #expect(log.first?.hasPrefix("GET /v1/transactions/abc 200 ") == true)
            #expect(log.last?.hasPrefix("GET /missing 404 ") == true)
        }
    }
}
