import Foundation
import MosaicHTTP
import MosaicHTTPServer
import MosaicTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct UploadResult: Codable {
    var bytes: Int64
    var checksum: UInt64
    var maxChunk: Int
    /// The most body bytes the server held received but not yet handed to the handler.
    var maxBuffered: Int64
}

private func registerStreaming(_ s: HTTPServer, outcome: Box<String>) {
    s.streamingRoute(.put, "/v1/blobs/:id", summary: "Upload a blob") { _, body in
        var sum = Checksum()
        var n: Int64 = 0
        var maxChunk = 0
        var maxBuffered: Int64 = 0
        do {
            for try await chunk in body {
                sum.update(chunk)
                n += Int64(chunk.count)
                maxChunk = max(maxChunk, chunk.count)
                maxBuffered = max(maxBuffered, body.receivedBytes - n)
            }
        } catch let e as HTTPError {
            outcome.set(e.code)
            throw e
        }
        outcome.set("ok")
        return try .json(UploadResult(bytes: n, checksum: sum.value, maxChunk: maxChunk, maxBuffered: maxBuffered))
    }
}

extension MosaicHTTPTests {
    @Suite(.serialized, .timeLimit(.minutes(2)))
    struct StreamingTests {
        @Test func streamingUpload64MiBWithBoundedMemory() async throws {
            let outcome = Box("")
            try await withServer({ registerStreaming($0, outcome: outcome) }) { _, client in
                let total: Int64 = 64 << 20
                let piece = 256 * 1024
                let sent = Box(Checksum())
                let offset = Box<Int64>(0)
                let r = try await client.upload(.put, "/v1/blobs/b1", length: total) { _ in
                    let off = offset.value
                    guard off < total else { return nil }
                    let d = pattern(offset: off, count: Int(min(Int64(piece), total - off)))
                    offset.set(off + Int64(d.count))
                    sent.mutate { $0.update(d) }
                    return d
                }
                let result = try r.decode(UploadResult.self)
                #expect(result.bytes == total)
                #expect(result.checksum == sent.value.value)
                #expect(outcome.value == "ok")
                // The server holds a bounded window, not the body (the whole process's RSS is no
                // measure here: other suites allocate in the same process at the same time).
                #expect(result.maxBuffered < 8 << 20, "the server buffered \(result.maxBuffered) bytes of a 64 MiB upload")
            }
        }

        @Test func slowConsumerPausesTheUpload() async throws {
            let maxLag = Box<Int64>(0)
            try await withServer({ s in
                s.streamingRoute(.put, "/slow-sink", summary: "Slow consumer") { _, body in
                    var consumed: Int64 = 0
                    for try await chunk in body {
                        consumed += Int64(chunk.count)
                        let lag = body.receivedBytes - consumed
                        maxLag.mutate { $0 = max($0, lag) }
                        try await Task.sleep(for: .milliseconds(2))
                    }
                    return .text("\(consumed)")
                }
            }) { _, client in
                let total: Int64 = 24 << 20
                let offset = Box<Int64>(0)
                let r = try await client.upload(.put, "/slow-sink", length: total) { max in
                    let off = offset.value
                    guard off < total else { return nil }
                    let n = Int(min(Int64(max), total - off))
                    offset.set(off + Int64(n))
                    return Data(count: n)
                }
                #expect(String(decoding: r.body, as: UTF8.self) == "\(total)")
                // Without backpressure the server would buffer most of the 24 MiB.
                #expect(maxLag.value < 4 << 20, "server buffered up to \(maxLag.value) bytes")
            }
        }

        @Test func truncatedBodyIsDetected() async throws {
            let outcome = Box("")
            try await withServer({ registerStreaming($0, outcome: outcome) }) { server, client in
                guard let sock = RawSocket(port: server.port) else {
                    Issue.record("connect failed")
                    return
                }
                sock.send("PUT /v1/blobs/b2 HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n")
                sock.send(Data(count: 50000))
                sock.shutdownWrite()
                _ = sock.readAll()
                for _ in 0..<100 where outcome.value.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
                #expect(outcome.value == "body_truncated")
                // The client refuses to send a body shorter than its declared length.
                do {
                    _ = try await client.upload(.put, "/v1/blobs/b3", length: 1000) { _ in nil }
                    Issue.record("short upload should fail")
                } catch let e as HTTPClientError {
                    #expect(e.code == "body_truncated", "\(e)")
                }
                // A plain stream that ends before its Content-Length (URLSession's silent truncation)
                // reaches the server as a short body and is answered 400.
                var raw = URLRequest(url: server.baseURL.appendingPathComponent("v1/blobs/b5"))
                raw.httpMethod = "PUT"
                raw.httpBodyStream = InputStream(data: Data(count: 500))
                raw.setValue("1000", forHTTPHeaderField: "Content-Length")
                outcome.set("")
                if let (data, response) = try? await URLSession.shared.data(for: raw) {
                    #expect((response as? HTTPURLResponse)?.statusCode == 400)
                    #expect(String(decoding: data, as: UTF8.self).contains("\"code\":\"body_truncated\""))
                }
                for _ in 0..<100 where outcome.value.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
                #expect(outcome.value == "body_truncated")
                let r = try await client.upload(.put, "/v1/blobs/b4", length: 3) { _ in
                    outcome.value == "sent"
                        ? nil
                        : {
                            outcome.set("sent")
                            return Data([1, 2, 3])
                        }()
                }
                #expect(try r.decode(UploadResult.self).bytes == 3)
            }
        }

        @Test func fileUploadAndConnectionFailure() async throws {
            let outcome = Box("")
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("mosaic-up-\(UUID().uuidString)")
            let content = pattern(offset: 7, count: 3_000_000)
            try content.write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            var port: UInt16 = 0
            try await withServer({ registerStreaming($0, outcome: outcome) }) { server, client in
                port = server.port
                let r = try await client.upload(.put, "/v1/blobs/f", file: file)
                var sum = Checksum()
                sum.update(content)
                let result = try r.decode(UploadResult.self)
                #expect(result.bytes == Int64(content.count))
                #expect(result.checksum == sum.value)
            }
            // The server is gone: an idempotent call is retried, then fails as a connection failure.
            var cfg = HTTPClient.Configuration()
            cfg.retryBackoff = .milliseconds(10)
            let dead = HTTPClient(baseURL: try #require(URL(string: "http://127.0.0.1:\(port)")), configuration: cfg)
            do {
                _ = try await dead.send(.get, "/v1/blobs/f")
                Issue.record("expected a connection failure")
            } catch let e as HTTPClientError {
                #expect(e.status == 0)
                #expect(e.code == "connection_failed", "\(e)")
            }
        }

        @Test func precheckRejectsBeforeTheBodyIsRead() async throws {
            let handled = Box(false)
            let asked = Box<[String]>([])
            try await withServer({ s in
                s.streamingRoute(
                    .put, "/guarded", summary: "Needs a token",
                    precheck: { req in
                        asked.mutate { $0.append(req.headers["Expect"] ?? "") }
                        guard req.headers["Authorization"] == "Bearer ok" else { throw HTTPError.forbidden("bad token") }
                    }
                ) { _, body in
                    handled.set(true)
                    return .text("\(try await body.collect(maxBytes: 1 << 20).count)")
                }
            }) { _, client in
                let total: Int64 = 256 << 20
                let sent = Box<Int64>(0)
                do {
                    _ = try await client.upload(.put, "/guarded", length: total) { max in
                        sent.mutate { $0 += Int64(max) }
                        return Data(count: max)
                    }
                    Issue.record("expected 403")
                } catch let e as HTTPClientError {
                    #expect(e == HTTPClientError(status: 403, code: "forbidden", message: "bad token"))
                }
                #expect(!handled.value)
                #expect(sent.value < total / 4, "client sent \(sent.value) bytes before the 403")
                let produced = Box(false)
                let ok = try await client.upload(.put, "/guarded", length: 5, headers: ["Authorization": "Bearer ok"]) { _ in
                    produced.value
                        ? nil
                        : {
                            produced.set(true)
                            return Data(count: 5)
                        }()
                }
                #expect(String(decoding: ok.body, as: UTF8.self) == "5")
                // The large body waited for 100 Continue (so the refusal was not lost to a reset); the small one did not.
                #expect(asked.value == ["100-continue", ""])
            }
        }

        @Test func streamingUploadOverLimitIs413() async throws {
            try await withServer({ s in
                s.streamingRoute(.post, "/small", summary: "Small stream", bodyLimit: 10) { _, body in
                    .bytes(try await body.collect(maxBytes: 100))
                }
            }) { _, client in
                do {
                    _ = try await client.send(.post, "/small", body: Data(count: 11))
                    Issue.record("expected 413")
                } catch let e as HTTPClientError {
                    #expect(e.status == 413)
                }
                let r = try await client.send(.post, "/small", body: Data([9, 8, 7]))
                #expect(r.body == Data([9, 8, 7]))
            }
        }

        @Test func rangeDownloadAndFileDownload() async throws {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mosaic-http-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            let content = pattern(offset: 0, count: 300_000)
            let file = dir.appendingPathComponent("blob.bin")
            try content.write(to: file)
            try await withServer({ s in
                s.route(.get, "/files/:name", summary: "Download a file") { req in
                    try .file(atPath: dir.appendingPathComponent(try req.param("name")).path, range: req.headers["Range"])
                }
            }) { _, client in
                let whole = try await client.send(.get, "/files/blob.bin")
                #expect(whole.status == 200)
                #expect(whole.body == content)
                #expect(whole.headers["Accept-Ranges"] == "bytes")
                #expect(whole.headers["Content-Type"] == "application/octet-stream")

                let part = try await client.send(.get, "/files/blob.bin", headers: ["Range": "bytes=1000-1999"])
                #expect(part.status == 206)
                #expect(part.headers["Content-Range"] == "bytes 1000-1999/300000")
                #expect(part.body == content.subdata(in: 1000..<2000))

                let tail = try await client.send(.get, "/files/blob.bin", headers: ["Range": "bytes=-10"])
                #expect(tail.body == content.suffix(10))

                do {
                    _ = try await client.send(.get, "/files/blob.bin", headers: ["Range": "bytes=400000-"])
                    Issue.record("expected 416")
                } catch let e as HTTPClientError {
                    #expect(e.status == 416)
                }
                do {
                    _ = try await client.send(.get, "/files/missing.bin")
                    Issue.record("expected 404")
                } catch let e as HTTPClientError {
                    #expect(e.status == 404)
                }

                let dest = dir.appendingPathComponent("copy.bin")
                let d = try await client.download("/files/blob.bin", to: dest, headers: ["Range": "bytes=100-"])
                #expect(d.status == 206)
                #expect(try Data(contentsOf: dest) == content.subdata(in: 100..<300_000))
            }
        }

        /// A body built in a `ResponseBuffer` goes out as built (MHD sends it without a copy and
        /// frees it with the response), also for many requests at once and for an empty body.
        @Test func aResponseBufferBodyIsSentIntact() async throws {
            let total = 1_048_576 + 123
            try await withServer({ s in
                s.route(.get, "/buffer", summary: "Bytes built in place") { req in
                    let n = req.query["empty"] == nil ? total : 0
                    let body = try ResponseBuffer(count: n)
                    body.withUnsafeMutableBytes { out in
                        pattern(offset: 0, count: n).withUnsafeBytes { out.copyMemory(from: $0) }
                    }
                    return .bytes(body)
                }
            }) { _, client in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<16 {
                        group.addTask {
                            let r = try await client.send(.get, "/buffer")
                            #expect(r.status == 200)
                            #expect(r.headers["content-length"] == String(total))
                            #expect(r.body == pattern(offset: 0, count: total))
                        }
                    }
                    try await group.waitForAll()
                }
                let empty = try await client.send(.get, "/buffer", query: ["empty": "1"])
                #expect(empty.status == 200)
                #expect(empty.body.isEmpty)
            }
        }

        @Test func streamingResponseAndStreamingDownload() async throws {
            let total = 5_000_000
            try await withServer({ s in
                s.route(.get, "/gen", summary: "Generated bytes") { _ in
                    let pos = Box(0)
                    return .stream(length: Int64(total)) { max in
                        let p = pos.value
                        guard p < total else { return nil }
                        let d = pattern(offset: Int64(p), count: min(max, total - p))
                        pos.set(p + d.count)
                        return d
                    }
                }
            }) { _, client in
                let r = try await client.send(.get, "/gen")
                #expect(r.body == pattern(offset: 0, count: total))
                let (head, body) = try await client.stream("/gen")
                #expect(head.status == 200)
                var n = 0
                var sum = Checksum()
                for try await chunk in body {
                    n += chunk.count
                    sum.update(chunk)
                }
                var expected = Checksum()
                expected.update(pattern(offset: 0, count: total))
                #expect(n == total)
                #expect(sum.value == expected.value)
            }
        }

        @Test func clientRetriesIdempotentCallsOn503() async throws {
            let calls = Box(0)
            try await withServer({ s in
                s.route(.get, "/flaky", summary: "Fails twice") { _ in
                    calls.mutate { $0 += 1 }
                    if calls.value < 3 { throw HTTPError.unavailable() }
                    return .text("ok")
                }
                s.route(.post, "/flaky-post", summary: "Always 503") { _ in
                    calls.mutate { $0 += 1 }
                    throw HTTPError.unavailable("try later")
                }
            }) { _, client in
                let r = try await client.send(.get, "/flaky")
                #expect(String(decoding: r.body, as: UTF8.self) == "ok")
                #expect(calls.value == 3)
                calls.set(0)
                do {
                    _ = try await client.send(.post, "/flaky-post")
                    Issue.record("expected 503")
                } catch let e as HTTPClientError {
                    #expect(e == HTTPClientError(status: 503, code: "unavailable", message: "try later"))
                }
                #expect(calls.value == 1)
            }
        }
    }
}
