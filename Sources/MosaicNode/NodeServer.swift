import Foundation
import MosaicHTTP
import MosaicHTTPServer
import MosaicLedger
import MosaicProtocol

/// One ledger node: the `Ledger` engine behind the HTTP JSON API of docs/NODE_API.md and the
/// explorer pages. Create, `start()`, and `stop()` when done (also on SIGINT/SIGTERM).
package final class NodeServer: Sendable {
    package let configuration: NodeConfiguration
    package let ledger: Ledger
    package let http: HTTPServer
    /// The block interval actually running (the flag can differ from the genesis value).
    package let blockTime: Duration
    /// Fee-exempt submissions per source address (`NodeConfiguration.freeSubmissionsPerMinute`).
    let freeLimiter: SourceRateLimiter

    /// Opens (or creates) the ledger in `configuration.directory` and registers every route.
    package init(configuration: NodeConfiguration) throws(LedgerError) {
        self.configuration = configuration
        ledger = try Ledger(
            directory: configuration.directory, database: configuration.database, genesis: configuration.genesis,
            clock: configuration.clock, registry: configuration.contracts, limits: configuration.ledgerLimits)
        if !ledger.mayProduce, case .sqlite = configuration.database {
            // Alone on its database and unable to sign: the chain would never grow.
            let key = ledger.networkInfo.nodeKey ?? ""
            ledger.close()
            throw .invalidRequest(
                "this node's key \(key) is not among the chain's producers, so it could never make a block; start it with the "
                    + "node.key that made this chain (in \(configuration.directory)), or add the key to the producers of a new genesis")
        }
        blockTime = configuration.blockTime ?? .milliseconds(ledger.genesis.blockTimeMillis)
        freeLimiter = SourceRateLimiter(perMinute: configuration.freeSubmissionsPerMinute)
        var http = HTTPServer.Configuration()
        http.host = configuration.host
        http.port = configuration.port
        http.tls = configuration.tls
        http.threads = configuration.threads
        http.logger = configuration.logger
        // Long polls wait up to 60 s; the idle timeout must not cut them first.
        http.connectionTimeout = 90
        http.title = "Mosaic node API"
        // Bad parameters are malformed requests, like any other bad field (docs/PROTOCOL.md §2.3).
        http.parameterErrorCode = "malformed"
        // No error body shows where this node keeps its ledger.
        http.privatePaths = [configuration.directory: "$NODE_DIR"]
        self.http = HTTPServer(configuration: http)
        registerAPI()
        registerStorageAPI()
        registerViewAPI()
        registerExplorer()
        registerStorageExplorer()
        registerMetrics()
    }

    /// Starts producing blocks and listening.
    package func start() throws {
        ledger.start(blockTime: blockTime)
        do {
            try http.start()
        } catch {
            ledger.stop()
            throw error
        }
    }

    /// Stops the block timer and closes the ledger (waking every long poll with its current
    /// status, so none holds the shutdown up), then stops listening once in-flight requests ended.
    package func stop() async {
        ledger.close()
        await http.stop(grace: .seconds(2))
    }

    /// `http://127.0.0.1:PORT` once started.
    package var url: URL { http.baseURL }

    /// Milliseconds of the running block interval.
    package var blockTimeMillis: Int64 {
        let c = blockTime.components
        return c.seconds * 1000 + c.attoseconds / 1_000_000_000_000_000
    }
}
