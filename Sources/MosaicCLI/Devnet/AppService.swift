import Foundation
import MosaicApp
import Synchronization

/// The web app as a devnet service: serves this home's keystore against the "devnet" network.
final class AppService: DevnetService {
    let role = DevnetRole.app
    let name = "app"
    let home: URL
    let port: UInt16?
    let logRequests: Bool
    private let server = Mutex<AppServer?>(nil)

    /// `port` nil tries 7300 and falls back to any free port.
    init(home: URL, port: UInt16?, logRequests: Bool) {
        self.home = home
        self.port = port
        self.logRequests = logRequests
    }

    static let defaultPort: UInt16 = 7300

    /// The app reads the nodes from the client config's "devnet" network (`fallback_nodes` too).
    func start(nodes: [URL], directory: URL) async throws -> URL {
        var config = AppServer.Configuration(home: home, network: "devnet")
        config.logRequests = logRequests
        config.port = port ?? AppService.defaultPort
        var app = try AppServer(configuration: config)
        do {
            try app.start()
        } catch  where port == nil {
            config.port = 0
            app = try AppServer(configuration: config)
            try app.start()
        }
        server.withLock { $0 = app }
        return app.baseURL
    }

    func stop() async {
        if let app = server.withLock({ s -> AppServer? in
            defer { s = nil }
            return s
        }) {
            await app.stop()
        }
    }
}
