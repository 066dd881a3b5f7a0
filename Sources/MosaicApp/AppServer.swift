import Foundation
import MosaicCrypto
import MosaicHTTP
import MosaicHTTPServer
import MosaicSDK
import Synchronization

/// `mosaic app`: serves the web app's pages and its JSON API over the SDK. The keystore and
/// every private key stay in this process; the page only ever sees public data, except the
/// mnemonic once at creation and on an explicit, passphrase-checked reveal.
public final class AppServer: Sendable {
    public struct Configuration: Sendable {
        /// Mosaic home: keystore and network config.
        public var home: URL
        /// Network name from the config; nil means the current one.
        public var network: String?
        public var port: UInt16 = 0
        /// Address to bind (`--listen`); loopback by default: the app holds unlocked wallets.
        public var host = "127.0.0.1"
        /// Serve HTTPS with these (`--tls-cert`, `--tls-key`).
        public var tls: TLSCredentials?
        /// Idle time after which a session's wallet is locked.
        public var idleTimeout: TimeInterval = 15 * 60
        /// Argon2id cost for wallets created in the browser.
        public var kdf: KeystoreKDF = .moderate
        public var logRequests = true
        /// Where the access log goes (share tickets in it are shortened, see `AppLog`).
        public var logger: HTTPLogger = HTTPServer.standardErrorLogger
        /// Names besides 127.0.0.1 and localhost the app answers to (`--allow-host`), e.g. a
        /// reverse proxy's name; every other Host header gets 421 (DNS rebinding).
        public var allowedHosts: [String] = []
        /// Most sessions kept at once; the least recently used one without a wallet goes first.
        public var maxSessions = SessionStore.defaultMaxSessions
        /// Idle time after which a session is forgotten altogether (its keys released and zeroed);
        /// never less than `idleTimeout`.
        public var sessionIdleLimit: TimeInterval = SessionStore.defaultSessionIdleLimit
        /// The clock of sessions and unlock limits (tests move it on instead of waiting).
        var clock: @Sendable () -> Date = { Date() }

        public init(home: URL, network: String? = nil) {
            self.home = home
            self.network = network
        }
    }

    /// Cost of the passphrase hash for new wallets; `.fast` is for tests only.
    public enum KeystoreKDF: Sendable {
        case moderate
        case fast
    }

    public static let version = "0.1.0"

    let configuration: Configuration
    let sessions: SessionStore
    let server: HTTPServer
    let staticFiles: StaticFiles
    let networkState: NetworkState
    /// The shares made from this app, for the owner's list and revocation.
    let shareLog: ShareLog
    let unlockThrottle: UnlockThrottle
    /// Folder batches to one target folder go one at a time (`uploadBatch`).
    let batchQueue = CommitQueue()
    /// The Host values allowed, known once the port is bound.
    let hosts: HostAllowList
    private let sweeper = Mutex<Task<Void, Never>?>(nil)

    public init(configuration: Configuration) throws {
        self.configuration = configuration
        sessions = SessionStore(
            idleTimeout: configuration.idleTimeout, sessionIdleLimit: configuration.sessionIdleLimit,
            maxSessions: configuration.maxSessions, clock: configuration.clock)
        let clock = configuration.clock
        unlockThrottle = UnlockThrottle(clock: { clock().timeIntervalSince1970 })
        var http = HTTPServer.Configuration()
        http.port = configuration.port
        http.host = configuration.host
        http.tls = configuration.tls
        http.title = "Mosaic web app"
        http.version = AppServer.version
        let log = configuration.logger
        let redacting: HTTPLogger = { line in log(AppLog.redact(line)) }
        http.logger = configuration.logRequests ? redacting : nil
        let hosts = HostAllowList()
        http.admit = { (req: HTTPRequest) throws in try hosts.check(req) }
        http.privatePaths = AppServer.privatePaths(home: configuration.home)
        server = HTTPServer(configuration: http)
        self.hosts = hosts
        staticFiles = try StaticFiles.load()
        networkState = NetworkState(home: configuration.home, preferred: configuration.network)
        shareLog = ShareLog(home: configuration.home)
        registerStaticRoutes()
        registerSessionRoutes()
        registerNetworkRoutes()
        registerBoltRoutes()
        registerVultRoutes()
        registerShareRoutes()
        registerSharedWithMeRoutes()
        registerNotesRoutes()
        registerLockerRoutes()
        registerSocialRoutes()
        registerConsentRoutes()
    }

    public func start() throws {
        try server.start()
        hosts.set(
            RequestGuard.allowedHosts(port: server.port, listening: server.configuration.host, extra: configuration.allowedHosts),
            port: server.port)
        startSweeper()
    }

    public var baseURL: URL { server.baseURL }

    public func stop() async {
        sweeper.withLock {
            $0?.cancel()
            $0 = nil
        }
        await server.stop()
        sessions.removeAll()
    }

    /// Forgets idle sessions on a timer too, so an unlocked wallet nobody uses any more does not
    /// stay in memory until the next request happens to come.
    private func startSweeper() {
        let sessions = self.sessions
        let every = min(max(configuration.idleTimeout / 4, 0.05), 30)
        let task = Task.detached {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(Int(every * 1000)))
                sessions.sweep()
            }
        }
        sweeper.withLock { $0 = task }
    }

    /// Server-side folders no answer may show: the Mosaic home (keystore, spool files, journals,
    /// the locker's attempt log). Remote paths such as `/tmp/x` in an allocation are the user's own
    /// and stay as they are.
    static func privatePaths(home: URL) -> [String: String] {
        [home.path: "$MOSAIC_HOME"]
    }

    var keystore: Keystore {
        Keystore(home: configuration.home, kdfParameters: configuration.kdf == .fast ? .testing : .moderate)
    }

    private func registerStaticRoutes() {
        let files = staticFiles
        server.route(.get, "/", summary: "The web app") { _ in
            guard let f = files.files["index.html"] else { throw HTTPError.notFound() }
            return AppServer.secured(HTTPResponse(status: 200, body: f.data, contentType: f.contentType))
        }
        for (name, file) in files.files {
            server.route(.get, "/\(name)", summary: "Static file \(name)") { _ in
                AppServer.secured(HTTPResponse(status: 200, body: file.data, contentType: file.contentType))
            }
        }
    }

    /// Headers every answer carries: no inline script or style may run, no framing, no sniffing.
    static func secured(_ response: HTTPResponse, cache: Bool = false) -> HTTPResponse {
        var r = response
        r.headers.add(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data: blob:; script-src 'self'; style-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
        )
        r.headers.add("X-Content-Type-Options", "nosniff")
        r.headers.add("Referrer-Policy", "no-referrer")
        r.headers.add("X-Frame-Options", "DENY")
        if !cache { r.headers.add("Cache-Control", "no-store") }
        return r
    }
}
