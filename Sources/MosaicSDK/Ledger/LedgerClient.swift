import Foundation
import MosaicHTTP
import MosaicProtocol
import Synchronization

/// Async access to a ledger's HTTP API (docs/NODE_API.md) through one node, or several nodes of
/// the same chain: a call that cannot reach one node (no connection, a timeout, 502/503/504)
/// goes to the next, and the node that answered is tried first from then on. Reads need no keys;
/// `submit` takes transactions already signed (see `Wallet` for signing with nonce management).
public struct LedgerClient: Sendable {
    /// The first node's API base URL, e.g. `http://127.0.0.1:7100` (explorer links point there).
    public let baseURL: URL
    /// Every node's base URL, in the order they are tried.
    public let nodeURLs: [URL]
    private let endpoints: [HTTPClient]
    /// Index of the node that answered last; shared by copies of this client.
    private let preferred: NodePreference
    /// How long a call goes on trying while every node answers `unavailable` (503: the ledger's
    /// database is out of reach, e.g. a PostgreSQL server restarting); zero gives up at once.
    public var unavailableWait: Duration = .seconds(15)

    /// Longest single long poll; the node caps waits at 60 s and a poll must end before the
    /// HTTP client's own idle timeout.
    static let maxPoll: Duration = .seconds(50)

    /// A client for the node at `baseURL`, with timeouts long enough for its long polls.
    /// - Parameter baseURL: the node's API base URL.
    public init(baseURL: URL) { self.init(baseURLs: [baseURL]) }

    /// A client for several nodes of one chain, tried in this order when one stops answering.
    /// - Parameter baseURLs: the nodes' API base URLs; the first is tried first. Empty is not
    ///   allowed (the first URL is required).
    public init(baseURLs: [URL]) {
        var config = HTTPClient.Configuration()
        config.requestTimeout = 75
        config.deadline = .seconds(90)
        config.maxConnectionsPerHost = 64
        let urls = baseURLs.isEmpty ? [URL(fileURLWithPath: "/")] : baseURLs
        baseURL = urls[0]
        nodeURLs = urls
        // Failing over retries on the next node instead of retrying one node that is gone.
        if urls.count > 1 { config.retries = 0 }
        let c = config
        endpoints = urls.map { HTTPClient(baseURL: $0, configuration: c) }
        preferred = NodePreference()
    }

    /// The client for a network of the CLI config: its node and the other nodes it lists.
    /// - Parameter network: a network from `ClientConfig`.
    /// - Throws: `ConfigError.invalidURL` when a node URL is not a URL with a scheme.
    public init(network: ClientConfig.Network) throws(ConfigError) {
        var urls: [URL] = []
        for text in network.nodeURLs {
            guard let url = URL(string: text), url.scheme != nil else { throw .invalidURL(text) }
            urls.append(url)
        }
        try network.applyTransportSecurity()
        self.init(baseURLs: urls)
    }

    private static func text(_ url: URL) -> String {
        let s = url.absoluteString
        return s.hasSuffix("/") ? String(s.dropLast()) : s
    }

    /// The first node's HTTP client (for calls that need no failover).
    var http: HTTPClient { endpoints[0] }

    /// Runs `body` against the preferred node, then each other node in turn while the one tried
    /// cannot be reached. A node's own answer (a refusal, not found) is final: another node of
    /// the same chain would say the same. While every node answers `unavailable` (its database
    /// is out of reach; nothing was done) the round is tried again for up to `unavailableWait`.
    /// `attempt` is 0 on the first try only.
    func call<T: Sendable>(_ body: (_ http: HTTPClient, _ attempt: Int) async throws -> T) async throws(LedgerClientError) -> T {
        let start = preferred.index.withLock { $0 } % endpoints.count
        let deadline = ContinuousClock.now + unavailableWait
        var last: LedgerClientError?
        var attempt = 0
        while true {
            var onlyUnavailable = true
            for k in 0..<endpoints.count {
                let i = (start + k) % endpoints.count
                let url = Self.text(nodeURLs[i])
                let error: LedgerClientError
                do {
                    let value = try await body(endpoints[i], attempt)
                    if i != start { preferred.index.withLock { $0 = i } }
                    return value
                } catch let e as HTTPClientError {
                    error = LedgerClientError.from(e, url: url)
                    let unavailable = e.status == 503 && e.code == LedgerError.closed.code
                    onlyUnavailable = onlyUnavailable && unavailable
                    guard Self.nodeUnavailable(e), endpoints.count > 1 || unavailable else { throw error }
                } catch let e as LedgerClientError {
                    throw e
                } catch {
                    throw .unreachable(url: url, reason: "\(error)")
                }
                last = error
                attempt += 1
            }
            guard onlyUnavailable, ContinuousClock.now < deadline else { break }
            try? await Task.sleep(for: .milliseconds(500))
        }
        throw last ?? .unreachable(url: Self.text(baseURL), reason: "no node answered")
    }

    func call<T: Sendable>(_ body: (_ http: HTTPClient) async throws -> T) async throws(LedgerClientError) -> T {
        try await call { http, _ in try await body(http) }
    }

    /// No answer from the node itself: not connected, timed out, or a proxy or stopping server
    /// saying it is unavailable.
    static func nodeUnavailable(_ e: HTTPClientError) -> Bool {
        (e.status == 0 && e.code != "invalid_response") || [502, 503, 504].contains(e.status)
    }

    // MARK: reads

    /// The network's parameters: chain id, fees, token symbol, USD rate, ledger time and limits.
    /// - Returns: what `GET /v1/network` answers.
    /// - Throws: `LedgerClientError` when the node cannot be read.
    public func network() async throws(LedgerClientError) -> NetworkInfo {
        try await call { http in try await http.get("/v1/network", as: NetworkInfo.self) }
    }

    /// Balance, nonce and next nonce; an account never seen reads as zeros.
    /// - Parameter clientID: the account's client id.
    /// - Returns: the account as of the latest round.
    /// - Throws: `LedgerClientError` when the node cannot be read.
    public func account(_ clientID: String) async throws(LedgerClientError) -> AccountView {
        try await call { http in try await http.get("/v1/accounts/\(clientID)", as: AccountView.self) }
    }

    /// A transaction by hash. With `wait`, the node answers as soon as that status is reached, or
    /// with the current status after `timeout` (one long poll, at most 50 s).
    /// - Parameters:
    ///   - hash: the transaction's hash.
    ///   - wait: the status to wait for; nil answers at once.
    ///   - timeout: the longest wait (capped at 50 s).
    /// - Returns: the transaction with its status and, once executed, its outcome and events.
    /// - Throws: `LedgerClientError.notFound` when the node does not know the hash; other cases when
    ///   it cannot be read.
    public func transaction(_ hash: String, wait: TransactionStatus? = nil, timeout: Duration = .seconds(30))
        async throws(LedgerClientError) -> TransactionView
    {
        var query: [String: String] = [:]
        if let wait {
            let t = min(timeout, LedgerClient.maxPoll)
            let ms = t.components.seconds * 1000 + t.components.attoseconds / 1_000_000_000_000_000
            query = ["wait": wait.rawValue, "timeout": String(format: "%.3f", Double(max(0, ms)) / 1000)]
        }
        let q = query
        return try await call { http in try await http.get("/v1/transactions/\(hash)", query: q, as: TransactionView.self) }
    }

    /// One page of an account's transactions, newest first (pending ones first).
    /// - Parameters:
    ///   - clientID: the account.
    ///   - limit: transactions per page.
    ///   - offset: how many to skip.
    /// - Returns: the page.
    /// - Throws: `LedgerClientError` when the node cannot be read.
    public func transactions(of clientID: String, limit: Int = 20, offset: Int = 0) async throws(LedgerClientError) -> TransactionPage {
        try await call { http in
            try await http.get(
                "/v1/accounts/\(clientID)/transactions", query: ["limit": String(limit), "offset": String(offset)],
                as: TransactionPage.self)
        }
    }

    /// The newest block.
    /// - Returns: its header.
    /// - Throws: `LedgerClientError` when the node cannot be read.
    public func latestBlock() async throws(LedgerClientError) -> BlockView {
        try LedgerClient.checked(try await call { http in try await http.get("/v1/blocks/latest", as: BlockView.self) })
    }

    /// A block by round, with its transaction hashes.
    /// - Parameter round: the block's round.
    /// - Returns: the block.
    /// - Throws: `LedgerClientError.notFound` for a round not made yet.
    public func block(round: UInt64) async throws(LedgerClientError) -> BlockView {
        try LedgerClient.checked(try await call { http in try await http.get("/v1/blocks/\(round)", as: BlockView.self) })
    }

    /// A block by hash, with its transaction hashes.
    /// - Parameter hash: the block's hash.
    /// - Returns: the block.
    /// - Throws: `LedgerClientError.notFound` for an unknown hash.
    public func block(hash: String) async throws(LedgerClientError) -> BlockView {
        try LedgerClient.checked(try await call { http in try await http.get("/v1/blocks/\(hash)", as: BlockView.self) })
    }

    /// Recent block headers, newest first, below `before` when given.
    /// - Parameters:
    ///   - before: list rounds below this one; nil starts at the newest.
    ///   - limit: headers per page.
    /// - Returns: the headers, newest first.
    /// - Throws: `LedgerClientError` when the node cannot be read.
    public func blocks(before: UInt64? = nil, limit: Int = 20) async throws(LedgerClientError) -> [BlockView] {
        var query = ["limit": String(limit)]
        if let before { query["before"] = String(before) }
        let q = query
        let views = try await call { http in try await http.get("/v1/blocks", query: q, as: BlockList.self).blocks }
        for view in views { _ = try LedgerClient.checked(view) }
        return views
    }

    /// A block's transactions in block order, with their receipts (every page of them).
    /// - Parameter round: the block's round.
    /// - Returns: the signed transactions and their receipts.
    /// - Throws: `LedgerClientError.notFound` for a round not made yet.
    public func blockTransactions(round: UInt64) async throws(LedgerClientError) -> [TransactionView] {
        var all: [TransactionView] = []
        while true {
            let offset = all.count
            let page = try await call { http in
                try await http.get(
                    "/v1/blocks/\(round)/transactions", query: ["limit": "1000", "offset": String(offset)], as: TransactionList.self
                ).transactions
            }
            all += page
            if page.count < 1000 { return all }
            // No genesis lets a block hold more; a node that keeps sending pages is not believed.
            guard all.count < 1_000_000 else { throw .invalidResponse("block \(round) is served with more than 1,000,000 transactions") }
        }
    }

    /// The genesis the chain started from, as the node serves it (`GET /v1/genesis`).
    /// - Returns: its JSON bytes, for a tool that re-executes the chain (the faucet supply can
    ///   pass Int64, so the bytes are kept as served rather than read as a `JSONValue`).
    /// - Throws: `LedgerClientError` when the node cannot be read.
    public func genesis() async throws(LedgerClientError) -> Data {
        try await call { http in try await http.send(.get, "/v1/genesis").body }
    }

    /// A served block whose hash is not that of its fields, or whose producer signature does not
    /// verify, was changed on the way or by the node: it is refused, never shown.
    static func checked(_ view: BlockView) throws(LedgerClientError) -> BlockView {
        if let fault = view.block.fault(producers: []) {
            throw .invalidResponse("block \(view.block.round) is not valid: \(fault)")
        }
        return view
    }

    /// Whether `clientID` can pour from the faucet now, and if not, when.
    /// - Parameter clientID: the account asking.
    /// - Returns: its limit, what it poured in this window and when it may pour next.
    /// - Throws: `LedgerClientError` when the node cannot be read.
    public func faucetStatus(_ clientID: String) async throws(LedgerClientError) -> FaucetView {
        try await call { http in try await http.get("/v1/faucet/\(clientID)", as: FaucetView.self) }
    }

    /// Total supply against the sum of all balances.
    /// - Returns: both sums, which match on a sound ledger.
    /// - Throws: `LedgerClientError` when the node cannot be read.
    public func supply() async throws(LedgerClientError) -> SupplyView {
        try await call { http in try await http.get("/v1/supply", as: SupplyView.self) }
    }

    // MARK: writes

    /// Submits one signed transaction; a rejection throws `.rejected` with the node's code.
    /// - Parameter tx: a signed transaction.
    /// - Returns: its hash and status as the node took it.
    /// - Throws: `LedgerClientError.rejected` with the node's code (e.g. `stale_nonce`,
    ///   `insufficient_balance`); other cases when the node cannot be reached.
    @discardableResult
    public func submit(_ tx: Transaction) async throws(LedgerClientError) -> SubmissionResult {
        try await call { http, attempt in
            do { return try await http.post("/v1/transactions", json: tx, as: SubmissionResult.self) } catch let e as HTTPClientError
                where attempt > 0 && e.code == LedgerError.duplicate(hash: "").code
            {
                // A node tried before took it and stopped (or lost its database) before it
                // answered: the chain has it.
                return SubmissionResult(hash: tx.hash, status: .pending)
            }
        }
    }

    /// Submits up to 5000 signed transactions in one request; one result per transaction, in order.
    /// - Parameter batch: signed transactions, at most 5000.
    /// - Returns: each one's hash, status or rejection code.
    /// - Throws: `LedgerClientError` when the whole request fails (too large, node unreachable).
    public func submit(batch: [Transaction]) async throws(LedgerClientError) -> [SubmissionResult] {
        try await call { http in
            try await http.post(
                "/v1/transactions/batch", json: BatchSubmission(transactions: batch),
                as: BatchSubmissionResult.self
            ).results
        }
    }

    /// Submits transactions in the binary batch form (no JSON either way); returns how many were
    /// accepted and the rejected ones by position.
    /// - Parameter txs: signed transactions, at most 5000.
    /// - Returns: the accepted count and each rejection by position.
    /// - Throws: `LedgerClientError` when the whole request fails.
    public func submit(binaryBatch txs: [Transaction]) async throws(LedgerClientError) -> CompactBatchResult {
        let body = BinaryBatch.encode(txs)
        return try await call { http in
            try await http.send(.post, "/v1/transactions/batch", body: body, contentType: BinaryBatch.contentType)
                .decode(CompactBatchResult.self)
        }
    }

    /// Devnets only: moves the ledger clock forward (faucet windows, expirations).
    /// - Parameter seconds: how far to move it.
    /// - Returns: the ledger's new time.
    /// - Throws: `LedgerClientError`; `.notFound` on a node that does not allow time travel.
    public func advanceClock(seconds: Int64) async throws(LedgerClientError) -> ClockView {
        try await call { http in try await http.post("/v1/devnet/time", json: ClockAdvance(advanceSeconds: seconds), as: ClockView.self) }
    }

    // MARK: explorer

    /// The node's explorer page of a transaction.
    /// - Parameter hash: the transaction's hash.
    public func explorerURL(transaction hash: String) -> URL { baseURL.appendingPathComponent("explorer/tx/\(hash)") }
    /// The node's explorer page of an account.
    /// - Parameter clientID: the account.
    public func explorerURL(account clientID: String) -> URL { baseURL.appendingPathComponent("explorer/account/\(clientID)") }
    /// The node's explorer page of a block.
    /// - Parameter round: the block's round.
    public func explorerURL(round: UInt64) -> URL { baseURL.appendingPathComponent("explorer/block/\(round)") }
}

/// Which of a client's nodes to try first: the one that answered last.
private final class NodePreference: Sendable {
    let index = Mutex(0)
}
