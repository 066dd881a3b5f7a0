import Foundation
import MosaicHTTP
import MosaicHTTPServer
import MosaicProtocol
import MosaicSDK

/// Bolt: balance, faucet, send and history, over the SDK's `Wallet` (signing stays here).
extension AppServer {
    struct SendBody: Decodable {
        let to: String
        let amount: String
        let description: String?
    }

    func registerBoltRoutes() {
        api(.get, "/api/balance", summary: "The wallet's balance in tokens and USD", access: .wallet) { [self] req in
            let wallet = try ledgerWallet(req)
            let b = try await mapWallet { try await wallet.balance() }
            let info = try await mapWallet { try await wallet.networkInfo() }
            // The fee of a send, so the page shows it before sending and offers "Max" (balance − fee).
            return try AppServer.json([
                "balance": b.baseUnits, "tokens": b.tokens, "usd": b.usd, "usd_per_token": b.usdPerToken,
                "symbol": b.symbol, "nonce": b.nonce, "round": b.round,
                "fee": info.minimumFee, "fee_tokens": TokenAmount(baseUnits: info.minimumFee).description,
                "faucet_tokens": TokenAmount(baseUnits: info.faucetPourAmount).description,
            ])
        }

        api(.post, "/api/faucet", summary: "Ask the faucet for tokens", access: .wallet, statuses: [202], errors: [409, 422, 429]) {
            [self] req in
            let wallet = try ledgerWallet(req)
            let tx = try await mapWallet { try await wallet.faucet() }
            return try AppServer.json(["hash": tx.hash], status: 202)
        }

        api(
            .post, "/api/send", summary: "Send tokens to a client id", access: .wallet,
            body: .json(
                .object(
                    [("to", .string(maxLength: 128)), ("amount", .string(maxLength: 64)), ("description", .string(maxLength: 1024))],
                    required: ["to", "amount"])),
            statuses: [202], errors: [409, 422]
        ) { [self] req in
            let body = try req.decode(SendBody.self)
            let wallet = try ledgerWallet(req)
            let tx = try await mapWallet {
                try await wallet.send(
                    to: body.to.trimmingCharacters(in: .whitespaces), amount: body.amount.trimmingCharacters(in: .whitespaces),
                    description: body.description ?? "")
            }
            return try AppServer.json(["hash": tx.hash], status: 202)
        }

        api(
            .get, "/api/transactions", summary: "The wallet's transactions, newest first", access: .wallet,
            parameters: [AppParameters.limit, AppParameters.offset]
        ) { [self] req in
            let wallet = try ledgerWallet(req)
            let limit = try req.http[AppParameters.limit]
            let offset = try req.http[AppParameters.offset]
            let page = try await mapWallet { try await wallet.transactions(limit: limit, offset: offset) }
            return try AppServer.json([
                "transactions": page.transactions.map { AppServer.txJSON($0, client: wallet.client) },
                "total": page.total,
            ])
        }

        api(
            .get, "/api/transactions/:hash", summary: "One transaction with every detail", access: .wallet,
            parameters: [AppParameters.transactionHash], errors: [404]
        ) { [self] req in
            let wallet = try ledgerWallet(req)
            let hash = try req.http[AppParameters.transactionHash]
            let view = try await mapWallet { try await wallet.client.transaction(hash) }
            return try AppServer.json(AppServer.txJSON(view, client: wallet.client))
        }

        api(
            .get, "/api/transactions/:hash/wait", summary: "Long poll until a transaction reaches a status", access: .wallet,
            parameters: [AppParameters.transactionHash, AppParameters.until, AppParameters.timeout], errors: [404]
        ) { [self] req in
            let wallet = try ledgerWallet(req)
            let hash = try req.http[AppParameters.transactionHash]
            let until = try req.http[AppParameters.until]
            let timeout = try req.http[AppParameters.timeout]
            let view = try await mapWallet { try await wallet.client.transaction(hash, wait: until, timeout: .seconds(timeout)) }
            return try AppServer.json(AppServer.txJSON(view, client: wallet.client))
        }
    }

    /// The session's wallet on the current network (created on first use).
    func ledgerWallet(_ req: AppRequest) throws -> Wallet {
        if let w = req.session.ledgerWallet { return w }
        let unlocked = try req.wallet()
        let network = try mapConfig { try networkState.current() }
        let client = try mapConfig { try LedgerClient(network: network) }
        let wallet = Wallet(unlocked, client: client)
        sessions.update(req.session.id) { s in
            if s.wallet?.clientID == unlocked.clientID && s.ledgerWallet == nil { s.ledgerWallet = wallet }
        }
        return wallet
    }

    static func txJSON(_ v: TransactionView, client: LedgerClient) -> [String: Any] {
        let t = v.transaction
        let call = t.transactionType == .contractCall ? try? ContractCall.parse(t.transactionData) : nil
        let description =
            t.transactionType == .transfer ? t.transactionData : (call.map { "\($0.contract).\($0.method)" } ?? "contract call")
        // Tokens a contract paid out to the sender (a faucet pour), so the list can show "+1 MSC".
        var credited: UInt64 = 0
        for e in v.events ?? [] where e.attributes["to"] == t.clientID {
            credited &+= UInt64(e.attributes["amount"] ?? "") ?? 0
        }
        return [
            "credited": credited, "credited_tokens": TokenAmount(baseUnits: credited).description,
            "hash": t.hash, "block_hash": v.blockHash ?? NSNull(), "round": v.round.map { $0 as Any } ?? NSNull(),
            "output_hash": v.outputHash ?? NSNull(), "client_id": t.clientID, "to_client_id": t.toClientID,
            "signature": t.signature, "status": v.status.rawValue,
            "outcome": v.outcome?.rawValue ?? NSNull(),
            "error": v.error.map { ["code": $0.code, "message": $0.message] as [String: Any] } ?? NSNull(),
            "value": t.value, "fee": t.fee, "tokens": TokenAmount(baseUnits: t.value).description,
            "fee_tokens": TokenAmount(baseUnits: t.fee).description,
            "type": t.transactionType.rawValue, "description": description,
            "data": t.transactionType == .transfer ? "" : t.transactionData,
            "nonce": t.nonce, "creation_date": t.creationDate, "confirmations": v.confirmations,
            "explorer_url": client.explorerURL(transaction: t.hash).absoluteString,
        ]
    }

    /// A node's answer as the app's: the node's own 4xx (status, code and message) reaches the
    /// caller unchanged, so a refused request is never reported as a gateway failure. Only a node
    /// that cannot be reached (503) or fails itself (5xx, or an unreadable answer: 502) is the
    /// gateway's error. A node's 401 becomes 422: the app's 401 means "your session".
    static func httpError(node e: LedgerClientError, url: String) -> HTTPError {
        switch e {
        case .rejected(let code, let message, let status) where (400..<500).contains(status):
            return HTTPError(status: status == 401 ? 422 : status, code: code, message: message)
        case .rejected(let code, let message, let status):
            return HTTPError(status: 502, code: code, message: "the node at \(url) failed (status \(status)): \(message)")
        case .notFound:
            return HTTPError.notFound(e.description, code: e.code)
        case .unreachable:
            // Not the SDK's words: they suggest 'mosaic devnet', which a page cannot run.
            return HTTPError.unavailable(
                "The network's node at \(url) cannot be reached. Check that it is running, or switch to another network in Network Details."
            )
        case .invalidResponse:
            return HTTPError(status: 502, code: e.code, message: e.description)
        }
    }

    /// Wallet failures as HTTP answers carrying the SDK's code and message.
    func mapWallet<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let e as LedgerClientError {
            return try await mapWallet { () throws -> T in throw WalletError.node(e) }
        } catch let error as WalletError {
            switch error {
            case .invalidAddress:
                throw HTTPError.unprocessable("That is an invalid address: a client ID is 64 characters, 0-9 and a-f.", code: error.code)
            case .invalidAmount, .zeroAmount, .insufficientBalance, .ownWallet, .invalidDescription:
                throw HTTPError.unprocessable(error.description, code: error.code)
            case .faucetLimited:
                throw HTTPError(status: 429, code: error.code, message: error.description)
            case .unknownTransaction:
                throw HTTPError.notFound(error.description, code: error.code)
            case .node(let e):
                throw AppServer.httpError(node: e, url: (try? networkState.current().node) ?? "?")
            default:
                throw HTTPError(status: 409, code: error.code, message: error.description)
            }
        }
    }
}
