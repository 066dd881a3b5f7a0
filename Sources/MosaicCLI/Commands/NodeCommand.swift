import Foundation
import MosaicLedger
import MosaicNode
import MosaicProtocol

/// `mosaic node`: one ledger node serving the HTTP API and explorer on loopback until Ctrl-C.
enum NodeCommand {
    static let command = Command(
        name: "node", summary: "run a ledger node (HTTP API and explorer) until Ctrl-C",
        discussion: """
            State lives in DIR (SQLite in WAL mode, and genesis.json), or with --db postgres://… in that
            PostgreSQL database (DIR still holds genesis.json). A new chain starts from --genesis FILE or
            devnet defaults; an existing one resumes at its last committed block.
            --block-time 0 makes a block as soon as transactions arrive (for tests and demos).
            """,
        examples: [
            "mosaic node --dir ./node1", "mosaic node --dir ./node1 --db postgres://mosaic@127.0.0.1:5432/ledger",
            "mosaic node --dir /tmp/n --port 7100 --block-time 500ms --confirmations 2",
            "mosaic node verify --from http://127.0.0.1:7100",
        ],
        options: Options.self, subcommands: [NodeVerifyCommand.command, NodeKeyCommand.command], action: { o, inv in try await run(o, inv) }
    )

    struct Options: CommandOptions {
        @Option("dir", "DIR", help: "ledger directory (created if missing)") var dir: String
        @Option("db", "URL", help: "ledger database: sqlite (default, in DIR) or postgres://USER@HOST:PORT/DATABASE")
        var db: LedgerDatabaseOption?
        var server = ListenOptions()
        var advertised = PublicURLOption()
        @Option("block-time", "DURATION", help: "block interval: 0, 500ms, 1s, 2s (default: the genesis value, 1s)")
        var blockTime: Interval?
        @Option("confirmations", "N", help: "blocks after a transaction's block before it is sealed, for a new chain (default 3)")
        var confirmations: Confirmations?
        @Option("genesis", "FILE", help: "genesis.json for a new chain") var genesis: String?
        @Flag("allow-time-travel", help: "serve POST /v1/devnet/time (moves the ledger clock; devnets only)") var allowTimeTravel: Bool
        @Flag("quiet", help: "no access log on standard error") var quiet: Bool
    }

    static func run(_ o: Options, _ inv: Invocation) async throws -> CommandOutput {
        let signals = TerminationSignal()
        let dir = o.dir
        let listen = try o.server.resolve(defaultPort: 7100)
        let port = listen.port
        let blockTime = o.blockTime?.duration
        let confirmations = o.confirmations?.value
        var genesis: Genesis?
        if let file = o.genesis {
            do { genesis = try Genesis.load(from: file) } catch {
                throw CLIError.failure("cannot read genesis file \(file): \(error)")
            }
        }
        let database = o.db?.database ?? .sqlite
        // An existing chain keeps its genesis; the flags only shape a new one.
        let isNew: Bool
        switch database {
        case .sqlite: isNew = !FileManager.default.fileExists(atPath: LedgerDatabase.sqlitePath(in: dir))
        // The database is asked when the ledger opens; a genesis.json in DIR marks a chain made before.
        case .postgres: isNew = !FileManager.default.fileExists(atPath: (dir as NSString).appendingPathComponent("genesis.json"))
        }
        // (An existing directory still checks a given --genesis: its chain id must match.)
        if isNew && (blockTime != nil || confirmations != nil) {
            var g = genesis ?? Genesis()
            if let confirmations { g.confirmations = confirmations }
            if let blockTime { g.blockTimeMillis = millis(blockTime) }
            genesis = g
        }
        var config = NodeConfiguration(
            directory: dir, genesis: genesis, port: port, blockTime: blockTime,
            allowTimeTravel: o.allowTimeTravel)
        config.database = database
        config.host = listen.host
        config.tls = listen.tls
        config.publicURL = o.advertised.publicURL.map { Devnet.text($0.url) }
        if !o.quiet { config.logger = { @Sendable line in Console.err(line + "\n") } }
        let node: NodeServer
        do { node = try NodeServer(configuration: config) } catch {
            throw CLIError.failure("cannot open the ledger in \(dir): \(error.description)")
        }
        do { try node.start() } catch {
            node.ledger.close()
            throw CLIError.failure("cannot listen on \(listen.listenText): \(error); is another node running there? Try --port 0")
        }
        let g = node.ledger.genesis
        let url = o.advertised.publicURL.map { Devnet.text($0.url) } ?? Devnet.text(node.url)
        if inv.json {
            Console.out(
                JSONValue.object([
                    ("node", .string(url)), ("chain_id", .string(g.chainID)), ("dir", .string(dir)),
                    ("block_time_ms", .integer(node.blockTimeMillis)), ("confirmations", .unsigned(g.confirmations)),
                ]).rendered() + "\n")
        } else {
            Console.out(
                """
                node listening on \(url)  (explorer: \(url)/explorer)
                chain \(g.chainID), a block every \(DurationText.format(milliseconds: node.blockTimeMillis)), sealed after \(g.confirmations) confirmations; data in \(dir)
                Press Ctrl-C to stop.

                """)
        }
        if let confirmations, confirmations != g.confirmations {
            Console.err(
                "note: \(dir) holds an existing chain sealed after \(g.confirmations) confirmations; --confirmations \(confirmations) applies to new chains only\n"
            )
        }
        return await signals.serve(
            "node", stop: { await node.stop() }, stopped: { "node stopped at block #\(node.ledger.latestBlock.round)" })
    }

    static func millis(_ d: Duration) -> Int64 {
        d.components.seconds * 1000 + d.components.attoseconds / 1_000_000_000_000_000
    }
}
