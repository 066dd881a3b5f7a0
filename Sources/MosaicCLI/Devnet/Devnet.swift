import Foundation
import MosaicCrypto
import MosaicLedger
import MosaicNode
import MosaicPostgres
import MosaicProtocol

/// A whole network in one process on loopback: ledger nodes (one on SQLite by default, or 1…5 on
/// one local PostgreSQL that `LocalPostgres` runs under the folder), and whatever `services` are
/// added (blobbers, the web app) started after them. `mosaic devnet` is its command-line face.
actor Devnet {
    /// Where the chain lives.
    enum Database: Sendable, Equatable {
        /// `node/ledger.sqlite`: one node.
        case sqlite
        /// A PostgreSQL server in `postgres/` started and stopped with the devnet; its nodes
        /// (`node-1/` …) share the chain, one producing by lease and any able to take over.
        case postgres
    }

    struct Options: Sendable {
        /// Everything the devnet stores lives under this folder (`node/` or `node-K/` and
        /// `postgres/`, then one per service).
        var directory: URL
        /// First node's port (the others take the next ones); nil tries 7100 and falls back to
        /// any free port; 0 picks free ports.
        var port: UInt16?
        var blockTime: Duration = .seconds(1)
        var confirmations: UInt64 = 3
        var services: [any DevnetService] = []
        var chainID = "mosaic-devnet"
        var logger: (@Sendable (String) -> Void)?
        var database = Database.sqlite
        /// Ledger nodes, more than one only on PostgreSQL (`Devnet.maxNodes` at most).
        var nodes = 1
    }

    static let defaultPort: UInt16 = 7100
    static let maxNodes = 5
    /// The devnet's database on its PostgreSQL server.
    static let postgresDatabase = "mosaic_devnet"

    let options: Options
    private var nodes: [NodeServer] = []
    private var postgres: LocalPostgres?
    private var started: [any DevnetService] = []

    init(options: Options) { self.options = options }

    /// The devnet's social reward pool: one million tokens, of which a payout window with votes releases 1 %.
    static let socialRewardPool: UInt64 = 1_000_000 * TokenAmount.unitsPerToken

    /// The ledger folder of each node: `node` alone on SQLite, `node-1` … `node-N` on PostgreSQL.
    nonisolated func nodeDirectories() -> [URL] {
        switch options.database {
        case .sqlite: return [options.directory.appendingPathComponent("node")]
        case .postgres: return (1...max(1, options.nodes)).map { options.directory.appendingPathComponent("node-\($0)") }
        }
    }

    /// Starts the database, the nodes, then each service; on any failure stops what already runs
    /// (the PostgreSQL server too) and rethrows.
    func start() async throws -> DevnetURLs {
        guard (1...Devnet.maxNodes).contains(options.nodes), options.nodes == 1 || options.database == .postgres else {
            throw CLIError.usage("--nodes \(options.nodes): give 1 to \(Devnet.maxNodes); more than one node needs --db postgres")
        }
        do {
            let urls = try await startNodes()
            return try await startServices(urls)
        } catch {
            await stop()
            throw error
        }
    }

    private func startNodes() async throws -> [URL] {
        var funds: [String: UInt64] = [:]
        for service in options.services {
            let dir = options.directory.appendingPathComponent(service.name)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            funds.merge(try service.genesisFunds(directory: dir)) { $0 + $1 }
        }
        // The social contract's reward pool (docs/SOCIAL.md §8) is an opening balance of its address.
        funds[ContractCall.address(of: "social"), default: 0] += Devnet.socialRewardPool
        var genesis = Genesis(chainID: options.chainID, allocations: funds)
        genesis.confirmations = options.confirmations
        let c = options.blockTime.components
        genesis.blockTimeMillis = c.seconds * 1000 + c.attoseconds / 1_000_000_000_000_000
        let dirs = nodeDirectories()
        var database = LedgerDatabase.sqlite
        if options.database == .postgres {
            // Every node may make blocks: whichever holds the lease does, another takes over.
            genesis.producers = try dirs.map { dir in
                try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
                return try Ledger.nodeKey(directory: dir.path).publicKey.hex
            }
            database = .postgres(url: try startPostgres())
        }
        // One clock: moving the time through any node moves it for whichever produces.
        let clock = LedgerClock()
        for (k, dir) in dirs.enumerated() {
            let port = options.port.map { $0 == 0 ? 0 : $0 &+ UInt16(k) } ?? Devnet.defaultPort + UInt16(k)
            var config = NodeConfiguration(
                directory: dir.path, genesis: genesis, port: port, blockTime: options.blockTime, allowTimeTravel: true,
                logger: options.logger)
            config.database = database
            config.clock = clock
            config.threads = 4
            let server = try NodeServer(configuration: config)
            do {
                try server.start()
            } catch  where options.port == nil {
                // The usual port is taken (another devnet?): any free one will do.
                server.ledger.close()
                config.port = 0
                let fallback = try NodeServer(configuration: config)
                try fallback.start()
                nodes.append(fallback)
                continue
            } catch {
                server.ledger.close()
                throw error
            }
            nodes.append(server)
        }
        return nodes.map(\.url)
    }

    /// Makes (first time) and starts the devnet's PostgreSQL server; the URL of its database.
    private func startPostgres() throws -> String {
        let server = try LocalPostgres(directory: options.directory.appendingPathComponent("postgres").path)
        postgres = server
        try server.prepare()
        // Each node holds a writer, readers and a listener; five nodes stay well under this.
        try server.start(settings: ["max_connections": "200"])
        try server.createDatabase(Devnet.postgresDatabase)
        guard let url = server.url(database: Devnet.postgresDatabase) else { throw PostgresError.closed }
        return url
    }

    private func startServices(_ nodeURLs: [URL]) async throws -> DevnetURLs {
        var urls = DevnetURLs(nodes: nodeURLs, app: nil, blobbers: [], directory: options.directory)
        for service in options.services {
            let dir = options.directory.appendingPathComponent(service.name)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            let url = try await service.start(nodes: nodeURLs, directory: dir)
            started.append(service)
            switch service.role {
            case .app: urls.app = url
            case .blobber: urls.blobbers.append(url)
            }
        }
        for service in started { try await service.ready() }
        return urls
    }

    /// Stops the services in reverse order, then the nodes, then the PostgreSQL server (`pg_ctl
    /// stop -m fast`, once no node holds a connection).
    func stop() async {
        for s in started.reversed() { await s.stop() }
        started = []
        for node in nodes.reversed() { await node.stop() }
        nodes = []
        if let postgres {
            postgres.stop()
            self.postgres = nil
        }
    }

    /// The running nodes (for in-process callers such as tests and the benchmark).
    var nodeServers: [NodeServer] { nodes }

    /// "http://127.0.0.1:7100" without a trailing slash.
    nonisolated static func text(_ url: URL) -> String {
        let s = url.absoluteString
        return s.hasSuffix("/") ? String(s.dropLast()) : s
    }
}
