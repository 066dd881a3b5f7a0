import Foundation
import MosaicLedger
import MosaicNode
import MosaicProtocol

/// A whole network in one process on loopback: a ledger node now, and whatever `services` are
/// added (blobbers, the web app) started after it. `mosaic devnet` is its command-line face.
actor Devnet {
    struct Options: Sendable {
        /// Everything the devnet stores lives under this folder (`node/`, then one per service).
        var directory: URL
        /// Node port; nil tries 7100 and falls back to any free port.
        var port: UInt16?
        var blockTime: Duration = .seconds(1)
        var confirmations: UInt64 = 3
        var services: [any DevnetService] = []
        var chainID = "mosaic-devnet"
        var logger: (@Sendable (String) -> Void)?
    }

    static let defaultPort: UInt16 = 7100

    let options: Options
    private var node: NodeServer?
    private var started: [any DevnetService] = []

    init(options: Options) { self.options = options }

    /// The devnet's social reward pool: one million tokens, of which a payout window with votes releases 1 %.
    static let socialRewardPool: UInt64 = 1_000_000 * TokenAmount.unitsPerToken

    /// Starts the node, then each service; on any failure stops what already runs and rethrows.
    func start() async throws -> DevnetURLs {
        let nodeDir = options.directory.appendingPathComponent("node")
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
        var config = NodeConfiguration(
            directory: nodeDir.path, genesis: genesis, port: options.port ?? Devnet.defaultPort,
            blockTime: options.blockTime, allowTimeTravel: true, logger: options.logger)
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
            node = fallback
            return try await startServices(fallback.url)
        }
        node = server
        return try await startServices(server.url)
    }

    private func startServices(_ nodeURL: URL) async throws -> DevnetURLs {
        var urls = DevnetURLs(node: nodeURL, app: nil, blobbers: [], directory: options.directory)
        do {
            for service in options.services {
                let dir = options.directory.appendingPathComponent(service.name)
                try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
                let url = try await service.start(node: nodeURL, directory: dir)
                started.append(service)
                switch service.role {
                case .app: urls.app = url
                case .blobber: urls.blobbers.append(url)
                }
            }
            for service in started { try await service.ready() }
        } catch {
            await stop()
            throw error
        }
        return urls
    }

    /// Stops the services in reverse order, then the node.
    func stop() async {
        for s in started.reversed() { await s.stop() }
        started = []
        if let node {
            await node.stop()
            self.node = nil
        }
    }

    /// The running node (for in-process callers such as tests and the benchmark).
    var nodeServer: NodeServer? { node }

    /// "http://127.0.0.1:7100" without a trailing slash.
    nonisolated static func text(_ url: URL) -> String {
        let s = url.absoluteString
        return s.hasSuffix("/") ? String(s.dropLast()) : s
    }
}
