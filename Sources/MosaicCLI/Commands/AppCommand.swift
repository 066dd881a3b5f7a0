import Foundation
import MosaicApp

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
        flags: [
            .option("allow-host", "NAME", "another host name the app answers to (repeat for more)", repeatable: true)
        ] + ServerFlags.flags(defaultPort: 7300, publicURL: false),
        action: { inv in
            let signals = TerminationSignal()
            var config = AppServer.Configuration(home: inv.home, network: inv.value("network"))
            let listen = try ServerFlags(inv, defaultPort: 7300)
            config.host = listen.host
            config.port = listen.port
            config.tls = listen.tls
            config.allowedHosts = inv.all("allow-host")
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

}
