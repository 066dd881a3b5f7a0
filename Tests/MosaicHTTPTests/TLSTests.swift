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

        /// The server takes TLS 1.3 and 1.2 only, and picks AES-128-GCM itself even when the client
        /// lists AES-256-GCM first (OpenSSL's own default order).
        @Test func serverTakesTLS12And13OnlyAndPicksAES128GCM() async throws {
            let certs = try TestCertificates.make()
            defer { certs.remove() }
            let s = try Self.server(certs)
            defer { Task { await s.stop(grace: .seconds(1)) } }
            let v13 = try certs.handshake(
                port: s.port, ["-ciphersuites", "TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256:TLS_AES_128_GCM_SHA256"])
            #expect(v13.status == 0, "\(v13.output)")
            #expect(v13.output.contains("Protocol version: TLSv1.3"), "\(v13.output)")
            #expect(v13.output.contains("Ciphersuite: TLS_AES_128_GCM_SHA256"), "\(v13.output)")
            let v12 = try certs.handshake(port: s.port, ["-tls1_2"])
            #expect(v12.status == 0, "\(v12.output)")
            #expect(v12.output.contains("Ciphersuite: ECDHE-ECDSA-AES128-GCM-SHA256"), "\(v12.output)")
            // The client is made willing (security level 0), so a refusal is the server's.
            for old in ["-tls1_1", "-tls1"] {
                let refused = try certs.handshake(port: s.port, [old, "-cipher", "DEFAULT@SECLEVEL=0"])
                #expect(refused.status != 0, "\(old): \(refused.output)")
                #expect(!refused.output.contains("Protocol version"), "\(old): \(refused.output)")
            }
            // A CBC suite is not offered: a TLS 1.2 client that asks for nothing else is refused.
            let cbc = try certs.handshake(port: s.port, ["-tls1_2", "-cipher", "ECDHE-ECDSA-AES128-SHA"])
            #expect(cbc.status != 0, "\(cbc.output)")
        }

        /// Over TLS the server receives a body one record (16 KiB at most) at a time; a streaming
        /// handler still gets it in gathered chunks of at least 64 KiB (the last may be smaller),
        /// every byte in order.
        @Test func streamingBodyOverTLSArrivesInGatheredChunks() async throws {
            let certs = try TestCertificates.make()
            defer { certs.remove() }
            try TLSTrust.addAuthority(file: certs.caFile)
            var cfg = HTTPServer.Configuration()
            cfg.logger = nil
            cfg.tls = try TLSCredentials(certificateFile: certs.certificateFile, keyFile: certs.keyFile)
            let s = HTTPServer(configuration: cfg)
            let sizes = Box<[Int]>([])
            s.streamingRoute(.put, "/blob", summary: "Take a blob") { _, body in
                var sum = Checksum()
                var seen: [Int] = []
                for try await chunk in body {
                    seen.append(chunk.count)
                    sum.update(chunk)
                }
                sizes.set(seen)
                return HTTPResponse(status: 200, body: Data(String(sum.value).utf8), contentType: "text/plain")
            }
            try s.start()
            defer { Task { await s.stop(grace: .seconds(1)) } }
            let body = Data((0..<(4 << 20) + 1234).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
            let bulk = try #require(BulkHTTPConnection(baseURL: s.baseURL, timeout: 20))
            let r = try await bulk.send(.put, "/blob", body: body)
            var expected = Checksum()
            expected.update(body)
            #expect(String(decoding: r.body, as: UTF8.self) == String(expected.value))
            let seen = sizes.value
            #expect(seen.reduce(0, +) == body.count)
            #expect(seen.dropLast().allSatisfy { $0 >= 64 * 1024 }, "chunk sizes \(seen)")
            #expect(seen.count <= body.count / (64 * 1024) + 1, "chunk sizes \(seen)")
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
