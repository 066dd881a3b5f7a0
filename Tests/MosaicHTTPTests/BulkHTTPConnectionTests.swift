import Foundation
import MosaicHTTP
import MosaicHTTPServer
import MosaicTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension MosaicHTTPTests {
    /// The socket client the storage upload uses for fragment PUTs: bodies arrive intact over a
    /// reused connection, refusals keep the server's message, a connection the server closed while
    /// idle is replaced transparently; ftp:// and plain http:// beyond loopback get no connection.
    @Suite(.serialized, .timeLimit(.minutes(2)))
    struct BulkHTTPConnectionTests {
        private static func register(_ s: HTTPServer) {
            s.streamingRoute(
                .put, "/v1/blobs/:id", summary: "Upload a blob",
                precheck: { req in
                    guard req.headers["Authorization"] == "Bearer ok" else { throw HTTPError.forbidden("bad token") }
                }
            ) { req, body in
                var sum = Checksum()
                var n: Int64 = 0
                for try await chunk in body {
                    sum.update(chunk)
                    n += Int64(chunk.count)
                }
                guard req.headers["X-Offset"] == "42" else { throw HTTPError.badRequest("X-Offset missing") }
                return try .json(UploadResult(bytes: n, checksum: sum.value, maxChunk: 0, maxBuffered: 0))
            }
        }

        /// A started server with the routes above that closes a connection after 1 s without traffic.
        private static func serverClosingIdleConnectionsAfterOneSecond() throws -> HTTPServer {
            var cfg = HTTPServer.Configuration()
            cfg.logger = nil
            cfg.connectionTimeout = 1
            let server = HTTPServer(configuration: cfg)
            register(server)
            try server.start()
            return server
        }

        @Test func bodiesArriveIntactOverOneConnection() async throws {
            try await withServer({ Self.register($0) }) { server, _ in
                let bulk = try #require(BulkHTTPConnection(baseURL: server.baseURL, timeout: 20))
                for size in [0, 1, 8 << 20, 65_537] {
                    let body = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
                    var expected = Checksum()
                    expected.update(Data(body))
                    let r = try await bulk.send(.put, "/v1/blobs/a", headers: ["Authorization": "Bearer ok", "X-Offset": "42"], body: body)
                    let result = try r.decode(UploadResult.self)
                    #expect(r.status == 200)
                    #expect(result.bytes == Int64(size))
                    #expect(result.checksum == expected.value)
                }
            }
        }

        @Test func refusalsCarryTheServersMessage() async throws {
            try await withServer({ Self.register($0) }) { server, _ in
                let bulk = try #require(BulkHTTPConnection(baseURL: server.baseURL, timeout: 20))
                do {
                    _ = try await bulk.send(.put, "/v1/blobs/a", headers: ["X-Offset": "42"], body: [UInt8](repeating: 1, count: 1000))
                    Issue.record("expected 403")
                } catch let e as HTTPClientError {
                    #expect(e == HTTPClientError(status: 403, code: "forbidden", message: "bad token"))
                }
                // A handler error after the whole body was read.
                do {
                    _ = try await bulk.send(
                        .put, "/v1/blobs/a", headers: ["Authorization": "Bearer ok"], body: [UInt8](repeating: 1, count: 1000))
                    Issue.record("expected 400")
                } catch let e as HTTPClientError {
                    #expect(e.status == 400 && e.message == "X-Offset missing", "\(e)")
                }
                // The connection is usable afterwards.
                let ok = try await bulk.send(
                    .put, "/v1/blobs/a", headers: ["Authorization": "Bearer ok", "X-Offset": "42"], body: [UInt8](repeating: 2, count: 10))
                #expect(try ok.decode(UploadResult.self).bytes == 10)
                do {
                    _ = try await bulk.send(
                        .put, "/v1/blobs/a", headers: ["Authorization": "Bearer ok", "X-Bad": "a\r\nInjected: 1"], body: [UInt8]())
                    Issue.record("expected a refused header")
                } catch let e as HTTPClientError {
                    #expect(e.code == "invalid_header")
                }
            }
        }

        @Test func idleConnectionClosedByTheServerIsReplaced() async throws {
            let server = try Self.serverClosingIdleConnectionsAfterOneSecond()
            let bulk = BulkHTTPConnection(baseURL: server.baseURL, timeout: 20)
            let headers = ["Authorization": "Bearer ok", "X-Offset": "42"]
            let first = try? await bulk?.send(.put, "/v1/blobs/a", headers: headers, body: [UInt8](repeating: 3, count: 100)).status
            try? await Task.sleep(for: .milliseconds(2500))  // past the server's 1 s idle timeout
            let second = try? await bulk?.send(.put, "/v1/blobs/a", headers: headers, body: [UInt8](repeating: 3, count: 100)).status
            await server.stop(grace: .seconds(1))
            #expect(first == 200)
            #expect(second == 200)
        }

        /// A peer that accepts and then never answers (a blobber given up as slow): cancelling the
        /// task ends the blocked request at once, and the connection serves the next one.
        @Test func cancellingTheTaskEndsARequestBlockedOnASilentPeer() async throws {
            let peer = try SilentPeer()
            let port = peer.port
            // The timeout is far beyond the suite's time limit: only the cancellation can end the wait.
            let url = try #require(URL(string: "http://127.0.0.1:\(port)"))
            let bulk = try #require(BulkHTTPConnection(baseURL: url, timeout: 3600))
            let request = Task { try await bulk.send(.get, "/never", body: [UInt8]()) }
            // Cancelled once the request is on the wire: its connection is taken and left unanswered.
            let silent = peer.accept()
            try #require(silent >= 0)
            defer { close(silent) }
            var buffer = [UInt8](repeating: 0, count: 4096)
            #expect(recv(silent, &buffer, buffer.count, 0) > 0, "the request was sent")
            request.cancel()
            do {
                _ = try await request.value
                Issue.record("a silent peer answered")
            } catch let e as HTTPClientError {
                #expect(e.code == "cancelled", "\(e)")
            }
            // A later request on the same connection object is not cancelled by the earlier one.
            let next = Task { try await bulk.send(.get, "/never", body: [UInt8]()) }
            let accepted = peer.accept()
            try #require(accepted >= 0)
            defer { close(accepted) }
            #expect(recv(accepted, &buffer, buffer.count, 0) > 0, "the next request was sent")
            let answer = Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8)
            _ = send(accepted, answer, answer.count, Int32(MSG_NOSIGNAL))
            #expect(try await next.value.status == 200)
        }

        /// An upload's fragment PUT sent in parts as the encoder codes them: the server gets every
        /// byte in order, the connection serves plain requests between streamed ones, and a stream
        /// opened on a connection the server closed while idle goes out on a new one.
        @Test func streamedBodyArrivesIntactInParts() async throws {
            let server = try Self.serverClosingIdleConnectionsAfterOneSecond()
            defer { Task { await server.stop(grace: .seconds(1)) } }
            let bulk = try #require(BulkHTTPConnection(baseURL: server.baseURL, timeout: 20))
            let headers = ["Authorization": "Bearer ok", "X-Offset": "42"]
            let parts = [1, 65_536, 3 << 20, 17, 1 << 20].map { size in (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ size) } }
            for round in 0..<3 {
                if round == 2 { try await Task.sleep(for: .milliseconds(2500)) }  // past the server's idle timeout
                var expected = Checksum()
                for part in parts { expected.update(Data(part)) }
                try await bulk.openStream(.put, "/v1/blobs/a", headers: headers, length: Int64(parts.reduce(0) { $0 + $1.count }))
                for part in parts { try await bulk.streamBody(part) }
                let result = try await bulk.finishStream().decode(UploadResult.self)
                #expect(result.bytes == Int64(parts.reduce(0) { $0 + $1.count }), "round \(round)")
                #expect(result.checksum == expected.value, "round \(round)")
                let plain = try await bulk.send(.put, "/v1/blobs/a", headers: headers, body: [UInt8](repeating: 5, count: 10))
                #expect(try plain.decode(UploadResult.self).bytes == 10)
            }
        }

        /// A streamed request the server refuses from its head says why (from whichever step meets
        /// the refusal); one given up half way, or fed more than it announced, is cut off, and the
        /// next request goes out on a new connection.
        @Test func streamedRequestRefusedOrAbandonedLeavesTheConnectionUsable() async throws {
            try await withServer({ Self.register($0) }) { server, _ in
                let bulk = try #require(BulkHTTPConnection(baseURL: server.baseURL, timeout: 20))
                let big = [UInt8](repeating: 9, count: 4 << 20)
                do {
                    try await bulk.openStream(.put, "/v1/blobs/a", headers: ["X-Offset": "42"], length: Int64(big.count * 4))
                    for _ in 0..<4 { try await bulk.streamBody(big) }
                    _ = try await bulk.finishStream()
                    Issue.record("expected 403")
                } catch let e as HTTPClientError {
                    #expect(e == HTTPClientError(status: 403, code: "forbidden", message: "bad token"), "\(e)")
                }
                let headers = ["Authorization": "Bearer ok", "X-Offset": "42"]
                // Given up after 10 of 1000 bytes: the next plain request still gets its answer.
                try await bulk.openStream(.put, "/v1/blobs/a", headers: headers, length: 1000)
                try await bulk.streamBody([UInt8](repeating: 1, count: 10))
                let after = try await bulk.send(.put, "/v1/blobs/a", headers: headers, body: [UInt8](repeating: 2, count: 20))
                #expect(try after.decode(UploadResult.self).bytes == 20)
                // More than announced is refused before anything is sent; finishing short is refused too.
                try await bulk.openStream(.put, "/v1/blobs/a", headers: headers, length: 5)
                await #expect(throws: HTTPClientError.self) { try await bulk.streamBody([UInt8](repeating: 1, count: 6)) }
                try await bulk.openStream(.put, "/v1/blobs/a", headers: headers, length: 5)
                try await bulk.streamBody([UInt8](repeating: 1, count: 4))
                await #expect(throws: HTTPClientError.self) { _ = try await bulk.finishStream() }
                try await bulk.openStream(.put, "/v1/blobs/a", headers: headers, length: 5)
                await bulk.abortStream()
                let last = try await bulk.send(.put, "/v1/blobs/a", headers: headers, body: [UInt8](repeating: 2, count: 7))
                #expect(try last.decode(UploadResult.self).bytes == 7)
            }
        }

        @Test func unreachableAndUnsupported() async throws {
            let ftp = try #require(URL(string: "ftp://127.0.0.1:1"))
            let remote = try #require(URL(string: "http://10.231.0.1:1"))
            let http = try #require(URL(string: "http://127.0.0.1:1"))
            #expect(BulkHTTPConnection(baseURL: ftp, timeout: 5) == nil)
            #expect(BulkHTTPConnection(baseURL: remote, timeout: 5) == nil)
            let bulk = try #require(BulkHTTPConnection(baseURL: http, timeout: 5))
            do {
                _ = try await bulk.send(.put, "/x", body: [UInt8](repeating: 0, count: 10))
                Issue.record("expected a connection failure")
            } catch let e as HTTPClientError {
                #expect(e.code == "connection_failed", "\(e)")
            }
        }
    }
}
