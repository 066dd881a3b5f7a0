import Foundation
import MosaicCrypto
import MosaicHTTP
import MosaicHTTPServer
import MosaicTestSupport
import Synchronization

@testable import MosaicBlobber
@testable import MosaicStorageCore

#if canImport(Glibc)
    import Glibc
#endif

/// A malicious co-blobber in tests: an HTTP server that stands at a blobber's URL, forwards every
/// request of the blobber API to the real blobber behind it, keeps a copy of each request it saw
/// (what an operator of that blobber can capture), and can rewrite the answers (`rewrite`).
final class BlobberProxy: Sendable {
    /// One request as the proxy received it.
    struct Captured: Sendable {
        var method: HTTPMethod
        var path: String
        var query: [String: String]
        var headers: [String: String]
        var body: Data
    }

    /// Rewrites an answer: given the request and the upstream answer, returns what to answer.
    typealias Rewrite = @Sendable (Captured, HTTPClientResponse) -> HTTPResponse?

    let upstream: URL
    private let server: HTTPServer
    private let client: HTTPClient
    private let log = Mutex<[Captured]>([])
    private let rewriter = Mutex<Rewrite?>(nil)

    init(upstream: URL) throws {
        self.upstream = upstream
        var c = HTTPClient.Configuration()
        c.retries = 0
        c.requestTimeout = 30
        client = HTTPClient(baseURL: upstream, configuration: c)
        var config = HTTPServer.Configuration()
        config.logger = nil
        server = HTTPServer(configuration: config)
        let routes: [(HTTPMethod, String)] = [
            (.get, "/v1/info"), (.post, "/v1/alloc/:id/assign"), (.get, "/v1/alloc/:id"),
            (.put, "/v1/alloc/:id/uploads/:upload"), (.get, "/v1/alloc/:id/uploads/:upload"), (.delete, "/v1/alloc/:id/uploads/:upload"),
            (.post, "/v1/alloc/:id/commit"), (.get, "/v1/alloc/:id/files"), (.get, "/v1/alloc/:id/stat"),
            (.get, "/v1/alloc/:id/read-counter"), (.get, "/v1/alloc/:id/blocks"),
        ]
        for (method, path) in routes {
            server.route(method, path, summary: "proxied", bodyLimit: 512 << 20) { [self] req in try await forward(req) }
        }
        try server.start()
    }

    var url: URL { server.baseURL }

    func stop() async { await server.stop(grace: .milliseconds(100)) }

    /// Every request seen so far, oldest first.
    var captured: [Captured] { log.withLock { $0 } }

    func setRewrite(_ r: Rewrite?) { rewriter.withLock { $0 = r } }

    private func forward(_ req: HTTPRequest) async throws -> HTTPResponse {
        var headers: [String: String] = [:]
        for (name, value) in req.headers where name.lowercased().hasPrefix("x-") { headers[name] = value }
        let seen = Captured(method: req.method, path: req.path, query: req.query, headers: headers, body: req.body)
        log.withLock { $0.append(seen) }
        let answer: HTTPClientResponse
        do {
            answer = try await client.send(
                req.method, req.path, query: req.query, headers: headers,
                body: req.method == .get ? nil : req.body, contentType: req.headers["Content-Type"])
        } catch let e as HTTPClientError where e.status > 0 {
            throw HTTPError(status: e.status, code: e.code, message: e.message)
        }
        if let rewrite = rewriter.withLock({ $0 }), let changed = rewrite(seen, answer) { return changed }
        return HTTPResponse(
            status: answer.status, body: answer.body, contentType: answer.headers["Content-Type"] ?? "application/octet-stream")
    }
}

/// Sends a captured (or crafted) request to `base` as it is; returns the status (0: no answer)
/// and the body, errors included.
func replay(_ c: BlobberProxy.Captured, to base: URL, headers extra: [String: String] = [:], query: [String: String]? = nil) async -> (
    status: Int, body: Data
) {
    var config = HTTPClient.Configuration()
    config.retries = 0
    let client = HTTPClient(baseURL: base, configuration: config)
    do {
        let r = try await client.send(
            c.method, c.path, query: query ?? c.query, headers: c.headers.merging(extra) { _, b in b },
            body: c.method == .get ? nil : c.body, contentType: "application/octet-stream")
        return (r.status, r.body)
    } catch let e as HTTPClientError {
        return (e.status, Data(e.message.utf8))
    } catch {
        return (0, Data())
    }
}

/// Sends `head` (request line and headers, without the blank line) and `body` over a new TCP
/// connection to 127.0.0.1:`port`, byte for byte (no client library fixing headers up), and
/// returns the answer's status code (0 when the server closed without one).
func rawHTTP(port: UInt16, head: String, body: [UInt8] = []) -> Int {
    guard let socket = RawSocket(port: port, receiveTimeout: 10) else { return 0 }
    socket.send(Data((head + "\r\nConnection: close\r\n\r\n").utf8) + Data(body))
    let line = String(decoding: socket.read(limit: 12).prefix(12), as: UTF8.self)
    guard line.hasPrefix("HTTP/1."), let code = Int(line.dropFirst(9).prefix(3)) else { return 0 }
    return code
}

/// Sends a request signed by `key` for blobber `blobberID` (docs/STORAGE.md §11), with exactly the
/// offset, query and body the signature covers unless `headers` overrides some afterwards;
/// `streamed` signs the body by its length (the upload PUT). Returns the status and body.
func signedSend(
    _ base: URL, blobberID: String, allocation: String, key: Ed25519.SigningKey, method: HTTPMethod, path: String,
    query: [String: String] = [:], offset: Int64? = nil, body: Data = Data(), streamed: Bool = false,
    headers extra: [String: String] = [:], time: Int64 = Int64(Date().timeIntervalSince1970)
) async -> (status: Int, body: Data) {
    var target = RequestSignature.Target(
        blobberID: blobberID, allocationID: allocation, method: method.rawValue, path: path,
        query: query, body: method == .get ? Data() : body)
    target.offset = offset
    if streamed { target.bodyHash = nil }
    var headers = RequestSignature.headers(target, key: key, time: time)
    if let offset { headers["X-Offset"] = String(offset) }
    headers.merge(extra) { _, b in b }
    let captured = BlobberProxy.Captured(method: method, path: path, query: query, headers: headers, body: body)
    return await replay(captured, to: base)
}
