import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// JSON and bulk-data client over URLSession, speaking the Mosaic error format.
/// Retries (with backoff) only idempotent methods, on connection failures and 502/503.
/// `https://` goes over our own libssl connections (`BulkHTTPConnection`), not URLSession: on Linux
/// URLSession is libcurl with a fixed CA bundle, so it cannot trust a network's own CA file
/// (`TLSTrust`). Plain `http://` beyond loopback is refused unless `TLSTrust` allows it.
package final class HTTPClient: Sendable {
    public struct Configuration: Sendable {
        /// Seconds without progress before a request fails (URLSession's request timeout, an idle timer on Linux).
        public var requestTimeout: TimeInterval = 60
        /// Upper bound for a whole buffered call, connecting included; nil = only the idle timeout.
        public var deadline: Duration? = .seconds(120)
        public var retries = 2
        public var retryBackoff: Duration = .milliseconds(100)
        /// URLSession's default of 6 serialises concurrent calls to one node.
        public var maxConnectionsPerHost = 32
        /// Sent with every request (e.g. an API version or auth header).
        public var headers: [String: String] = [:]
        public init() {}
    }

    public let baseURL: URL
    public let configuration: Configuration
    private let session: URLSession
    /// Idle keep-alive socket connections to `baseURL`: https, and IPv6 literal hosts.
    private let tls: ConnectionPool?

    public init(baseURL: URL, configuration: Configuration = Configuration()) {
        self.baseURL = baseURL
        self.configuration = configuration
        let c = URLSessionConfiguration.ephemeral
        c.httpMaximumConnectionsPerHost = configuration.maxConnectionsPerHost
        c.timeoutIntervalForRequest = configuration.requestTimeout
        c.timeoutIntervalForResource = 7 * 24 * 3600
        c.requestCachePolicy = .reloadIgnoringLocalCacheData
        c.urlCache = nil
        session = URLSession(configuration: c)
        // URLSession on Linux refuses a URL with an IPv6 literal (NSURLErrorBadURL), so those go
        // over our own sockets too, like https.
        let ipv6Literal = baseURL.host?.contains(":") == true
        tls = baseURL.scheme?.lowercased() == "https" || ipv6Literal ? ConnectionPool() : nil
    }

    deinit { session.finishTasksAndInvalidate() }

    // MARK: JSON helpers

    public func get<T: Decodable>(_ path: String, query: [String: String] = [:], as type: T.Type = T.self) async throws -> T {
        try await send(.get, path, query: query).decode(T.self)
    }

    public func post<T: Decodable>(_ path: String, json: some Encodable, as type: T.Type = T.self) async throws -> T {
        try await send(.post, path, body: try encode(json), contentType: "application/json").decode(T.self)
    }

    public func put<T: Decodable>(_ path: String, json: some Encodable, as type: T.Type = T.self) async throws -> T {
        try await send(.put, path, body: try encode(json), contentType: "application/json").decode(T.self)
    }

    @discardableResult
    public func delete(_ path: String, query: [String: String] = [:]) async throws -> HTTPClientResponse {
        try await send(.delete, path, query: query)
    }

    private func encode(_ value: some Encodable) throws -> Data {
        do { return try JSONEncoder.mosaic.encode(value) } catch {
            throw HTTPClientError(status: 0, code: "encoding_failed", message: "cannot encode request: \(error)")
        }
    }

    // MARK: raw calls

    /// One request with a buffered body; a status >= 400 throws `HTTPClientError` with the server's message.
    public func send(
        _ method: HTTPMethod, _ path: String, query: [String: String] = [:], headers: [String: String] = [:],
        body: Data? = nil, contentType: String? = nil
    ) async throws -> HTTPClientResponse {
        if tls != nil {
            let body = body ?? Data()
            return try await tlsRetries(method) { c in
                try await c.send(
                    method, path, query: query, headers: self.merged(headers), contentType: contentType ?? "application/octet-stream",
                    body: body)
            }
        }
        var req = try request(method, path, query: query, headers: headers)
        let body = body ?? Data()
        if method != .get, method != .head {
            req.httpBody = body
            req.setValue(String(body.count), forHTTPHeaderField: "Content-Length")
            req.setValue(contentType ?? "application/octet-stream", forHTTPHeaderField: "Content-Type")
        }
        let request = req
        return try await withRetries(method) {
            try await self.withDeadline { try await self.session.cancellableData(for: request) }
        }
    }

    /// Above this a streamed body waits for the server's `100 Continue`: a server that refuses
    /// from the headers alone (a bad token) then closes a connection with no unread bytes, so the
    /// client reads the refusal instead of losing it to the reset that unread bytes cause.
    static let expectContinueBytes: Int64 = 1 << 20

    /// Streams a generated body of exactly `length` bytes (e.g. encrypted fragments) with a
    /// Content-Length the server checks; memory stays bounded. Not retried: the body is consumed.
    public func upload(
        _ method: HTTPMethod = .put, _ path: String, length: Int64, query: [String: String] = [:],
        headers: [String: String] = [:], contentType: String = "application/octet-stream",
        producer: @escaping @Sendable (_ maxBytes: Int) throws -> Data?
    ) async throws -> HTTPClientResponse {
        if tls != nil {
            // Gathered first: the TLS connection sends from one buffer (bodies here are fragments).
            var data = Data()
            while data.count < length, let chunk = try producer(Int(clamping: min(length - Int64(data.count), 1 << 20))) {
                if chunk.isEmpty { break }
                data.append(chunk)
            }
            guard Int64(data.count) == length else {
                throw HTTPClientError(status: 0, code: "upload_failed", message: "the body gave \(data.count) of \(length) bytes")
            }
            let body = data
            return try await tlsRetries(.post) { c in
                try await c.send(method, path, query: query, headers: self.merged(headers), contentType: contentType, body: body)
            }
        }
        var req = try request(method, path, query: query, headers: headers)
        let body = ProducerInputStream(length: length, producer: producer)
        req.httpBodyStream = body
        req.setValue(String(length), forHTTPHeaderField: "Content-Length")
        req.setValue(contentType, forHTTPHeaderField: "Content-Type")
        if length > Self.expectContinueBytes {
            req.setValue("100-continue", forHTTPHeaderField: "Expect")
        }
        let request = req
        do {
            return try checked(try await transport { try await self.session.cancellableData(for: request) })
        } catch let e as HTTPClientError where e.status == 0 {
            // URLSession only says "aborted by callback"; the producer knows why.
            if let cause = body.streamError as? HTTPClientError { throw cause }
            if let cause = body.streamError { throw HTTPClientError(status: 0, code: "upload_failed", message: "\(cause)") }
            throw e
        }
    }

    /// Streams a file as the body; retried like `send` because the file can be re-read.
    public func upload(
        _ method: HTTPMethod = .put, _ path: String, file: URL, query: [String: String] = [:],
        headers: [String: String] = [:], contentType: String = "application/octet-stream"
    ) async throws -> HTTPClientResponse {
        let size: Int64
        do {
            size = (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.int64Value ?? 0
        } catch {
            throw HTTPClientError(status: 0, code: "file_unreadable", message: "cannot read \(file.path)")
        }
        if tls != nil {
            let body: Data
            do { body = try Data(contentsOf: file, options: .alwaysMapped) } catch {
                throw HTTPClientError(status: 0, code: "file_unreadable", message: "cannot open \(file.path)")
            }
            return try await tlsRetries(method) { c in
                try await c.send(method, path, query: query, headers: self.merged(headers), contentType: contentType, body: body)
            }
        }
        let base = try request(method, path, query: query, headers: headers)
        return try await withRetries(method) {
            var req = base
            guard let stream = InputStream(url: file) else {
                throw HTTPClientError(status: 0, code: "file_unreadable", message: "cannot open \(file.path)")
            }
            req.httpBodyStream = stream
            req.setValue(String(size), forHTTPHeaderField: "Content-Length")
            req.setValue(contentType, forHTTPHeaderField: "Content-Type")
            let r = req
            return try await self.session.cancellableData(for: r)
        }
    }

    /// Downloads the body to `destination` (replacing it) without holding it in memory.
    /// Pass a `Range` header to fetch a part; the returned response has an empty body.
    @discardableResult
    public func download(
        _ path: String, to destination: URL, query: [String: String] = [:],
        headers: [String: String] = [:]
    ) async throws -> HTTPClientResponse {
        if tls != nil {
            // Over TLS the body is buffered (at most `BulkHTTPConnection.maxResponseBytes`), then written.
            let r = try await tlsRetries(.get) { c in
                try await c.send(.get, path, query: query, headers: self.merged(headers), body: Data())
            }
            do {
                try? FileManager.default.removeItem(at: destination)
                try r.body.write(to: destination)
            } catch {
                throw HTTPClientError(status: 0, code: "file_unwritable", message: "cannot write \(destination.path): \(error)")
            }
            return HTTPClientResponse(status: r.status, headers: r.headers, body: Data())
        }
        let req = try request(.get, path, query: query, headers: headers)
        let (tmp, response) = try await withRetriesRaw(.get) { try await self.session.cancellableDownload(for: req) }
        defer { try? FileManager.default.removeItem(at: tmp) }
        let (status, hdrs) = head(response)
        if status >= 400 {
            throw HTTPClientError.from(status: status, body: (try? Data(contentsOf: tmp)) ?? Data())
        }
        do {
            try? FileManager.default.removeItem(at: destination)
            try FileManager.default.moveItem(at: tmp, to: destination)
        } catch {
            throw HTTPClientError(status: 0, code: "file_unwritable", message: "cannot write \(destination.path): \(error)")
        }
        return HTTPClientResponse(status: status, headers: hdrs, body: Data())
    }

    /// Streams a download chunk by chunk. Linux URLSession has no receive backpressure, so a
    /// consumer slower than the network buffers the rest in memory; prefer `download(_:to:)` for large bodies.
    public func stream(_ path: String, query: [String: String] = [:], headers: [String: String] = [:]) async throws
        -> (response: HTTPClientResponse, body: AsyncThrowingStream<Data, Error>)
    {
        if tls != nil {
            // Over TLS the body is buffered (at most `BulkHTTPConnection.maxResponseBytes`), then handed out in chunks.
            let r = try await tlsRetries(.get) { c in
                try await c.send(.get, path, query: query, headers: self.merged(headers), body: Data())
            }
            let body = AsyncThrowingStream<Data, Error> { cont in
                var at = 0
                while at < r.body.count {
                    let end = min(r.body.count, at + 64 * 1024)
                    cont.yield(r.body.subdata(in: at..<end))
                    at = end
                }
                cont.finish()
            }
            return (HTTPClientResponse(status: r.status, headers: r.headers, body: Data()), body)
        }
        let req = try request(.get, path, query: query, headers: headers)
        let delegate = StreamingDelegate()
        let c = URLSessionConfiguration.ephemeral
        c.timeoutIntervalForRequest = configuration.requestTimeout
        let s = URLSession(configuration: c, delegate: delegate, delegateQueue: nil)
        let (head, body) = try await delegate.start(s.dataTask(with: req))
        s.finishTasksAndInvalidate()
        let status = head.statusCode
        let hdrs = self.head(head).1
        if status >= 400 {
            var data = Data()
            for try await chunk in body {
                data.append(chunk)
                if data.count > 64 * 1024 { break }
            }
            throw HTTPClientError.from(status: status, body: data)
        }
        return (HTTPClientResponse(status: status, headers: hdrs, body: Data()), body)
    }

    // MARK: plumbing

    /// The configured headers with the call's own on top.
    private func merged(_ headers: [String: String]) -> [String: String] {
        configuration.headers.merging(headers) { $1 }
    }

    /// One call over a pooled socket connection (TLS, or an IPv6 literal host), retried as `withRetriesRaw` retries (idempotent
    /// methods, on connection failures and 502/503) and bounded by the deadline.
    private func tlsRetries(
        _ method: HTTPMethod, _ op: @escaping @Sendable (BulkHTTPConnection) async throws -> HTTPClientResponse
    ) async throws -> HTTPClientResponse {
        guard let tls else { throw HTTPClientError(status: 0, code: "invalid_url", message: "not an https URL: \(baseURL)") }
        let attempts = method.isIdempotent ? max(0, configuration.retries) + 1 : 1
        var pause = configuration.retryBackoff
        let timeout = configuration.requestTimeout
        let base = baseURL
        for attempt in 1...attempts {
            do {
                return try await withDeadline {
                    let pooled = tls.idle.withLock { $0.popLast() }
                    guard let c = pooled ?? BulkHTTPConnection(baseURL: base, timeout: timeout) else {
                        throw HTTPClientError(status: 0, code: "invalid_url", message: "bad base URL \(base)")
                    }
                    let r = try await op(c)
                    tls.idle.withLock { if $0.count < 64 { $0.append(c) } }
                    return r
                }
            } catch let e as HTTPClientError
                where attempt < attempts && (e.code == "connection_failed" || e.status == 502 || e.status == 503)
            {
                try await Task.sleep(for: pause)
                pause *= 2
            }
        }
        throw HTTPClientError(status: 0, code: "connection_failed", message: "retries exhausted")
    }

    private func request(_ method: HTTPMethod, _ path: String, query: [String: String], headers: [String: String]) throws -> URLRequest {
        do { try TLSTrust.check(baseURL) } catch { throw error.clientError }
        guard var comps = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) else {
            throw HTTPClientError(status: 0, code: "invalid_url", message: "bad base URL \(baseURL)")
        }
        let basePath = comps.path.hasSuffix("/") ? String(comps.path.dropLast()) : comps.path
        comps.percentEncodedPath = URLPath.encode(basePath + (path.hasPrefix("/") ? path : "/" + path))
        if !query.isEmpty {
            comps.queryItems = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
            // URLComponents leaves "+" as is, which servers (libmicrohttpd too) read as a space.
            comps.percentEncodedQuery = comps.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        }
        guard let url = comps.url else { throw HTTPClientError(status: 0, code: "invalid_url", message: "bad path \(path)") }
        var req = URLRequest(url: url)
        req.httpMethod = method.rawValue
        req.timeoutInterval = configuration.requestTimeout
        for (k, v) in configuration.headers { req.setValue(v, forHTTPHeaderField: k) }
        for (k, v) in headers { req.setValue(v, forHTTPHeaderField: k) }
        return req
    }

    private func head(_ response: URLResponse) -> (Int, HTTPHeaders) {
        guard let http = response as? HTTPURLResponse else { return (0, HTTPHeaders()) }
        var h = HTTPHeaders()
        for (k, v) in http.allHeaderFields {
            if let k = k as? String, let v = v as? String { h.add(k, v) }
        }
        return (http.statusCode, h)
    }

    private func checked(_ result: (Data, URLResponse)) throws -> HTTPClientResponse {
        let (status, hdrs) = head(result.1)
        if status >= 400 { throw HTTPClientError.from(status: status, body: result.0) }
        return HTTPClientResponse(status: status, headers: hdrs, body: result.0)
    }

    private func withRetries(_ method: HTTPMethod, _ op: @escaping @Sendable () async throws -> (Data, URLResponse)) async throws
        -> HTTPClientResponse
    {
        try checked(try await withRetriesRaw(method, op))
    }

    /// Retries idempotent calls on connection failures and 502/503, doubling the pause each time.
    private func withRetriesRaw<T: Sendable>(_ method: HTTPMethod, _ op: @escaping @Sendable () async throws -> (T, URLResponse))
        async throws -> (T, URLResponse)
    {
        let attempts = method.isIdempotent ? max(0, configuration.retries) + 1 : 1
        var pause = configuration.retryBackoff
        for attempt in 1...attempts {
            let last = attempt == attempts
            do {
                let result = try await transport(op)
                if !last, let http = result.1 as? HTTPURLResponse, http.statusCode == 502 || http.statusCode == 503 {
                    try await Task.sleep(for: pause)
                    pause *= 2
                    continue
                }
                return result
            } catch let e as HTTPClientError where !last && e.code == "connection_failed" {
                try await Task.sleep(for: pause)
                pause *= 2
            }
        }
        throw HTTPClientError(status: 0, code: "connection_failed", message: "retries exhausted")
    }

    /// Maps URLSession's errors to `HTTPClientError`.
    private func transport<T>(_ op: () async throws -> T) async throws -> T {
        do {
            return try await op()
        } catch let e as HTTPClientError {
            throw e
        } catch let e as URLError {
            switch e.code {
            case .cannotConnectToHost, .networkConnectionLost, .cannotFindHost, .notConnectedToInternet, .dnsLookupFailed:
                throw HTTPClientError(status: 0, code: "connection_failed", message: e.localizedDescription)
            case .timedOut:
                throw HTTPClientError(status: 0, code: "timeout", message: "request timed out")
            case .cancelled:
                throw HTTPClientError(status: 0, code: "cancelled", message: "request cancelled")
            default:
                throw HTTPClientError(status: 0, code: "transport", message: e.localizedDescription)
            }
        } catch is CancellationError {
            throw HTTPClientError(status: 0, code: "cancelled", message: "request cancelled")
        } catch {
            throw HTTPClientError(status: 0, code: "transport", message: String(describing: error))
        }
    }

    /// Bounds a whole call by `configuration.deadline`.
    private func withDeadline<T: Sendable>(_ op: @escaping @Sendable () async throws -> T) async throws -> T {
        guard let deadline = configuration.deadline else { return try await op() }
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await op() }
            group.addTask {
                try await Task.sleep(for: deadline)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else {
                throw HTTPClientError(status: 0, code: "timeout", message: "no answer within \(deadline)")
            }
            return value
        }
    }
}

/// Idle keep-alive connections of one `HTTPClient` (a class: a `Mutex` cannot sit in an Optional field).
private final class ConnectionPool: Sendable {
    let idle = Mutex<[BulkHTTPConnection]>([])
}
