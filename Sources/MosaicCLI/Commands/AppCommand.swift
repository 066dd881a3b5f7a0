import Foundation
import MosaicApp
import MosaicProtocol

/// `mosaic app`: the web app on 127.0.0.1 over this home's keystore and networks.
enum AppCommand {
    static let command = Command(
        name: "app", summary: "serve the web app (Home, Bolt, Vult) on 127.0.0.1",
        discussion: """
            The keystore stays in this process; the browser never receives a private key. The app answers only
            requests addressed to 127.0.0.1:PORT or localhost:PORT (a page on another site that rebinds its
            name to this computer gets 421); --allow-host adds a name, e.g. one a local proxy uses.
            """,
        examples: ["mosaic app", "mosaic app --port 7300 --network devnet", "mosaic app --allow-host mosaic.local"],
        options: Options.self,
        action: { o, inv in
            let signals = TerminationSignal()
            var config = AppServer.Configuration(home: inv.home, network: inv.global.network)
            let listen = try o.server.resolve(defaultPort: 7300)
            config.host = listen.host
            config.port = listen.port
            config.tls = listen.tls
            config.allowedHosts = o.allowHost
            let app = try AppServer(configuration: config)
            try app.start()
            if inv.json {
                Console.out(JSONValue.object([("app", .string(app.baseURL.absoluteString))]).rendered() + "\n")
            } else {
                Console.out("Mosaic web app: \(app.baseURL.absoluteString)\nPress Ctrl-C to stop.\n")
            }
            _ = await signals.wait()
            signals.restoreDefaults()
            await app.stop()
            return CommandOutput(text: "", json: .object([("stopped", .bool(true))]))
        })

    struct Options: CommandOptions {
        var server = ListenOptions()
        @Option("allow-host", "NAME", help: "another host name the app answers to (repeat for more)") var allowHost: [String]
    }
}
