import Foundation
import MosaicHTTP
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
            return try AppServer.json([
                "balance": b.baseUnits, "tokens": b.tokens, "usd": b.usd, "usd_per_token": b.usdPerToken,
                "symbol": b.symbol, "nonce": b.nonce, "round": b.round,
            ])
        }

        api(.post, "/api/faucet", summary: "Ask the faucet for tokens", access: .wallet) { [self] req in
            let wallet = try ledgerWallet(req)
            let tx = try await mapWallet { try await wallet.faucet() }
            return try AppServer.json(["hash": tx.hash], status: 202)
        }

        api(.post, "/api/send", summary: "Send tokens to a client id", access: .wallet) { [self] req in
            let body = try req.decode(SendBody.self)
            let wallet = try ledgerWallet(req)
            let tx = try await mapWallet {
                try await wallet.send(to: body.to.trimmingCharacters(in: .whitespaces), amount: body.amount.trimmingCharacters(in: .whitespaces),
                                      description: body.description ?? "")
            }
            return try AppServer.json(["hash": tx.hash], status: 202)
        }

        api(.get, "/api/transactions", summary: "The wallet's transactions, newest first", access: .wallet) { [self] req in
            let wallet = try ledgerWallet(req)
            let limit = min(max(Int(req.http.query["limit"] ?? "20") ?? 20, 1), 100)
            let offset = max(Int(req.http.query["offset"] ?? "0") ?? 0, 0)
            let page = try await mapWallet { try await wallet.transactions(limit: limit, offset: offset) }
            return try AppServer.json([
                "transactions": page.transactions.map { AppServer.txJSON($0, client: wallet.client) },
                "total": page.total,
            ])
        }

        api(.get, "/api/transactions/:hash", summary: "One transaction with every detail", access: .wallet) { [self] req in
            let wallet = try ledgerWallet(req)
            let hash = try req.http.param("hash")
            let view = try await mapWallet { try await wallet.client.transaction(hash) }
            return try AppServer.json(AppServer.txJSON(view, client: wallet.client))
        }

        api(.get, "/api/transactions/:hash/wait", summary: "Long poll until a transaction reaches a status", access: .wallet) { [self] req in
            let wallet = try ledgerWallet(req)
            let hash = try req.http.param("hash")
            let until = TransactionStatus(rawValue: req.http.query["until"] ?? "sealed") ?? .sealed
            let timeout = min(max(Int(req.http.query["timeout"] ?? "30") ?? 30, 1), 60)
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
        let description = t.transactionType == .transfer ? t.transactionData : (call.map { "\($0.contract).\($0.method)" } ?? "contract call")
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
            "outcome": v.outcome?.rawValue ?? NSNull(), "error": v.error ?? NSNull(),
            "value": t.value, "fee": t.fee, "tokens": TokenAmount(baseUnits: t.value).description,
            "fee_tokens": TokenAmount(baseUnits: t.fee).description,
            "type": t.transactionType.rawValue, "description": description,
            "data": t.transactionType == .transfer ? "" : t.transactionData,
            "nonce": t.nonce, "creation_date": t.creationDate, "confirmations": v.confirmations,
            "explorer_url": client.explorerURL(transaction: t.hash).absoluteString,
        ]
    }

    /// Wallet failures as HTTP answers carrying the SDK's code and message.
    func mapWallet<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let e as LedgerClientError {
            return try await mapWallet { () throws -> T in throw WalletError.node(e) }
        } catch let error as WalletError {
            switch error {
            case .invalidAmount, .invalidAddress, .zeroAmount, .insufficientBalance, .ownWallet, .invalidDescription:
                throw HTTPError.unprocessable(error.description, code: error.code)
            case .faucetLimited:
                throw HTTPError(status: 429, code: error.code, message: error.description)
            case .unknownTransaction:
                throw HTTPError.notFound(error.description, code: error.code)
            case let .node(e):
                if e.code == "not_found" { throw HTTPError.notFound(error.description, code: e.code) }
                if e.code == "unreachable" || e.code == "network" {
                    throw HTTPError.unavailable("the node at \((try? networkState.current().node) ?? "?") cannot be reached: \(e.description)")
                }
                throw HTTPError(status: 502, code: e.code, message: error.description)
            default:
                throw HTTPError(status: 409, code: error.code, message: error.description)
            }
        }
    }
}
