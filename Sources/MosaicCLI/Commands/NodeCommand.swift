import Foundation
import MosaicLedger
import MosaicNode
import MosaicProtocol

/// `mosaic node`: one ledger node serving the HTTP API and explorer on loopback until Ctrl-C.
enum NodeCommand {
    static let command = Command(
        name: "node", summary: "run a ledger node (HTTP API and explorer) until Ctrl-C",
        discussion: """
            State lives in DIR (SQLite in WAL mode, and genesis.json). A new DIR starts a new chain from
            --genesis FILE or devnet defaults; an existing DIR resumes at its last committed block.
            --block-time 0 makes a block as soon as transactions arrive (for tests and demos).
            """,
        examples: ["mosaic node --dir ./node1", "mosaic node --dir /tmp/n --port 7100 --block-time 500ms --confirmations 2"],
        flags: [
            .option("dir", "DIR", "ledger directory (created if missing)"),
            .option("block-time", "DURATION", "block interval: 0, 500ms, 1s, 2s (default: the genesis value, 1s)"),
            .option("confirmations", "N", "blocks after a transaction's block before it is sealed, for a new chain (default 3)"),
            .option("genesis", "FILE", "genesis.json for a new chain"),
            .toggle("allow-time-travel", "serve POST /v1/devnet/time (moves the ledger clock; devnets only)"),
            .toggle("quiet", "no access log on standard error"),
        ] + ServerFlags.flags(defaultPort: 7100, publicURL: true),
        action: { inv in try await run(inv) })

    static func run(_ inv: Invocation) async throws -> CommandOutput {
        let signals = TerminationSignal()
        let dir = try inv.required("dir")
        let listen = try ServerFlags(inv, defaultPort: 7100)
        let port = listen.port
        let blockTime = try inv.value("block-time").map { try DurationText.parse($0, flag: "block-time") }
        let confirmations = try inv.value("confirmations").map { try parseConfirmations($0) }
        var genesis: Genesis?
        if let file = inv.value("genesis") {
            do { genesis = try Genesis.load(from: file) } catch {
                throw CLIError.failure("cannot read genesis file \(file): \(error)")
            }
        }
        // An existing chain keeps its genesis; the flags only shape a new one.
        let isNew = !FileManager.default.fileExists(atPath: (dir as NSString).appendingPathComponent("ledger.sqlite"))
        // (An existing directory still checks a given --genesis: its chain id must match.)
        if isNew && (blockTime != nil || confirmations != nil) {
            var g = genesis ?? Genesis()
            if let confirmations { g.confirmations = confirmations }
            if let blockTime { g.blockTimeMillis = millis(blockTime) }
            genesis = g
        }
        var config = NodeConfiguration(
            directory: dir, genesis: genesis, port: port, blockTime: blockTime,
            allowTimeTravel: inv.has("allow-time-travel"))
        config.host = listen.host
        config.tls = listen.tls
        config.publicURL = listen.publicURL.map { Devnet.text($0) }
        if !inv.has("quiet") { config.logger = { @Sendable line in Console.err(line + "\n") } }
        let node: NodeServer
        do { node = try NodeServer(configuration: config) } catch {
            throw CLIError.failure("cannot open the ledger in \(dir): \(error.description)")
        }
        do { try node.start() } catch {
            node.ledger.close()
            throw CLIError.failure("cannot listen on \(listen.listenText): \(error); is another node running there? Try --port 0")
        }
        let g = node.ledger.genesis
        let url = listen.publicURL.map { Devnet.text($0) } ?? Devnet.text(node.url)
        if inv.json {
            Console.out(
                JSONValue.object([
                    ("node", .string(url)), ("chain_id", .string(g.chainID)), ("dir", .string(dir)),
                    ("block_time_ms", .int(node.blockTimeMillis)), ("confirmations", .uint(g.confirmations)),
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
        let sig = await signals.wait()
        signals.restoreDefaults()
        Console.err("received \(TerminationSignal.name(sig)), stopping the node…\n")
        await node.stop()
        Console.err("node stopped at block #\(node.ledger.latestBlock.round)\n")
        return .printed
    }

    static func parsePort(_ text: String?, default value: UInt16) throws -> UInt16 {
        guard let text else { return value }
        guard let p = UInt16(text) else { throw CLIError.usage("--port \(text): give a port number from 0 to 65535 (0 picks a free one)") }
        return p
    }

    static func parseConfirmations(_ text: String) throws -> UInt64 {
        guard let n = UInt64(text), n <= 1000 else {
            throw CLIError.usage("--confirmations \(text): give a number of blocks from 0 to 1000")
        }
        return n
    }

    static func millis(_ d: Duration) -> Int64 {
        d.components.seconds * 1000 + d.components.attoseconds / 1_000_000_000_000_000
    }
}
