import Foundation
import MosaicHTTPServer
import MosaicLedger

/// How to run a node: where its state lives, what chain a new directory starts, where to listen.
package struct NodeConfiguration: Sendable {
    /// Ledger directory (genesis.json, and the SQLite database unless `database` names another).
    package var directory: String
    /// Where the ledger's state lives: `ledger.sqlite` in `directory`, or PostgreSQL (`--db`).
    package var database: LedgerDatabase = .sqlite
    /// Genesis for a new directory; an existing directory keeps its own (only the chain id must match).
    package var genesis: Genesis?
    /// Loopback by default: a node is reachable from elsewhere only when asked for.
    package var host = "127.0.0.1"
    /// 0 picks a free port (read it back from `NodeServer.url`).
    package var port: UInt16 = 0
    /// Serve HTTPS with these (`--tls-cert`, `--tls-key`); nil serves plain HTTP.
    package var tls: TLSCredentials?
    /// What `/v1/network` lists as this node's URL (`--public-url`); nil lists none.
    package var publicURL: String?
    /// Block interval; nil uses the genesis value. Zero makes a block per submitted batch.
    package var blockTime: Duration?
    /// Serve `POST /v1/devnet/time` (moving the ledger clock): for devnets and tests only.
    package var allowTimeTravel = false
    /// Threads answering HTTP requests.
    package var threads = 4
    /// Access log; nil keeps the node quiet.
    package var logger: HTTPLogger?
    /// Builds the contracts the genesis names: the built-in ones; tests register test-only ones
    /// (or a built-in one with test rules) and name them in their genesis.
    package var contracts: ContractRegistry = .standard
    /// The ledger's flood limits: pool bytes, per-sender caps, cache size (docs/PROTOCOL.md §2.3).
    package var ledgerLimits = LedgerLimits()
    /// Fee-exempt transactions (faucet pours) one source address may submit per minute.
    package var freeSubmissionsPerMinute = 60
    /// The ledger's clock; nodes of one chain in one process (a devnet) share one, so moving the
    /// time through any of them moves it for the block producer too.
    package var clock = LedgerClock()

    package init(
        directory: String, genesis: Genesis? = nil, port: UInt16 = 0, blockTime: Duration? = nil,
        allowTimeTravel: Bool = false, logger: HTTPLogger? = nil
    ) {
        self.directory = directory
        self.genesis = genesis
        self.port = port
        self.blockTime = blockTime
        self.allowTimeTravel = allowTimeTravel
        self.logger = logger
    }
}
