import CMicroHTTPD
import Foundation
import MosaicHTTP
import Synchronization

/// Receives one access-log line per request (or an error report).
public typealias HTTPLogger = @Sendable (String) -> Void

/// An HTTP/1.1 server over libmicrohttpd: a poll-mode thread pool (MHD's epoll loop stalls at
/// 128 busy connections), async handlers through suspend/resume, JSON errors everywhere.
/// Register routes, then `start()`; `stop()` drains in-flight requests.
/// `@unchecked Sendable`: MHD calls in from its threads; all mutable state is behind Mutexes.
package final class HTTPServer: @unchecked Sendable {
    public struct Configuration: Sendable {
        /// IPv4 or IPv6 address to bind ("::" is every address of both); loopback unless the
        /// process is meant to be reachable.
        public var host = "127.0.0.1"
        /// 0 picks a free port; read it back from `port`.
        public var port: UInt16 = 0
        public var threads = 2
        /// Seconds a connection may sit idle (between keep-alive requests, or stalled mid-request)
        /// before MHD closes it (`MHD_OPTION_CONNECTION_TIMEOUT`); 0 turns the timeout off.
        public var connectionTimeout = 30
        /// Connections open at once, over all clients (`MHD_OPTION_CONNECTION_LIMIT`).
        public var connectionLimit = 4096
        /// Connections open at once from one IP address (`MHD_OPTION_PER_IP_CONNECTION_LIMIT`), so one
        /// slow or idle client cannot hold every slot; 0 means no per-IP limit.
        public var perIPConnectionLimit = 256
        /// Code of the 400 answered when a declared parameter does not check (the node says `malformed`).
        public var parameterErrorCode = "invalid_parameter"
        /// Per-connection buffer; also the largest body chunk a handler receives.
        public var connectionMemory = 256 * 1024
        /// Access log and error reports; nil keeps tests quiet.
        public var logger: HTTPLogger? = HTTPServer.standardErrorLogger
        /// `info` of the served OpenAPI document.
        public var title = "Mosaic API"
        public var version = "0.1.0"
        /// Runs for every request as soon as its headers are in, before routing (the web app's
        /// Host check against DNS rebinding); the `HTTPError` it throws is the answer.
        public var admit: (@Sendable (HTTPRequest) throws -> Void)?
        /// Server-side paths (data folders, the temp folder) no client may see: every error body
        /// has each of them replaced by its placeholder, e.g. `["/srv/blobber": "$BLOBBER_DIR"]`.
        public var privatePaths: [String: String] = [:]
        /// Serve HTTPS with this certificate and key (MHD's GnuTLS); nil serves plain HTTP.
        public var tls: TLSCredentials?
        /// The GnuTLS priority string of the HTTPS server: which TLS versions and ciphers it takes,
        /// in its own order of preference.
        public var tlsPriorities = HTTPServer.defaultTLSPriorities
        public init() {}
    }

    /// TLS 1.3 and 1.2 only (GnuTLS's NORMAL also takes 1.0 and 1.1), AEAD ciphers only, key
    /// exchange with forward secrecy only (no static RSA), and AES-128-GCM first, chosen by the
    /// server whatever the client's order (%SERVER_PRECEDENCE): on this project's hosts GnuTLS and
    /// libssl both run it on AES-NI, and it costs 10 rounds a block against AES-256's 14, which
    /// matters when every fragment byte is encrypted once and decrypted once (docs/PERFORMANCE.md).
    /// AES-128-GCM is TLS 1.3's mandatory suite; 256-bit keys and ChaCha20-Poly1305 stay offered.
    public static let defaultTLSPriorities =
        "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2:-CIPHER-ALL:+AES-128-GCM:+AES-256-GCM:+CHACHA20-POLY1305:-RSA:%SERVER_PRECEDENCE"

    /// Default body limit of buffered routes.
    public static let defaultBodyLimit: Int64 = 1 << 20

    public static let standardErrorLogger: HTTPLogger = { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    public let configuration: Configuration
    private let routes = Mutex<[Route]>([])
    private let active = Mutex<[ObjectIdentifier: RequestContext]>([:])
    private struct Running {
        var daemon: OpaquePointer?
        var port: UInt16 = 0
        var stopping = false
        var retained: Unmanaged<HTTPServer>?
        /// The PEM texts and the priority string handed to MHD, kept until the daemon stops.
        var pem: [UnsafeMutablePointer<CChar>] = []
    }
    private let running = Mutex(Running())
    private let redaction: PathRedaction
    /// The request figures `/metrics` serves.
    package let metrics = HTTPMetrics()
    private let metricSources = Mutex<[@Sendable () -> [Metric]]>([])

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        redaction = PathRedaction(configuration.privatePaths)
        route(.get, "/openapi.json", summary: "This API's OpenAPI 3.1 description") { [unowned self] _ in
            HTTPResponse(status: 200, body: self.openAPIDocument(), contentType: "application/json")
        }
        route(
            .get, "/metrics", summary: "Request, error, latency and traffic figures in the Prometheus text format",
            description:
                "For a Prometheus scraper (docs/DEPLOY.md, what to monitor); series are labelled by route pattern, never by raw path.",
            response: "Prometheus text exposition 0.0.4"
        ) { [unowned self] _ in
            HTTPResponse(status: 200, body: Data(self.metricsText().utf8), contentType: "text/plain; version=0.0.4; charset=utf-8")
        }
    }

    /// Adds families to `/metrics` (a node's blocks and pool, a blobber's challenges); `source`
    /// runs on every scrape, so it must be quick.
    package func addMetrics(_ source: @escaping @Sendable () -> [Metric]) {
        metricSources.withLock { $0.append(source) }
    }

    /// The whole `/metrics` text: the server's request figures, then each added source's.
    package func metricsText() -> String {
        let inFlight = active.withLock { $0.count }
        let sources = metricSources.withLock { $0 }
        return (metrics.families(inFlight: inFlight) + sources.flatMap { $0() }).map(\.text).joined()
    }

    // MARK: routes

    /// Registers a handler whose body (at most `bodyLimit` bytes, else 413) is read into `request.body`.
    /// `path` may contain `:name` segments. The declared `parameters` are checked before the
    /// handler runs (a bad value is a 400 naming it and its bounds) and read with `request[p]`.
    /// `body`, `statuses` (the success statuses really returned), `response` and `errors` (client
    /// errors beyond 400/404/405/413) feed `/openapi.json`.
    public func route(
        _ method: HTTPMethod, _ path: String, summary: String, description: String? = nil,
        parameters: [any RouteParameter] = [], body: RequestBody? = nil,
        statuses: [Int] = [200], response: String? = nil, errors: [Int] = [],
        bodyLimit: Int64 = HTTPServer.defaultBodyLimit,
        handler: @escaping @Sendable (HTTPRequest) async throws -> HTTPResponse
    ) {
        add(
            method, path, docs: (summary, description, parameters, body, statuses, response, errors), mode: .buffered(limit: bodyLimit),
            precheck: nil
        ) { req, _ in try await handler(req) }
    }

    /// Registers a handler that receives the body in chunks while it arrives (bounded memory);
    /// a body shorter than its Content-Length makes the stream throw `HTTPError.bodyTruncated`.
    /// `precheck` runs on the server thread as soon as the headers are in (keep it quick): an error
    /// it throws is answered before any body byte is read. MHD cannot answer in the middle of a
    /// body, so when the handler itself fails early the rest of the body is read and discarded first.
    /// Parameters are declared and checked as for `route`.
    public func streamingRoute(
        _ method: HTTPMethod, _ path: String, summary: String, description: String? = nil,
        parameters: [any RouteParameter] = [], body: RequestBody = .binary(),
        statuses: [Int] = [200], response: String? = nil, errors: [Int] = [],
        bodyLimit: Int64? = nil,
        precheck: (@Sendable (HTTPRequest) throws -> Void)? = nil,
        handler: @escaping @Sendable (HTTPRequest, RequestBodyStream) async throws -> HTTPResponse
    ) {
        add(
            method, path, docs: (summary, description, parameters, body, statuses, response, errors), mode: .streaming(limit: bodyLimit),
            precheck: precheck
        ) { req, stream in
            guard let stream else { throw HTTPError.internalError("missing body stream") }
            return try await handler(req, stream)
        }
    }

    /// What `route` and `streamingRoute` declare for `/openapi.json`, in their order.
    private typealias RouteDeclaration = (
        summary: String, description: String?, parameters: [any RouteParameter], body: RequestBody?, statuses: [Int],
        response: String?, errors: [Int]
    )

    private func add(
        _ method: HTTPMethod, _ path: String, docs d: RouteDeclaration, mode: BodyMode,
        precheck: (@Sendable (HTTPRequest) throws -> Void)?,
        handler: @escaping @Sendable (HTTPRequest, RequestBodyStream?) async throws -> HTTPResponse
    ) {
        let (segments, docs) = Route.describe(
            path, summary: d.summary, description: d.description, parameters: d.parameters, body: d.body, statuses: d.statuses,
            response: d.response, errors: d.errors)
        add(Route(method: method, pattern: path, segments: segments, docs: docs, body: mode, precheck: precheck, handler: handler))
    }

    private func add(_ r: Route) {
        routes.withLock { list in
            list.removeAll { $0.method == r.method && $0.segments == r.segments }
            list.append(r)
        }
    }

    /// The OpenAPI 3.1 document for the routes registered so far.
    public func openAPIDocument() -> Data {
        let list = routes.withLock { $0 }
        return OpenAPIDocument.build(title: configuration.title, version: configuration.version, routes: list)
    }

    // MARK: lifecycle

    /// The bound port (useful with port 0); 0 before `start()`.
    public var port: UInt16 { running.withLock { $0.port } }

    /// `http://host:port` (`https://` with TLS) of the running server.
    public var baseURL: URL {
        // A server on every address is reached on loopback; an IPv6 address goes in brackets.
        let host =
            switch configuration.host {
            case "0.0.0.0": "127.0.0.1"
            case "::": "[::1]"
            case let h where h.contains(":"): "[\(h)]"
            case let h: h
            }
        let scheme = configuration.tls == nil ? "http" : "https"
        return URL(string: "\(scheme)://\(host):\(port)") ?? URL(fileURLWithPath: "/")
    }

    /// Binds and starts the MHD worker threads. The server keeps itself alive until `stop()`.
    public func start() throws {
        try running.withLock { r in
            guard r.daemon == nil else { return }
            let flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_POLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
            let me = Unmanaged.passRetained(self)
            let cfg = configuration
            let key = cfg.tls.flatMap { strdup($0.keyPEM) }
            let cert = cfg.tls.flatMap { strdup($0.certificatePEM) }
            let priorities = cfg.tls == nil ? nil : strdup(cfg.tlsPriorities)
            let d = cmhd_start_host(
                flags, cfg.host, cfg.port, UInt32(clamping: max(1, cfg.threads)), UInt32(clamping: max(0, cfg.connectionTimeout)),
                UInt32(clamping: max(1, cfg.connectionLimit)), UInt32(clamping: max(0, cfg.perIPConnectionLimit)),
                max(16 * 1024, cfg.connectionMemory), key, cert, priorities,
                { cls, conn, url, method, _, upload, uploadSize, conCls in
                    guard let cls, let conn, let conCls else { return .NO }
                    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
                    return server.access(conn, url, method, upload, uploadSize, conCls)
                }, me.toOpaque(),
                { cls, _, conCls, toe in
                    guard let cls, let conCls, let p = conCls.pointee else { return }
                    conCls.pointee = nil
                    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
                    let ctx = Unmanaged<RequestContext>.fromOpaque(p).takeRetainedValue()
                    server.complete(ctx, ok: toe == .REQUEST_TERMINATED_COMPLETED_OK)
                }, me.toOpaque())
            r.pem = [key, cert, priorities].compactMap { $0 }
            guard let d else {
                me.release()
                for p in r.pem { free(p) }
                r.pem = []
                let what = cfg.tls == nil ? "" : " with TLS (is the key the certificate's, both PEM? the priority string valid?)"
                throw HTTPError(status: 500, code: "server_start_failed", message: "cannot listen on \(cfg.host):\(cfg.port)\(what)")
            }
            r.daemon = d
            r.port = cmhd_bound_port(d)
            r.retained = me
            r.stopping = false
        }
    }

    /// Stops accepting, lets in-flight requests finish for up to `grace`, then closes everything.
    public func stop(grace: Duration = .seconds(5)) async {
        let taken: (OpaquePointer, Unmanaged<HTTPServer>?)? = running.withLock { r in
            guard let d = r.daemon, !r.stopping else { return nil }
            r.stopping = true
            return (d, r.retained)
        }
        guard let (daemon, retained) = taken else { return }
        let listenFD = MHD_quiesce_daemon(daemon)
        let deadline = ContinuousClock.now + grace
        while ContinuousClock.now < deadline, !active.withLock({ $0.isEmpty }) {
            try? await Task.sleep(for: .milliseconds(10))
        }
        for ctx in active.withLock({ Array($0.values) }) {
            ctx.resumeIfSuspended { $0.stopping = true }
            ctx.stream?.fail(.unavailable("server stopping"))
        }
        MHD_stop_daemon(daemon)
        if listenFD >= 0 { close(listenFD) }
        running.withLock { r in
            r.daemon = nil
            r.retained = nil
            for p in r.pem { free(p) }
            r.pem = []
        }
        retained?.release()
    }

    // MARK: MHD callbacks

    private final class Collector {
        var headers = HTTPHeaders()
        var query: [String: String] = [:]
    }

    private func values(_ conn: OpaquePointer) -> Collector {
        let c = Collector()
        let p = Unmanaged.passUnretained(c).toOpaque()
        _ = MHD_get_connection_values(
            conn, .HEADER_KIND,
            { cls, _, key, value in
                guard let cls, let key else { return .YES }
                let c = Unmanaged<Collector>.fromOpaque(cls).takeUnretainedValue()
                c.headers.add(String(cString: key), value.map { String(cString: $0) } ?? "")
                return .YES
            }, p)
        _ = MHD_get_connection_values(
            conn, .GET_ARGUMENT_KIND,
            { cls, _, key, value in
                guard let cls, let key else { return .YES }
                let c = Unmanaged<Collector>.fromOpaque(cls).takeUnretainedValue()
                c.query[String(cString: key)] = value.map { String(cString: $0) } ?? ""
                return .YES
            }, p)
        return c
    }

    fileprivate func access(
        _ conn: OpaquePointer, _ url: UnsafePointer<CChar>?, _ method: UnsafePointer<CChar>?,
        _ upload: UnsafePointer<CChar>?, _ uploadSize: UnsafeMutablePointer<Int>?,
        _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        if let p = conCls.pointee {
            let ctx = Unmanaged<RequestContext>.fromOpaque(p).takeUnretainedValue()
            return proceed(ctx, upload, uploadSize)
        }
        let ctx = RequestContext(
            connection: conn, method: method.map { String(cString: $0) } ?? "",
            path: url.map { String(cString: $0) } ?? "/")
        conCls.pointee = Unmanaged.passRetained(ctx).toOpaque()
        active.withLock { $0[ObjectIdentifier(ctx)] = ctx }
        if running.withLock({ $0.stopping }) {
            var r = HTTPError.unavailable("server stopping").response
            r.headers["Connection"] = "close"
            return queue(ctx, r)
        }
        if let admit = configuration.admit {
            let v = values(conn)
            do {
                try admit(
                    HTTPRequest(method: HTTPMethod(rawValue: ctx.method) ?? .options, path: ctx.path, query: v.query, headers: v.headers))
            } catch let e as HTTPError {
                return queue(ctx, e.response)
            } catch {
                return queue(ctx, HTTPError.badRequest("request refused").response)
            }
        }
        let table = routes.withLock { $0 }
        guard let m = HTTPMethod(rawValue: ctx.method) else {
            if case .methodNotAllowed(let allowed) = table.lookup(method: .options, path: ctx.path) {
                return queue(ctx, HTTPError.methodNotAllowed(allowed: allowed).response)
            }
            return queue(
                ctx,
                table.lookup(method: .get, path: ctx.path).isNotFound
                    ? HTTPError.notFound("no route for \(ctx.path)").response
                    : HTTPError(status: 405, code: "method_not_allowed", message: "method \(ctx.method) not allowed").response)
        }
        switch table.lookup(method: m, path: ctx.path) {
        case .notFound:
            return queue(ctx, HTTPError.notFound("no route for \(ctx.path)").response)
        case .methodNotAllowed(let allowed):
            return queue(ctx, HTTPError.methodNotAllowed(allowed: allowed).response)
        case .found(let route, let params):
            let v = values(conn)
            var declared: Int64?
            if let cl = v.headers["Content-Length"] {
                guard let n = Int64(cl.trimmingCharacters(in: .whitespaces)), n >= 0 else {
                    return queue(ctx, HTTPError.badRequest("invalid Content-Length").response)
                }
                declared = n
            }
            var address = [CChar](repeating: 0, count: 64)
            cmhd_client_address(conn, &address, address.count)
            let remoteAddress = String(decoding: address.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            var checked: [String: ParameterValue] = [:]
            let unchecked = HTTPRequest(method: m, path: ctx.path, params: params, query: v.query, headers: v.headers)
            for spec in route.docs.parameters {
                do {
                    if let value = try spec.check(unchecked.raw(spec), errorCode: configuration.parameterErrorCode) {
                        checked[HTTPRequest.key(spec)] = value
                    }
                } catch {
                    return queue(ctx, error.response)
                }
            }
            let request = HTTPRequest(
                method: m, path: ctx.path, params: params, query: v.query, headers: v.headers, values: checked,
                remoteAddress: remoteAddress)
            ctx.route = route
            ctx.request = request
            switch route.body {
            case .buffered(let limit):
                if let declared, declared > limit { return queue(ctx, HTTPError.payloadTooLarge(limit: limit).response) }
                ctx.bodyLimit = limit
                if let declared, declared > 0, let n = Int(exactly: declared) { ctx.body.reserveCapacity(n) }
            case .streaming(let limit):
                if let declared, let limit, declared > limit { return queue(ctx, HTTPError.payloadTooLarge(limit: limit).response) }
                if let precheck = route.precheck {
                    do {
                        try precheck(request)
                    } catch let e as HTTPError {
                        return queue(ctx, e.response)
                    } catch {
                        configuration.logger?("error: precheck \(ctx.method) \(ctx.path): \(String(reflecting: error))")
                        return queue(ctx, HTTPError.internalError().response)
                    }
                }
                let stream = RequestBodyStream(
                    expectedLength: declared, limit: limit, highWater: max(1 << 20, 4 * configuration.connectionMemory),
                    pause: { [weak ctx] in ctx?.shared.withLock { s in ctx?.suspend(&s) } },
                    unpause: { [weak ctx] in ctx?.resumeIfSuspended() })
                ctx.stream = stream
                ctx.shared.withLock { $0.taskStarted = true }
                startHandler(ctx, route, request, stream)
            }
            return .YES
        }
    }

    /// Body chunks and the final call of one request.
    private func proceed(_ ctx: RequestContext, _ upload: UnsafePointer<CChar>?, _ uploadSize: UnsafeMutablePointer<Int>?) -> MHD_Result {
        if ctx.shared.withLock({ $0.stopping }) { return .NO }
        if let uploadSize, uploadSize.pointee > 0 {
            let n = uploadSize.pointee
            uploadSize.pointee = 0
            ctx.bytesIn &+= Int64(n)
            guard !ctx.responded, let upload else { return .YES }
            if let stream = ctx.stream {
                stream.push(UnsafeRawBufferPointer(start: upload, count: n))
            } else if !ctx.tooLarge {
                let (total, overflow) = ctx.body.count.addingReportingOverflow(n)
                if overflow || Int64(total) > ctx.bodyLimit {
                    ctx.tooLarge = true
                    ctx.body = Data()
                } else {
                    UnsafeRawPointer(upload).withMemoryRebound(to: UInt8.self, capacity: n) { ctx.body.append($0, count: n) }
                }
            }
            return .YES
        }
        if ctx.responded { return .YES }
        if ctx.tooLarge { return queue(ctx, HTTPError.payloadTooLarge(limit: ctx.bodyLimit).response) }
        ctx.stream?.finish()
        return ctx.shared.withLock { s -> MHD_Result in
            if let r = s.response {
                s.response = nil
                return queue(ctx, r)
            }
            if !s.taskStarted {
                guard let route = ctx.route, let req = ctx.request else {
                    return queue(ctx, HTTPError.internalError().response)
                }
                s.taskStarted = true
                let full = HTTPRequest(
                    method: req.method, path: req.path, params: req.params, query: req.query,
                    headers: req.headers, body: ctx.body, values: req.values, remoteAddress: req.remoteAddress)
                ctx.body = Data()
                startHandler(ctx, route, full, nil)
            }
            ctx.suspend(&s)
            return .YES
        }
    }

    private func startHandler(_ ctx: RequestContext, _ route: Route, _ request: HTTPRequest, _ stream: RequestBodyStream?) {
        Task {
            let response = await self.run(route, request, stream)
            ctx.deliver(response)
        }
    }

    /// Runs a handler; any error becomes a JSON error response, never a crash.
    private func run(_ route: Route, _ request: HTTPRequest, _ stream: RequestBodyStream?) async -> HTTPResponse {
        do {
            return try await route.handler(request, stream)
        } catch let e as HTTPError {
            return e.response
        } catch {
            configuration.logger?("error: \(request.method.rawValue) \(request.path): \(String(reflecting: error))")
            return HTTPError.internalError().response
        }
    }

    /// Hands a response to MHD; only valid inside the access handler.
    private func queue(_ ctx: RequestContext, _ unredacted: HTTPResponse) -> MHD_Result {
        let response = redaction.apply(unredacted)
        let mhd: OpaquePointer?
        switch response.body {
        case .data(let data):
            ctx.bytes = Int64(data.count)
            mhd = data.withUnsafeBytes { raw -> OpaquePointer? in
                var empty: UInt8 = 0
                guard let base = raw.baseAddress, !data.isEmpty else {
                    return MHD_create_response_from_buffer(0, &empty, .RESPMEM_MUST_COPY)
                }
                return MHD_create_response_from_buffer(data.count, UnsafeMutableRawPointer(mutating: base), .RESPMEM_MUST_COPY)
            }
        case .buffer(let buffer):
            ctx.bytes = Int64(buffer.count)
            // MHD keeps the pointer until it destroys the response, then calls back to release the buffer.
            let owner = Unmanaged.passRetained(buffer)
            mhd = MHD_create_response_from_buffer_with_free_callback_cls(
                buffer.count, buffer.base,
                { cls in if let cls { Unmanaged<ResponseBuffer>.fromOpaque(cls).release() } },
                owner.toOpaque())
            if mhd == nil { owner.release() }
        case .stream(let length, let producer):
            let box = StreamProducer(producer)
            let logger = configuration.logger
            let what = "\(ctx.method) \(ctx.path)"
            box.onError = { error in logger?("error: streaming \(what): \(String(reflecting: error))") }
            ctx.producer = box
            mhd = MHD_create_response_from_callback(
                length.flatMap { UInt64(exactly: $0) } ?? UInt64.max, 64 * 1024,
                { cls, _, buf, max in
                    guard let cls, let buf else { return -2 }
                    return Unmanaged<StreamProducer>.fromOpaque(cls).takeUnretainedValue().fill(buf, max)
                },
                Unmanaged.passRetained(box).toOpaque(),
                { cls in if let cls { Unmanaged<StreamProducer>.fromOpaque(cls).release() } })
        case .file(let file):
            let fd = file.take()
            ctx.bytes = file.length
            if fd >= 0, let length = UInt64(exactly: file.length), let offset = UInt64(exactly: file.offset) {
                mhd = MHD_create_response_from_fd_at_offset64(length, fd, offset)
            } else {
                mhd = nil
            }
            if mhd == nil, fd >= 0 { close(fd) }
        }
        guard let mhd else {
            ctx.responded = true
            return .NO
        }
        for (name, value) in response.headers where name.lowercased() != "content-length" {
            _ = MHD_add_response_header(mhd, name, value)
        }
        // A handler bug must not crash the server: an impossible status is reported as 500.
        let status = (100...599).contains(response.status) ? response.status : 500
        ctx.status = status
        ctx.responded = true
        let result = MHD_queue_response(ctx.connection, UInt32(clamping: status), mhd)
        MHD_destroy_response(mhd)
        return result
    }

    fileprivate func complete(_ ctx: RequestContext, ok: Bool) {
        ctx.shared.withLock { $0.closed = true }
        ctx.stream?.fail(.bodyTruncated)
        active.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(ctx)) }
        var status = ctx.status
        if !ctx.responded, ctx.stream != nil { status = 400 }
        let bytes = ctx.producer?.sent ?? ctx.bytes
        let elapsed = ContinuousClock.now - ctx.started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        metrics.record(
            method: ctx.method, route: ctx.route?.pattern, status: status, seconds: seconds, bytesIn: ctx.bytesIn, bytesOut: bytes,
            aborted: !ok)
        guard let log = configuration.logger else { return }
        let ms = seconds * 1000
        let note = ok ? "" : (status == 400 && !ctx.responded ? " body truncated" : " aborted")
        log("\(ctx.method) \(ctx.path) \(status) \(bytes)B \(String(format: "%.1f", ms))ms\(note)")
    }
}
