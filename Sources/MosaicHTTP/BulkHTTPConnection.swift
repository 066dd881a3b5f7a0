import CSSL
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One plain-HTTP/1.1 keep-alive connection for large request bodies sent straight from memory.
///
/// Why not `HTTPClient`: on Linux, URLSession copies a request body several times (into `Data`,
/// `DispatchData`, libcurl's upload buffer) and drives the socket through libdispatch event
/// sources; for the 1 MiB fragment PUTs of an upload that cost more CPU than sealing, coding and
/// hashing the bytes together. This writes the header and then the body from the caller's buffer
/// with plain `send` calls and parses the (small) response itself.
///
/// Blocking I/O runs on the connection's own serial queue, never on Swift's cooperative pool: a
/// send blocked on a slow peer there could starve the very tasks (e.g. an in-process blobber)
/// that would drain it. One request at a time per connection; use one connection per peer stream.
/// `https://` goes through OpenSSL's libssl with `TLSTrust`'s context (system CAs plus the
/// network's CA file); `http://` only to loopback unless `TLSTrust` allows plain HTTP. `init`
/// returns nil for plain hosts an `http_proxy` covers and for refused plain HTTP, and callers fall
/// back to `HTTPClient` (which says why it refuses).
package final class BulkHTTPConnection: @unchecked Sendable {
    // @unchecked: `fd` is read and written only on `queue`; the rest is immutable.
    public let host: String
    public let port: UInt16
    private let basePath: String
    private let timeout: TimeInterval
    private let queue: DispatchQueue
    private var fd: Int32 = -1
    /// The TLS session on `fd` for https (an `SSL *`), else nil.
    private var ssl: OpaquePointer?
    /// Whether the URL is https.
    public let secure: Bool
    /// The socket of the request in flight and whether its task was cancelled, shared with the
    /// cancellation handler: cancelling shuts the socket down, so a blocked send or receive on
    /// `queue` returns at once (a task group waiting for a slow blobber it gave up on is not held
    /// until that blobber finishes). The socket is closed only under this lock, so the handler
    /// never shuts down a descriptor already reused.
    private let inFlight = Mutex(InFlight())

    /// Body bytes the open streamed request still has to send (see `openStream`); on `queue`.
    /// A request left open (its sender gave up) is cut off by the next use of the connection.
    private var streamLeft: Int64 = 0

    private struct InFlight {
        var fd: Int32 = -1
        /// The last request id given out, the one running on `queue` (0 when none) and the last one cancelled.
        var issued: UInt64 = 0
        var current: UInt64 = 0
        var cancelled: UInt64 = 0
    }

    /// The largest response body read (responses to bulk PUTs are small JSON documents).
    static let maxResponseBytes = 16 << 20

    /// - Parameter timeout: seconds a connect, a send or a receive may make no progress
    ///   (the same idle semantics as URLSession's request timeout).
    public init?(baseURL: URL, timeout: TimeInterval) {
        let scheme = baseURL.scheme?.lowercased()
        guard scheme == "http" || scheme == "https", let host = baseURL.host, !host.isEmpty else { return nil }
        secure = scheme == "https"
        if !secure {
            guard (try? TLSTrust.check(baseURL)) != nil, !Self.proxied(host: host, environment: ProcessInfo.processInfo.environment)
            else { return nil }
        }
        self.host = host
        port = UInt16(exactly: baseURL.port ?? (secure ? 443 : 80)) ?? 80
        let path = baseURL.path
        basePath = path.hasSuffix("/") ? String(path.dropLast()) : path
        self.timeout = max(0.001, timeout)
        queue = DispatchQueue(label: "mosaic.bulk-http.\(host):\(port)")
    }

    deinit {
        if let ssl { SSL_free(ssl) }
        if fd >= 0 { close(fd) }
    }

    /// Whether URLSession would send requests to `host` through an `http_proxy`: then this
    /// connection stands aside (it speaks to the origin only) and `HTTPClient` carries the PUTs.
    static func proxied(host: String, environment: [String: String]) -> Bool {
        guard let proxy = environment["http_proxy"] ?? environment["HTTP_PROXY"], !proxy.isEmpty else { return false }
        let exempt = (environment["no_proxy"] ?? environment["NO_PROXY"] ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let h = host.lowercased()
        return !exempt.contains { e in e == "*" || (!e.isEmpty && (h == e || h.hasSuffix(e.hasPrefix(".") ? e : "." + e))) }
    }

    /// Sends one request with `body` as its Content-Length body and returns the response; a status
    /// >= 400 throws `HTTPClientError` with the server's message. An idempotent request that fails on
    /// a reused connection before any response byte arrived (the server closed the idle connection)
    /// is sent once more on a new one.
    ///
    /// - Parameter path: the percent-encoded path (appended to the base URL's path).
    public func send<Body: ContiguousBytes & Sendable>(
        _ method: HTTPMethod, _ path: String, query: [String: String] = [:],
        headers: [String: String] = [:],
        contentType: String = "application/octet-stream",
        body: Body
    ) async throws -> HTTPClientResponse {
        var comps = URLComponents()
        comps.queryItems = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        // URLComponents leaves "+" as is, which servers (libmicrohttpd too) read as a space.
        let target = query.isEmpty ? path : path + "?" + (comps.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
        // The body travels in a box emptied before the caller resumes, so the caller sees its buffer
        // released (the encoder reuses a batch buffer only when nothing else refers to it) instead of
        // racing the release of this dispatch block.
        let box = BodyBox(body)
        let response = try await onQueue { () throws -> HTTPClientResponse in
            guard let b = box.take() else {
                throw HTTPClientError(status: 0, code: "transport", message: "request body already sent")
            }
            self.cutOffOpenStream()
            return try b.withUnsafeBytes { try self.exchange(method, target, headers, contentType, $0) }
        }
        if response.status >= 400 { throw HTTPClientError.from(status: response.status, body: response.body) }
        return response
    }

    /// Runs `work` on `queue` as the connection's request in flight: cancelling the calling task
    /// shuts the socket down, so a blocked send or receive returns at once.
    private func onQueue<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        let id = inFlight.withLock {
            $0.issued += 1
            return $0.issued
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { cont in
                queue.async {
                    let result = Result { () throws -> T in
                        self.inFlight.withLock { $0.current = id }
                        defer { self.inFlight.withLock { $0.current = 0 } }
                        return try work()
                    }
                    cont.resume(with: result)
                }
            }
        } onCancel: {
            inFlight.withLock {
                $0.cancelled = id
                if $0.current == id, $0.fd >= 0 { shutdown($0.fd, Int32(SHUT_RDWR)) }
            }
        }
    }

    // MARK: streamed requests

    /// Starts a request whose `length`-byte body follows in parts (`streamBody`) as the caller
    /// produces them, answered by `finishStream`. An upload streams its fragments as one PUT per
    /// span of many encoder batches: a PUT per batch cost a round trip each, during which neither
    /// the client nor the blobber had the next bytes to work on, and per-request work on both.
    /// Only the head is sent here; on a reused connection that the server closed meanwhile, it is
    /// sent again on a new one (no body byte has left yet).
    public func openStream(
        _ method: HTTPMethod, _ path: String, headers: [String: String] = [:],
        contentType: String = "application/octet-stream", length: Int64
    ) async throws {
        guard length > 0 else {
            throw HTTPClientError(status: 0, code: "transport", message: "a streamed request needs a body")
        }
        try await onQueue {
            self.cutOffOpenStream()
            let head = try self.head(method, self.requestTarget(path), headers, contentType, length)
            for attempt in 1...2 {
                try self.checkCancelled()
                if self.fd >= 0, !self.idleAndOpen() { self.closeSocket() }
                let reused = self.fd >= 0
                if !reused { try self.connectSocket() }
                do {
                    try head.withUnsafeBytes { try self.sendAll($0, more: true) }
                    self.streamLeft = length
                    return
                } catch {
                    self.closeSocket()
                    try self.checkCancelled()
                    if reused, attempt == 1 { continue }
                    throw error
                }
            }
        }
    }

    /// Sends the next part of the open streamed request's body, straight from the caller's
    /// buffer. A failure ends the request: the server's answer is read if it gave one (a refusal
    /// sent before the body was complete), and that is what throws.
    public func streamBody<Body: ContiguousBytes & Sendable>(_ body: Body) async throws {
        let box = BodyBox(body)
        try await onQueue {
            guard let b = box.take() else { throw HTTPClientError(status: 0, code: "transport", message: "request body already sent") }
            try b.withUnsafeBytes { bytes in
                guard self.fd >= 0, Int64(bytes.count) <= self.streamLeft else {
                    throw HTTPClientError(
                        status: 0, code: "transport",
                        message: "no open request to \(self.host):\(self.port) takes \(bytes.count) more bytes")
                }
                do {
                    // Each part leaves whole (TLS records flushed, no MSG_MORE): what the server
                    // received is then all the caller sent, so after a cut connection the upload
                    // can go on from what the server kept.
                    try self.sendAll(bytes, more: false)
                    self.streamLeft -= Int64(bytes.count)
                } catch let sent as HTTPClientError {
                    self.streamLeft = 0
                    // A peer that closed may have said why first; one that stopped taking bytes
                    // (cut off) would only make the read wait out the timeout a second time.
                    let answer = sent.code == "timeout" ? nil : try? self.readResponse().0
                    self.closeSocket()
                    if let answer, answer.status >= 400 { throw HTTPClientError.from(status: answer.status, body: answer.body) }
                    throw sent
                }
            }
        }
    }

    /// Reads the answer to the streamed request once its whole body is sent; a status >= 400
    /// throws with the server's message.
    public func finishStream() async throws -> HTTPClientResponse {
        let response = try await onQueue { () throws -> HTTPClientResponse in
            guard self.fd >= 0, self.streamLeft == 0 else {
                let left = self.streamLeft
                self.cutOffOpenStream()
                throw HTTPClientError(
                    status: 0, code: "transport", message: "the request to \(self.host):\(self.port) ended \(left) bytes short of its body")
            }
            do {
                let (response, keepAlive) = try self.readResponse()
                if !keepAlive { self.closeSocket() }
                return response
            } catch let e as Stale {
                self.closeSocket()
                throw e.underlying
            } catch {
                self.closeSocket()
                throw error
            }
        }
        if response.status >= 400 { throw HTTPClientError.from(status: response.status, body: response.body) }
        return response
    }

    /// Gives up the open streamed request, if any: its connection is closed (the server drops the
    /// partial body's request; what it already wrote of it stays, as after any cut connection).
    public func abortStream() async {
        _ = try? await onQueue { self.cutOffOpenStream() }
    }

    /// Closes the socket (the next request opens a new one).
    public func disconnect() {
        queue.sync { closeSocket() }
    }

    // MARK: on `queue`

    /// Marks a failure after which a retry on a fresh connection is safe: nothing of the response arrived.
    private struct Stale: Error { let underlying: HTTPClientError }

    private func exchange(
        _ method: HTTPMethod, _ path: String, _ headers: [String: String], _ contentType: String,
        _ body: UnsafeRawBufferPointer
    ) throws -> HTTPClientResponse {
        let headBytes = try head(method, requestTarget(path), headers, contentType, Int64(body.count))
        for attempt in 1...2 {
            try checkCancelled()
            let reused = fd >= 0
            if !reused { try connectSocket() }
            do {
                return try roundTrip(headBytes, body)
            } catch let stale as Stale {
                closeSocket()
                try checkCancelled()
                if reused, attempt == 1, method.isIdempotent { continue }
                throw stale.underlying
            } catch {
                closeSocket()
                try checkCancelled()
                throw error
            }
        }
        throw HTTPClientError(status: 0, code: "connection_failed", message: "\(host):\(port) closed the connection twice")
    }

    /// The request line's target for `path` under the base URL's path: encoded, so it can hold no
    /// space or line break.
    private func requestTarget(_ path: String) -> String {
        URLPath.target(basePath + (path.hasPrefix("/") ? path : "/" + path))
    }

    /// A request's head: request line, Host, Content-Length, Content-Type when there is a body, `headers`.
    private func head(
        _ method: HTTPMethod, _ target: String, _ headers: [String: String], _ contentType: String, _ length: Int64
    ) throws -> [UInt8] {
        var head = "\(method.rawValue) \(target) HTTP/1.1\r\n"
        head += "Host: \(host.contains(":") ? "[\(host)]" : host):\(port)\r\nContent-Length: \(length)\r\n"
        if length > 0 { head += "Content-Type: \(contentType)\r\n" }
        for (k, v) in headers {
            // Header injection guard: a value with a line break would start a new header or request.
            // Checked on bytes: Swift compares "\r\n" as one Character, equal to neither "\r" nor "\n".
            guard !k.utf8.contains(where: { $0 == 13 || $0 == 10 || $0 == 58 }), !v.utf8.contains(where: { $0 == 13 || $0 == 10 }) else {
                throw HTTPClientError(status: 0, code: "invalid_header", message: "header \(k) contains a line break; refusing to send it")
            }
            head += "\(k): \(v)\r\n"
        }
        head += "\r\n"
        return Array(head.utf8)
    }

    /// Closes the connection if a streamed request on it was left with its body unfinished.
    private func cutOffOpenStream() {
        if streamLeft > 0 { closeSocket() }
        streamLeft = 0
    }

    /// Whether the idle keep-alive connection is still usable: nothing to read on it (a server that
    /// closed it has sent its end, or a TLS alert), no error or hang-up.
    private func idleAndOpen() -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, 0) == 0
    }

    private func roundTrip(_ head: [UInt8], _ body: UnsafeRawBufferPointer) throws -> HTTPClientResponse {
        var sendFailure: HTTPClientError?
        do {
            try head.withUnsafeBytes { try sendAll($0, more: !body.isEmpty) }
            try sendAll(body, more: false)
        } catch let e as HTTPClientError {
            // The server may have answered early (a refusal) and closed; read what it said.
            sendFailure = e
        }
        let response: HTTPClientResponse
        let keepAlive: Bool
        do {
            (response, keepAlive) = try readResponse()
        } catch let e as Stale {
            throw Stale(underlying: sendFailure ?? e.underlying)
        }
        if !keepAlive || sendFailure != nil { closeSocket() }
        return response
    }

    /// Throws when the request's task was cancelled (its socket was shut down, or is about to be).
    private func checkCancelled() throws {
        if inFlight.withLock({ $0.current != 0 && $0.cancelled == $0.current }) {
            throw HTTPClientError(status: 0, code: "cancelled", message: "the request to \(host):\(port) was cancelled")
        }
    }

    private func connectSocket() throws {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &list)
        guard rc == 0, let first = list else {
            throw HTTPClientError(
                status: 0, code: "connection_failed", message: "cannot resolve \(host): \(String(cString: gai_strerror(rc)))")
        }
        defer { freeaddrinfo(first) }
        var lastErrno: Int32 = 0
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let ai = cursor {
            cursor = ai.pointee.ai_next
            let s = socket(ai.pointee.ai_family, ai.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), ai.pointee.ai_protocol)
            guard s >= 0 else {
                lastErrno = errno
                continue
            }
            var tv = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1e6))
            var one: Int32 = 1
            // On Linux SO_SNDTIMEO also bounds connect().
            setsockopt(s, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(s, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            // Published before connect, so a cancellation also ends a connect or handshake in progress.
            let cancelled = inFlight.withLock {
                $0.fd = s
                return $0.cancelled == $0.current
            }
            if !cancelled, connect(s, ai.pointee.ai_addr, ai.pointee.ai_addrlen) == 0 {
                if secure {
                    do { try handshake(s) } catch {
                        inFlight.withLock {
                            $0.fd = -1
                            close(s)
                        }
                        try checkCancelled()
                        throw error
                    }
                }
                fd = s
                return
            }
            lastErrno = errno
            inFlight.withLock {
                $0.fd = -1
                close(s)
            }
            try checkCancelled()
        }
        let reason = lastErrno == EINPROGRESS || lastErrno == EAGAIN ? "timed out" : String(cString: strerror(lastErrno))
        throw HTTPClientError(status: 0, code: "connection_failed", message: "cannot connect to \(host):\(port): \(reason)")
    }

    private var isIPAddress: Bool {
        var a4 = in_addr()
        var a6 = in6_addr()
        return inet_pton(AF_INET, host, &a4) == 1 || inet_pton(AF_INET6, host, &a6) == 1
    }

    /// The TLS handshake on the connected socket `s` (the caller closes it on failure); the certificate must
    /// verify and name `host` (its DNS name, or its IP address).
    private func handshake(_ s: Int32) throws {
        let ctx: OpaquePointer
        do { ctx = try TLSTrust.context() } catch {
            throw error.clientError
        }
        var err = [CChar](repeating: 0, count: 512)
        guard let session = cssl_connect(ctx, s, host, isIPAddress ? 1 : 0, &err, err.count) else {
            let reason = String(decoding: err.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw TransportSecurityError.handshakeFailed(host: "\(host):\(port)", reason: reason).clientError
        }
        ssl = session
    }

    private func closeSocket() {
        streamLeft = 0
        if let ssl { SSL_free(ssl) }
        ssl = nil
        inFlight.withLock {
            if fd >= 0 { close(fd) }
            $0.fd = -1
        }
        fd = -1
    }

    /// `send` or `SSL_write`: bytes written, or -1 with `errno` set (EAGAIN when the socket timed out).
    private func write(_ p: UnsafeRawPointer, _ n: Int, flags: Int32) -> Int {
        guard let ssl else { return Glibc.send(fd, p, n, flags) }
        errno = 0
        let rc = SSL_write(ssl, p, Int32(clamping: n))
        if rc > 0 { return Int(rc) }
        switch cssl_error_want(ssl, rc) {
        case 1: errno = EAGAIN
        case 3 where errno != 0: break
        default: errno = ECONNRESET
        }
        return -1
    }

    /// `recv` or `SSL_read`: bytes read, 0 at the end of the stream, or -1 with `errno` set.
    private func read(_ p: UnsafeMutableRawPointer?, _ n: Int) -> Int {
        guard let ssl else { return recv(fd, p, n, 0) }
        errno = 0
        let rc = SSL_read(ssl, p, Int32(clamping: n))
        if rc > 0 { return Int(rc) }
        switch cssl_error_want(ssl, rc) {
        case 1: errno = EAGAIN
        case 2: return 0
        // A socket error, or the peer's close without close_notify (errno 0): the end of the stream.
        case 3: if errno == 0 { return 0 }
        default: errno = EPROTO
        }
        return -1
    }

    /// Writes all of `bytes`; `more` when the request goes on (its body follows the head). Over TLS
    /// the records collect in the session's write buffer, which goes out when it is full and at the
    /// end of the request.
    private func sendAll(_ bytes: UnsafeRawBufferPointer, more: Bool) throws {
        var done = 0
        let flags = Int32(MSG_NOSIGNAL) | (more ? Int32(MSG_MORE) : 0)
        while let base = bytes.baseAddress, done < bytes.count {
            let n = write(base + done, bytes.count - done, flags: flags)
            if n < 0 {
                if errno == EINTR { continue }
                throw failure("sending to", timedOut: "\(host):\(port) accepted no bytes for \(Int(timeout)) s")
            }
            done += n
        }
        if !more, let ssl, cssl_flush(ssl) != 1 {
            throw failure("sending to", timedOut: "\(host):\(port) accepted no bytes for \(Int(timeout)) s")
        }
    }

    /// The error of a `read` or `write` that failed with `errno` set (not EINTR): `timedOut` when
    /// the socket's timeout passed, else the connection's failure while `doing` ("reading from").
    private func failure(_ doing: String, timedOut: String) -> HTTPClientError {
        if errno == EAGAIN || errno == EWOULDBLOCK { return HTTPClientError(status: 0, code: "timeout", message: timedOut) }
        return HTTPClientError(
            status: 0, code: "connection_failed", message: "\(doing) \(host):\(port): \(String(cString: strerror(errno)))")
    }

    /// Reads more bytes into `buffer`; returns false at end of stream.
    private func fill(_ buffer: inout [UInt8]) throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { read($0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw failure("reading from", timedOut: "no answer from \(host):\(port) within \(Int(timeout)) s")
            }
            if n == 0 { return false }
            buffer.append(contentsOf: chunk[0..<n])
            if buffer.count > Self.maxResponseBytes + 64 * 1024 {
                throw HTTPClientError(
                    status: 0, code: "invalid_response", message: "\(host):\(port) sent a response over \(Self.maxResponseBytes) bytes")
            }
            return true
        }
    }

    /// Parses one response: status line, headers, then a Content-Length, chunked or until-close body.
    private func readResponse() throws -> (HTTPClientResponse, keepAlive: Bool) {
        var buffer = [UInt8]()
        let terminator: [UInt8] = [13, 10, 13, 10]
        var headerEnd: Int?
        while headerEnd == nil {
            let before = buffer.count
            let more: Bool
            do { more = try fill(&buffer) } catch let e as HTTPClientError where buffer.isEmpty && e.code == "connection_failed" {
                throw Stale(underlying: e)
            }
            guard more else {
                let e = HTTPClientError(
                    status: 0, code: "connection_failed", message: "\(host):\(port) closed the connection without an answer")
                if buffer.isEmpty { throw Stale(underlying: e) }
                throw e
            }
            let from = max(0, before - 3)
            if buffer.count >= 4 {
                for i in from...(buffer.count - 4) where buffer[i] == 13 && Array(buffer[i..<(i + 4)]) == terminator {
                    headerEnd = i
                    break
                }
            }
        }
        guard let end = headerEnd else { throw HTTPClientError(status: 0, code: "invalid_response", message: "no response header") }
        let text = String(decoding: buffer[0..<end], as: UTF8.self)
        var lines = text.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw HTTPClientError(
                status: 0, code: "invalid_response", message: "bad status line from \(host):\(port): \(statusLine.prefix(100))")
        }
        var headers = HTTPHeaders()
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.add(
                String(line[..<colon]).trimmingCharacters(in: .whitespaces),
                String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
        }
        var keepAlive = parts[0] == "HTTP/1.1"
        if let c = headers["Connection"]?.lowercased() { keepAlive = c.contains("keep-alive") || (keepAlive && !c.contains("close")) }
        var rest = Array(buffer[(end + 4)...])
        let body: [UInt8]
        if headers["Transfer-Encoding"]?.lowercased().contains("chunked") == true {
            body = try readChunked(&rest)
        } else if let cl = headers["Content-Length"], let length = Int(cl), length >= 0 {
            guard length <= Self.maxResponseBytes else {
                throw HTTPClientError(status: 0, code: "invalid_response", message: "\(host):\(port) announced a \(length)-byte response")
            }
            // Straight into the response's storage: bodies here are up to a few MiB (block batches).
            // Not `Data(count:)`, which zeroes every byte first (3 % of a download's CPU), and from
            // the pool, which a released body goes back to (see `BufferPool`).
            guard let (base, capacity) = BufferPool.shared.take(length) else {
                throw HTTPClientError(status: 0, code: "invalid_response", message: "no memory for a \(length)-byte response")
            }
            var handedOver = false
            defer { if !handedOver { BufferPool.shared.give(base, capacity: capacity) } }
            let already = min(rest.count, length)
            rest.withUnsafeBytes { if already > 0, let src = $0.baseAddress { base.copyMemory(from: src, byteCount: already) } }
            var got = already
            while got < length {
                let n = read(base + got, length - got)
                if n < 0 {
                    if errno == EINTR { continue }
                    if errno == EAGAIN || errno == EWOULDBLOCK {
                        throw HTTPClientError(
                            status: 0, code: "timeout", message: "no answer from \(host):\(port) within \(Int(timeout)) s")
                    }
                    throw HTTPClientError(
                        status: 0, code: "connection_failed",
                        message: "reading from \(host):\(port): \(String(cString: strerror(errno)))")
                }
                if n == 0 {
                    throw HTTPClientError(
                        status: 0, code: "connection_failed", message: "\(host):\(port) closed the connection mid-response")
                }
                got += n
            }
            handedOver = true
            let data = Data(
                bytesNoCopy: base, count: length, deallocator: .custom { p, _ in BufferPool.shared.give(p, capacity: capacity) })
            return (HTTPClientResponse(status: status, headers: headers, body: data), keepAlive)
        } else {
            while try fill(&rest) {}
            body = rest
            keepAlive = false
        }
        return (HTTPClientResponse(status: status, headers: headers, body: Data(body)), keepAlive)
    }

    private func readChunked(_ rest: inout [UInt8]) throws -> [UInt8] {
        var body = [UInt8]()
        var at = 0
        func line() throws -> String {
            while true {
                if let i = rest[at...].firstIndex(of: 10) {
                    let s = String(decoding: rest[at..<i], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                    at = i + 1
                    return s
                }
                guard try fill(&rest) else {
                    throw HTTPClientError(
                        status: 0, code: "connection_failed", message: "\(host):\(port) closed the connection mid-response")
                }
            }
        }
        while true {
            let sizeText = try line().split(separator: ";").first.map(String.init) ?? ""
            // A hostile size (up to Int.max) must not overflow: compare against what is left.
            guard let size = Int(sizeText, radix: 16), size >= 0, size <= Self.maxResponseBytes - body.count else {
                throw HTTPClientError(status: 0, code: "invalid_response", message: "bad chunk size from \(host):\(port)")
            }
            if size == 0 {
                while try !line().isEmpty {}
                return body
            }
            while rest.count < at + size + 2 {
                guard try fill(&rest) else {
                    throw HTTPClientError(
                        status: 0, code: "connection_failed", message: "\(host):\(port) closed the connection mid-response")
                }
            }
            body.append(contentsOf: rest[at..<(at + size)])
            at += size + 2
        }
    }
}

/// Hands a request body to the connection's queue exactly once.
private final class BodyBox<Body: Sendable>: @unchecked Sendable {
    // @unchecked: `body` is taken once, on the connection's queue, before the continuation resumes.
    private var body: Body?
    init(_ body: Body) { self.body = body }
    func take() -> Body? {
        defer { body = nil }
        return body
    }
}
