import Foundation
import MosaicHTTP
import MosaicHTTPServer
import Testing

extension MosaicHTTPTests {
    /// A server bound to an IPv6 address answers there, through both clients; "::" takes IPv4 too.
    @Suite(.serialized, .timeLimit(.minutes(2)))
    struct IPv6ListenTests {
        private func server(_ host: String) throws -> HTTPServer {
            var cfg = HTTPServer.Configuration()
            cfg.logger = nil
            cfg.host = host
            let s = HTTPServer(configuration: cfg)
            s.route(.get, "/v1/who", summary: "Who asked") { req in .text("from \(req.remoteAddress)") }
            s.streamingRoute(.put, "/v1/blob", summary: "Count a body") { _, body in
                var n = 0
                for try await chunk in body { n += chunk.count }
                return .text("\(n)")
            }
            try s.start()
            return s
        }

        @Test func aServerOnIPv6LoopbackAnswersBothClientsWithBracketedURLs() async throws {
            let s = try server("::1")
            #expect(s.baseURL.absoluteString == "http://[::1]:\(s.port)")
            let r = try await HTTPClient(baseURL: s.baseURL).send(.get, "/v1/who")
            #expect(String(decoding: r.body, as: UTF8.self) == "from ::1")
            let bulk = try #require(BulkHTTPConnection(baseURL: s.baseURL, timeout: 20))
            let put = try await bulk.send(.put, "/v1/blob", headers: [:], body: [UInt8](repeating: 9, count: 300_000))
            #expect(String(decoding: put.body, as: UTF8.self) == "300000")
            await s.stop(grace: .seconds(1))
        }

        @Test func theUnspecifiedIPv6AddressAlsoTakesIPv4() async throws {
            let s = try server("::")
            #expect(s.baseURL.absoluteString == "http://[::1]:\(s.port)")
            let v6 = try await HTTPClient(baseURL: s.baseURL).send(.get, "/v1/who")
            #expect(String(decoding: v6.body, as: UTF8.self) == "from ::1")
            let v4 = try await HTTPClient(baseURL: try #require(URL(string: "http://127.0.0.1:\(s.port)"))).send(.get, "/v1/who")
            #expect(
                String(decoding: v4.body, as: UTF8.self).hasSuffix("127.0.0.1"), "an IPv4 client, seen as itself or as ::ffff:127.0.0.1")
            await s.stop(grace: .seconds(1))
        }

        @Test func anAddressThatIsNeitherIsRefusedAtStart() {
            var cfg = HTTPServer.Configuration()
            cfg.logger = nil
            cfg.host = "::g"
            #expect(throws: HTTPError.self) { try HTTPServer(configuration: cfg).start() }
        }
    }
}
