import Foundation
import MosaicHTTP
import MosaicHTTPServer
import MosaicLedger
import MosaicProtocol

extension NodeServer {
    /// Longest long poll a client may ask for; a request never hangs longer.
    static let maxWaitSeconds = 60.0
    /// Farthest a devnet clock may be moved in one call: 100 years.
    static let maxClockAdvance: Int64 = 100 * 365 * 86_400

    /// A signed transaction as JSON (docs/PROTOCOL.md §2).
    static let transactionSchema = JSONSchema.object([
        ("hash", .hex64), ("client_id", .hex64), ("public_key", .hex64), ("to_client_id", .hex64),
        ("value", .unsigned), ("fee", .unsigned), ("nonce", .unsigned),
        ("transaction_type", .string(choices: TransactionType.allCases.map(\.rawValue))),
        ("transaction_data", .string(maxLength: Transaction.maxDataBytes)),
        ("creation_date", .integer(Int64.min...Int64.max)),
        ("chain_id", .string(maxLength: 64)),
        ("signature", .string(maxLength: 128, pattern: "^[0-9a-f]{128}$")),
    ])

    func registerAPI() {
        let ledger = self.ledger
        let blockTimeMillis = self.blockTimeMillis
        let freeLimiter = self.freeLimiter
        let publicURL = configuration.publicURL

        http.route(
            .get, "/v1/network", summary: "Network parameters: chain id, symbol, decimals, fees, block time, USD rate",
            response: "NetworkInfo"
        ) { _ in
            var info = ledger.networkInfo
            info.blockTimeMillis = blockTimeMillis
            info.publicURL = publicURL
            return try .json(info)
        }

        http.route(
            .post, "/v1/transactions", summary: "Submit one signed transaction",
            description: "202 {hash, status: pending} when accepted into the pool; a rejection changes no state.",
            body: .json(NodeServer.transactionSchema), statuses: [202], response: "SubmissionResult", errors: [409, 429]
        ) { req in
            let tx = try NodeServer.decodeBody(req, Transaction.self)
            try NodeServer.mapped { () throws(LedgerError) in
                if ledger.isFeeExempt(tx) { try freeLimiter.admit(req.remoteAddress) }
                try ledger.submit(tx)
            }
            return try .json(SubmissionResult(hash: tx.hash), status: 202)
        }

        http.route(
            .post, "/v1/transactions/batch", summary: "Submit up to 5000 signed transactions in one request",
            description: """
                JSON {"transactions":[…]} answers one result per transaction in order. With Content-Type \
                application/octet-stream the body is binary (per transaction: u32 length, canonical signing \
                bytes, 64 signature bytes) and the answer lists only the rejected ones. Signatures verify on all cores.
                """,
            body: RequestBody(content: [
                ("application/json", .object([("transactions", .array(NodeServer.transactionSchema, maxItems: BatchSubmission.maxCount))])),
                (BinaryBatch.contentType, .string()),
            ]),
            statuses: [202], response: "BatchSubmissionResult or CompactBatchResult", bodyLimit: 32 << 20
        ) { req in
            let binary = (req.headers["Content-Type"] ?? "").hasPrefix(BinaryBatch.contentType)
            let txs: [Transaction]
            if binary {
                txs = try NodeServer.mapped { () throws(LedgerError) in try BinaryBatch.decode(req.body) }
            } else {
                txs = try NodeServer.decodeBody(req, BatchSubmission.self).transactions
            }
            guard txs.count <= BatchSubmission.maxCount else {
                throw HTTPError.badRequest(
                    "a batch holds at most \(BatchSubmission.maxCount) transactions; got \(txs.count)", code: "malformed")
            }
            let free = txs.count(where: ledger.isFeeExempt)
            try NodeServer.mapped { () throws(LedgerError) in try freeLimiter.admit(req.remoteAddress, count: free) }
            let errors = ledger.submit(txs)
            if binary {
                var rejected: [CompactBatchResult.Rejected] = []
                for (i, e) in errors.enumerated() {
                    if let e { rejected.append(.init(index: i, hash: txs[i].hash, code: e.code, message: e.description)) }
                }
                return try .json(CompactBatchResult(accepted: txs.count - rejected.count, rejected: rejected), status: 202)
            }
            let results = zip(txs, errors).map { tx, e in
                e.map { SubmissionResult(hash: tx.hash, status: nil, error: .init(code: $0.code, message: $0.description)) }
                    ?? SubmissionResult(hash: tx.hash)
            }
            return try .json(BatchSubmissionResult(results: results), status: 202)
        }

        http.route(
            .get, "/v1/transactions/:hash", summary: "A transaction with its status and receipt; optionally a long poll",
            parameters: [NodeParameters.transactionHash, NodeParameters.wait, NodeParameters.timeout],
            response: "TransactionView", errors: [404]
        ) { req in
            let hash = try req[NodeParameters.transactionHash]
            if let status = try req[NodeParameters.wait] {
                // Declared within 0…60 s, so the milliseconds always fit.
                let seconds = try req[NodeParameters.timeout]
                _ = await ledger.wait(for: hash, until: status, timeout: .milliseconds(Int64(seconds * 1000)))
            }
            guard let record = try NodeServer.mapped({ () throws(LedgerError) in try ledger.transaction(hash) }) else {
                throw HTTPError.notFound("transaction \(hash) not found: this node never accepted it (check the hash, or submit it)")
            }
            return try .json(TransactionView(record))
        }

        http.route(
            .get, "/v1/accounts/:client_id", summary: "Balance, nonce and next nonce of an account",
            parameters: [NodeParameters.clientID], response: "AccountView"
        ) { req in
            let id = try req[NodeParameters.clientID]
            return try .json(try NodeServer.mapped { () throws(LedgerError) in try NodeServer.accountView(ledger, id) })
        }

        http.route(
            .get, "/v1/accounts/:client_id/transactions", summary: "An account's transactions, sent and received, newest first",
            parameters: [NodeParameters.clientID, NodeParameters.historyLimit, NodeParameters.offset],
            response: "TransactionPage"
        ) { req in
            let id = try req[NodeParameters.clientID]
            let limit = try req[NodeParameters.historyLimit]
            let offset = try req[NodeParameters.offset]
            return try .json(
                try NodeServer.mapped { () throws(LedgerError) in
                    try NodeServer.history(ledger, id, limit: limit, offset: offset)
                })
        }

        http.route(
            .get, "/v1/faucet/:client_id", summary: "Whether an account can pour from the faucet now, and if not when",
            parameters: [NodeParameters.clientID], response: "FaucetView"
        ) { req in
            let id = try req[NodeParameters.clientID]
            let now = ledger.clock.now
            return try .json(
                try NodeServer.mapped { () throws(LedgerError) in
                    try ledger.read("faucet", as: FaucetContract.self) { faucet, state throws(ContractError) in
                        try faucet.status(of: id, state: state, now: now)
                    }
                })
        }

        http.route(
            .get, "/v1/blocks", summary: "Recent blocks, newest first",
            parameters: [NodeParameters.before, NodeParameters.blocksLimit],
            response: "{\"blocks\":[BlockView…]}"
        ) { req in
            let limit = try req[NodeParameters.blocksLimit]
            let before = try req[NodeParameters.before]
            let latest = ledger.latestBlock.round
            let blocks = try NodeServer.mapped { () throws(LedgerError) in try ledger.blocks(before: before, limit: limit) }
            return try .json([
                "blocks": blocks.map {
                    BlockView(block: $0, transactions: nil, confirmations: NodeServer.blocksAfter($0.round, latest: latest))
                }
            ])
        }

        http.route(.get, "/v1/blocks/latest", summary: "The last committed block", response: "BlockView") { _ in
            let b = ledger.latestBlock
            return try .json(try NodeServer.blockView(ledger, b))
        }

        http.route(
            .get, "/v1/blocks/:id", summary: "A block by round or hash, with its transaction hashes",
            parameters: [NodeParameters.block], response: "BlockView", errors: [404]
        ) { req in
            let id = try req[NodeParameters.block]
            guard let b = try NodeServer.mapped({ () throws(LedgerError) in try NodeServer.findBlock(ledger, id) }) else {
                throw HTTPError.notFound("block \(try req.param("id")) not found")
            }
            return try .json(try NodeServer.blockView(ledger, b))
        }

        http.route(
            .get, "/v1/blocks/:id/transactions", summary: "A block's transactions in block order, with their receipts",
            description: "Signed fields and receipts, as GET /v1/transactions/{hash} shows them: what `mosaic node verify` re-executes.",
            parameters: [NodeParameters.block, NodeParameters.historyLimit, NodeParameters.offset],
            response: "{\"transactions\":[TransactionView…]}", errors: [404]
        ) { req in
            let id = try req[NodeParameters.block]
            let limit = try req[NodeParameters.historyLimit]
            let offset = try req[NodeParameters.offset]
            let records = try NodeServer.mapped { () throws(LedgerError) -> [TransactionRecord]? in
                guard let b = try NodeServer.findBlock(ledger, id) else { return nil }
                return try ledger.transactions(inRound: b.round, limit: limit, offset: offset)
            }
            guard let records else { throw HTTPError.notFound("block \(try req.param("id")) not found") }
            return try .json(["transactions": records.map(TransactionView.init)])
        }

        http.route(
            .get, "/v1/genesis", summary: "The genesis this chain started from: its parameters, contracts and block producers",
            description: "With it and the blocks, anyone can re-execute the chain (`mosaic node verify --from URL`)."
        ) { _ in
            try .json(ledger.genesis)
        }

        http.route(
            .get, "/v1/supply", summary: "Total supply and the sum of all balances (they are always equal)",
            response: "SupplyReport"
        ) { _ in
            let s = try NodeServer.mapped { () throws(LedgerError) in try ledger.supply() }
            return try .json(SupplyView(totalSupply: s.totalSupply, balanceSum: s.balanceSum, faucetRemaining: s.faucetRemaining))
        }

        http.route(.get, "/health", summary: "Liveness: latest round, pool size and whether this node makes the blocks") { _ in
            let b = ledger.latestBlock
            return try .json(
                HealthView(
                    latestRound: b.round, pending: ledger.pendingCount,
                    productionError: ledger.lastProductionError?.description, producer: ledger.isProducer))
        }

        if configuration.allowTimeTravel {
            http.route(
                .post, "/v1/devnet/time", summary: "Devnet only: move the ledger clock forward",
                description: "For trying time windows (faucet limits, expirations) without waiting. Absent on real networks.",
                body: .json(.object([("advance_seconds", .integer(0...NodeServer.maxClockAdvance))])),
                response: "{\"time\",\"offset_seconds\"}"
            ) { req in
                let body = try req.decodeJSON(ClockAdvance.self)
                guard body.advanceSeconds >= 0, body.advanceSeconds <= NodeServer.maxClockAdvance else {
                    throw HTTPError.badRequest("advance_seconds must be between 0 and 100 years", code: "malformed")
                }
                try NodeServer.mapped { () throws(LedgerError) in try ledger.advanceClock(by: body.advanceSeconds) }
                return try .json(ClockView(time: ledger.clock.now, offsetSeconds: ledger.clock.offsetSeconds))
            }
        }
    }

    // MARK: helpers shared with the explorer

    /// Blocks committed after `round`; zero when a block newer than the `latest` read earlier
    /// was fetched meanwhile (reads are not one snapshot, so never subtract unchecked).
    static func blocksAfter(_ round: UInt64, latest: UInt64) -> UInt64 { latest > round ? latest - round : 0 }

    /// Runs a ledger call, turning its error into the API's `{"error":{code,message}}` answer.
    static func mapped<T>(_ body: () throws(LedgerError) -> T) throws(HTTPError) -> T {
        do { return try body() } catch {
            // A 503 says when to come back: the database is restarting or out of reach.
            let headers = error.httpStatus == 503 ? ["Retry-After": "1"] : [:]
            throw HTTPError(status: error.httpStatus, code: error.code, message: error.description, headers: headers)
        }
    }

    /// JSON bodies that do not decode are `malformed` submissions, like any other bad field
    /// (docs/PROTOCOL.md §2.3), with the decoder's note on what is wrong.
    static func decodeBody<T: Decodable>(_ req: HTTPRequest, _ type: T.Type) throws -> T {
        do { return try req.decodeJSON(T.self) } catch let e as HTTPError where e.code == "invalid_json" {
            throw HTTPError.badRequest("malformed transaction: \(e.message)", code: "malformed")
        }
    }

    static func accountView(_ ledger: Ledger, _ id: String) throws(LedgerError) -> AccountView {
        let a = try ledger.account(id)
        let next = try ledger.nextNonce(for: id)
        let pending = try ledger.pendingTransactions(of: id).count
        return AccountView(clientID: id, balance: a.balance, nonce: a.nonce, nextNonce: next, pendingCount: pending, round: a.round)
    }

    /// Pending transactions of the sender first (newest nonce first), then included ones newest first.
    /// Safe for any `limit` and `offset` (negative ones count as 0; no sum overflows).
    static func history(_ ledger: Ledger, _ id: String, limit asked: Int, offset skipped: Int) throws(LedgerError) -> TransactionPage {
        let limit = max(0, asked)
        let offset = max(0, skipped)
        let pending = try ledger.pendingTransactions(of: id).reversed().map { TransactionView(transaction: $0, status: .pending) }
        let included = try ledger.transactionCount(of: id)
        var page: [TransactionView] = []
        if offset < pending.count { page = Array(pending[offset..<(offset + min(limit, pending.count - offset))]) }
        let rest = limit - page.count
        if rest > 0 {
            let skip = max(0, offset - pending.count)
            page += try ledger.transactions(of: id, limit: rest, offset: skip).map(TransactionView.init)
        }
        return TransactionPage(transactions: page, total: pending.count + included, limit: limit, offset: offset)
    }

    static func findBlock(_ ledger: Ledger, _ id: BlockReference) throws(LedgerError) -> Block? {
        switch id {
        case .round(let round): return try ledger.block(round: round)
        case .hash(let hash): return try ledger.block(hash: hash)
        }
    }

    static func blockView(_ ledger: Ledger, _ b: Block) throws(HTTPError) -> BlockView {
        let txs = try mapped { () throws(LedgerError) in try ledger.transactions(inRound: b.round, limit: 5000) }
        return BlockView(
            block: b, transactions: txs.map(\.transaction.hash), confirmations: blocksAfter(b.round, latest: ledger.latestBlock.round))
    }
}
