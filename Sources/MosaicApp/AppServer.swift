import Foundation
import MosaicHTTP
import MosaicSDK

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
        /// Idle time after which a session's wallet is locked.
        public var idleTimeout: TimeInterval = 15 * 60
        /// Argon2id cost for wallets created in the browser.
        public var kdf: KeystoreKDF = .moderate
        public var logRequests = true

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

    public init(configuration: Configuration) throws {
        self.configuration = configuration
        sessions = SessionStore(idleTimeout: configuration.idleTimeout)
        var http = HTTPServer.Configuration()
        http.port = configuration.port
        http.title = "Mosaic web app"
        http.version = AppServer.version
        if !configuration.logRequests { http.logger = nil }
        server = HTTPServer(configuration: http)
        staticFiles = try StaticFiles.load()
        networkState = NetworkState(home: configuration.home, preferred: configuration.network)
        registerStaticRoutes()
        registerSessionRoutes()
        registerNetworkRoutes()
        registerBoltRoutes()
        registerVultRoutes()
        registerShareRoutes()
        registerLockerRoutes()
        registerSocialRoutes()
        registerConsentRoutes()
    }

    public func start() throws {
        try server.start()
    }

    public var baseURL: URL { server.baseURL }

    public func stop() async {
        await server.stop()
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
        r.headers.add("Content-Security-Policy",
                      "default-src 'self'; img-src 'self' data: blob:; script-src 'self'; style-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
        r.headers.add("X-Content-Type-Options", "nosniff")
        r.headers.add("Referrer-Policy", "no-referrer")
        r.headers.add("X-Frame-Options", "DENY")
        if !cache { r.headers.add("Cache-Control", "no-store") }
        return r
    }
}
