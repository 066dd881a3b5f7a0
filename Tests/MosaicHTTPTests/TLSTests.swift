import Foundation
import MosaicHTTP
import MosaicHTTPServer
import MosaicTestSupport
import Testing

extension MosaicHTTPTests {
    /// HTTPS end to end on loopback: the server serves TLS from PEM files, the JSON client and the
    /// bulk connection verify it against a CA file, a certificate from an unknown CA is refused
    /// with a clear error, and plain http:// beyond loopback is refused before any packet.
    @Suite(.serialized, .timeLimit(.minutes(2)))
    struct TLSTests {
        private static func server(_ certs: TestCertificates) throws -> HTTPServer {
            var cfg = HTTPServer.Configuration()
            cfg.logger = nil
            cfg.tls = try TLSCredentials(certificateFile: certs.certificateFile, keyFile: certs.keyFile)
            let s = HTTPServer(configuration: cfg)
            s.route(.post, "/echo", summary: "Echo the body", bodyLimit: 16 << 20) { req in
                HTTPResponse(status: 200, body: req.body, contentType: "application/octet-stream")
            }
            s.route(.get, "/hello", summary: "Say hello") { _ in
                HTTPResponse(status: 200, body: Data("hello".utf8), contentType: "text/plain")
            }
            try s.start()
            return s
        }

        @Test func trustedCAServesJSONAndBulkOverTLS() async throws {
            let certs = try TestCertificates.make()
            defer { certs.remove() }
            try TLSTrust.addAuthority(file: certs.caFile)
            let s = try Self.server(certs)
            defer { Task { await s.stop(grace: .seconds(1)) } }
            #expect(s.baseURL.scheme == "https")
            let client = HTTPClient(baseURL: s.baseURL)
            let hello = try await client.send(.get, "/hello")
            #expect(String(decoding: hello.body, as: UTF8.self) == "hello")
            let body = Data((0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 1) })
            let echoed = try await client.send(.post, "/echo", body: body)
            #expect(echoed.body == body)
            let bulk = try #require(BulkHTTPConnection(baseURL: s.baseURL, timeout: 20))
            for _ in 0..<3 {
                let r = try await bulk.send(.post, "/echo", body: body)
                #expect(r.body == body)
            }
            // localhost is in the certificate too: a DNS name checked against its names.
            let byName = HTTPClient(baseURL: try #require(URL(string: "https://localhost:\(s.port)")))
            #expect(try await byName.send(.get, "/hello").status == 200)
            await s.stop(grace: .seconds(1))
        }

        @Test func unknownCAIsRefusedWithAClearError() async throws {
            let certs = try TestCertificates.make()  // its CA is never trusted
            defer { certs.remove() }
            let s = try Self.server(certs)
            let client = HTTPClient(baseURL: s.baseURL)
            do {
                _ = try await client.send(.get, "/hello")
                Issue.record("an untrusted certificate was accepted")
            } catch let e as HTTPClientError {
                #expect(e.code == "tls_handshake_failed")
                #expect(e.message.contains("certificate rejected"))
                #expect(e.message.contains("--ca FILE"))
            }
            let bulk = try #require(BulkHTTPConnection(baseURL: s.baseURL, timeout: 5))
            await #expect(throws: HTTPClientError.self) { _ = try await bulk.send(.post, "/echo", body: Data([1])) }
            await s.stop(grace: .seconds(1))
        }

        /// A CA file removed after it was trusted (a finished test's temp folder) does not stop the
        /// next one from being added, and the first stays trusted.
        @Test func aRemovedCAFileDoesNotFailTheNextOne() async throws {
            let first = try TestCertificates.make()
            try TLSTrust.addAuthority(file: first.caFile)
            first.remove()
            let second = try TestCertificates.make()
            defer { second.remove() }
            try TLSTrust.addAuthority(file: second.caFile)
            let s = try Self.server(second)
            #expect(try await HTTPClient(baseURL: s.baseURL).send(.get, "/hello").status == 200)
            await s.stop(grace: .seconds(1))
        }

        @Test func plainHTTPBeyondLoopbackIsRefused() async throws {
            let client = HTTPClient(baseURL: try #require(URL(string: "http://10.231.0.1:7100")))
            do {
                _ = try await client.send(.get, "/v1/network")
                Issue.record("plain http to 10.231.0.1 was sent")
            } catch let e as HTTPClientError {
                #expect(e.code == "plain_http_refused")
                #expect(e.message.contains("--insecure"))
            }
            #expect(TLSTrust.isLoopback("127.0.0.1") && TLSTrust.isLoopback("localhost") && TLSTrust.isLoopback("::1"))
            #expect(!TLSTrust.isLoopback("10.0.0.1") && !TLSTrust.isLoopback("127.example.com"))
        }
    }
}
