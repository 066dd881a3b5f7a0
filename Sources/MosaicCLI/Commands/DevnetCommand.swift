import Foundation
import MosaicProtocol
import MosaicSDK

/// `mosaic devnet`: a whole network in this process (one node, or several on a local PostgreSQL;
/// blobbers and the web app plug in as `DevnetService`s), registered as network "devnet" in the
/// client config.
enum DevnetCommand {
    static let command = Command(
        name: "devnet", summary: "run a local network (nodes, blobbers and the web app) until Ctrl-C",
        discussion: """
            Data lives under DIR (default $MOSAIC_HOME/devnet) and survives restarts. The network is saved
            as "devnet" in the client config and made current, so 'mosaic wallet …' works with no flags.
            With --json, one line {"node","nodes","app","blobbers","dir"} is printed once everything is ready.
            --db postgres keeps the chain in a PostgreSQL 15 server that the devnet makes in DIR/postgres
            (initdb, trust on loopback only), starts on a free port and stops when it stops; --nodes N
            (up to 5, PostgreSQL only) runs N nodes on it: one makes the blocks, any other takes over.
            Clients of the devnet (blobbers, the app, 'mosaic wallet') fail over between the nodes.
            Under root, PostgreSQL runs as the postgres user, which must be able to enter DIR.
            """,
        examples: [
            "mosaic devnet", "mosaic devnet --dir /tmp/dn --port 0 --block-time 500ms --json",
            "mosaic devnet --dir /tmp/dn --db postgres --nodes 3", "mosaic devnet time advance 7d",
        ],
        options: Options.self, subcommands: [time],
        action: { o, inv in try await run(o, inv) })

    struct Options: CommandOptions {
        @Option("dir", "DIR", help: "data folder (default $MOSAIC_HOME/devnet)") var dir: String?
        @Option("app-port", "P", help: "web app port (default 7300, or a free one if taken; 0 picks a free one)") var appPort: Port?
        @Flag("no-app", help: "do not start the web app") var noApp: Bool
        @Option("blobbers", "N", help: "blobbers to run in process, each registered before ready (default 6)")
        var blobbers = DevnetBlobbers(value: 6)
        @Option("port", "P", help: "node port on 127.0.0.1 (default 7100, or a free one if taken; 0 picks a free one); node K gets P+K-1")
        var port: Port?
        @Option("db", "sqlite|postgres", help: "where the chain lives: sqlite (default) or postgres (a local server in DIR/postgres)")
        var db: DevnetDatabaseOption?
        @Option("nodes", "N", help: "ledger nodes on the chain, 1 to 5 (default 1; more than one needs --db postgres)")
        var nodes = DevnetNodes(value: 1)
        @Option("block-time", "DURATION", help: "block interval: 0, 500ms, 1s, 2s (default 1s)") var blockTime: Interval?
        @Option("confirmations", "N", help: "blocks before a transaction is sealed (default 3)") var confirmations: Confirmations?
        @Flag("verbose", help: "log every request on standard error") var verbose: Bool
    }

    static let time = Command(
        name: "time", summary: "move the devnet's ledger clock",
        subcommands: [advance])

    static let advance = Command(
        name: "advance", summary: "move the ledger clock of the current devnet forward (faucet windows, expiry)",
        usage: "DURATION", examples: ["mosaic devnet time advance 7d", "mosaic devnet time advance 90m --network devnet"],
        arguments: ["DURATION"], minArguments: 1, maxArguments: 1,
        action: { inv in
            guard let ms = DurationText.milliseconds(inv.arguments[0]), ms >= 1000 else {
                throw CLIError.usage("'\(inv.arguments[0])' is not a duration; use e.g. 30s, 90m, 12h or 7d")
            }
            let network = try ClientConfig.load(home: inv.home).resolve(inv.global.network)
            let client = try LedgerClient(network: network)
            let clock: ClockView
            do { clock = try await client.advanceClock(seconds: ms / 1000) } catch let error as LedgerClientError {
                if case .notFound = error {
                    throw CLIError.failure(
                        "network \(network.name) does not allow moving its clock; only a node started by 'mosaic devnet' (or 'mosaic node --allow-time-travel') does"
                    )
                }
                throw error
            }
            return CommandOutput(
                text:
                    "ledger clock of \(network.name) moved forward by \(inv.arguments[0]); it is now \(Wallet.iso8601(clock.time)) (offset \(clock.offsetSeconds) s)",
                json: try .output(clock, before: [("network", .string(network.name))]))
        })

    static func run(_ o: Options, _ inv: Invocation) async throws -> CommandOutput {
        let signals = TerminationSignal()
        let dir =
            o.dir.map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? inv.home.appendingPathComponent("devnet", isDirectory: true)
        var options = Devnet.Options(directory: dir)
        options.port = o.port?.value
        options.database = o.db?.database ?? .sqlite
        options.nodes = o.nodes.value
        if options.nodes > 1, options.database != .postgres {
            throw CLIError.usage("--nodes \(options.nodes): several nodes share one chain only on PostgreSQL; add --db postgres")
        }
        if let bt = o.blockTime { options.blockTime = bt.duration }
        if let c = o.confirmations { options.confirmations = c.value }
        if o.verbose { options.logger = { @Sendable line in Console.err(line + "\n") } }
        for i in 0..<o.blobbers.value {
            options.services.append(BlobberService(index: i + 1, logger: options.logger))
        }
        if !o.noApp {
            options.services.append(AppService(home: inv.home, port: o.appPort?.value, logRequests: o.verbose))
        }
        let devnet = Devnet(options: options)
        let urls: DevnetURLs
        do { urls = try await devnet.start() } catch {
            throw CLIError.failure("cannot start the devnet in \(dir.path): \(error)")
        }
        do {
            var config = try ClientConfig.load(home: inv.home)
            config.upsert(
                ClientConfig.Network(
                    name: "devnet", node: Devnet.text(urls.node), app: urls.app.map(Devnet.text),
                    fallbackNodes: urls.nodes.dropFirst().map(Devnet.text)))
            config.current = "devnet"
            try config.save(home: inv.home)
        } catch {
            await devnet.stop()
            throw error
        }
        if inv.json {
            Console.out(urls.json.rendered() + "\n")
        } else {
            let node = Devnet.text(urls.node)
            var text = "Mosaic devnet is running\n"
            if urls.nodes.count == 1 {
                text += "  node:      \(node)\n"
            } else {
                for (i, n) in urls.nodes.enumerated() { text += "  node \(i + 1):    \(Devnet.text(n))\n" }
            }
            text += """
                  explorer:  \(node)/explorer
                  app:       \(urls.app.map(Devnet.text) ?? "not part of the devnet yet")

                """
            if options.database == .postgres { text += "  database:  PostgreSQL in \(dir.appendingPathComponent("postgres").path)\n" }
            for (i, b) in urls.blobbers.enumerated() { text += "  blobber \(i + 1): \(Devnet.text(b))\n" }
            text += """
                  data:      \(dir.path)
                Network "devnet" is now current: try 'mosaic wallet create' then 'mosaic wallet faucet'.
                Press Ctrl-C to stop.

                """
            Console.out(text)
        }
        return await signals.serve("devnet", stop: { await devnet.stop() }, stopped: { "devnet stopped" })
    }
}
