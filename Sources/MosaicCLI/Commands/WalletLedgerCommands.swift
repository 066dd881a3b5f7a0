import Foundation
import MosaicProtocol
import MosaicSDK

/// Wallet commands that talk to a ledger node (balance, faucet, send, history). The wallet is the
/// default one or `--wallet NAME`; the network the current one or `--network NAME`. Reads need
/// only the wallet's public half; writes unlock it with the passphrase.
enum WalletLedgerCommands {
    static let all: [Command] = [balance, faucet, send, txns, tx]

    static let balance = Command(
        name: "balance", summary: "show the wallet's balance in tokens and USD",
        examples: ["mosaic wallet balance", "mosaic wallet balance --wallet savings --json"],
        action: { inv in
            let ctx = try LedgerContext(inv)
            let w = ctx.readOnlyWallet()
            let b = try await w.balance()
            let text = """
                \(b.tokens) \(b.symbol)  ($\(b.usd) at $\(b.usdPerToken) per \(b.symbol))
                wallet \(ctx.walletName) (\(b.clientID)) on \(ctx.network.name)
                """
            return CommandOutput(
                text: text,
                json: try .output(b, before: [("wallet", .string(ctx.walletName))], after: [("network", .string(ctx.network.name))]))
        })

    static let faucet = Command(
        name: "faucet", summary: "receive test tokens from the network's faucet",
        examples: ["mosaic wallet faucet", "mosaic wallet faucet --no-wait --json"],
        options: WaitOptions.self,
        action: { o, inv in
            let ctx = try LedgerContext(inv)
            let wallet = try ctx.unlockedWallet()
            let tx = try await wallet.faucet()
            let (view, status) = try await ctx.waitIfAsked(wallet, tx, o)
            let b = try await wallet.balance()
            var text = ctx.report(tx: tx, view: view, status: status, headline: "faucet pour submitted")
            text += "\nbalance: \(b.tokens) \(b.symbol) ($\(b.usd))"
            return CommandOutput(
                text: text,
                json: try ctx.viewJSON(
                    tx, view: view, status: status, extra: [("balance", .unsigned(b.baseUnits)), ("balance_tokens", .string(b.tokens))]))
        })

    static let send = Command(
        name: "send", summary: "send tokens to another wallet",
        discussion: "Checked before anything is broadcast: the amount, the address, zero amounts, the balance and sending to yourself.",
        examples: ["mosaic wallet send --to 3c2580b8…7801 --amount 1.5", "mosaic wallet send --to ID --amount 0.25 --desc lunch --json"],
        options: SendOptions.self,
        action: { o, inv in
            let ctx = try LedgerContext(inv)
            let wallet = try ctx.unlockedWallet()
            let tx = try await wallet.send(to: o.to, amount: o.amount, fee: o.fee, description: o.desc ?? "")
            let (view, status) = try await ctx.waitIfAsked(wallet, tx, o.wait)
            let info = try await wallet.networkInfo()
            let headline =
                "sent \(TokenAmount(baseUnits: tx.value)) \(info.symbol) to \(tx.toClientID) (fee \(TokenAmount(baseUnits: tx.fee)))"
            return CommandOutput(
                text: ctx.report(tx: tx, view: view, status: status, headline: headline),
                json: try ctx.viewJSON(tx, view: view, status: status))
        })

    /// The amount and fee stay text: the SDK's `send` checks them, with the words the app shows too.
    struct SendOptions: CommandOptions {
        @Option("to", "CLIENT_ID", help: "recipient's client id (64 hex characters)") var to: String
        @Option("amount", "TOKENS", help: "amount in tokens, e.g. 1.5") var amount: String
        @Option("fee", "TOKENS", help: "fee in tokens (default: the network's minimum fee)") var fee: String?
        @Option("desc", "TEXT", help: "a description stored with the transaction") var desc: String?
        var wait = WaitOptions()
    }

    struct HistoryOptions: CommandOptions {
        @Option("limit", "N", help: "how many (default 20, at most 1000)") var limit = HistoryLimit(value: 20)
        @Option("offset", "N", help: "skip the newest N") var offset = PageOffset(value: 0)
    }

    struct ShowOptions: CommandOptions {
        @Option("wait", help: "wait until finalized or sealed") var wait: WaitTarget?
        @Option("timeout", "DURATION", help: "how long to wait (default 60s)") var timeout: Interval?
    }

    static let txns = Command(
        name: "txns", summary: "list the wallet's transactions, newest first",
        examples: ["mosaic wallet txns", "mosaic wallet txns --limit 50 --offset 50 --json"],
        options: HistoryOptions.self,
        action: { o, inv in
            let limit = o.limit.value
            let offset = o.offset.value
            let ctx = try LedgerContext(inv)
            let w = ctx.readOnlyWallet()
            let page = try await w.transactions(limit: limit, offset: offset)
            let info = try await w.networkInfo()
            var table = Table(["HASH", "DATE (UTC)", "DIRECTION", "AMOUNT", "FEE", "STATUS", "BLOCK"])
            for v in page.transactions {
                let t = v.transaction
                let direction: String
                let sign: String
                if t.transactionType == .contractCall {
                    direction = "call"
                    sign = ""
                } else if t.clientID == w.clientID && t.toClientID != w.clientID {
                    direction = "out"
                    sign = "-"
                } else {
                    direction = "in"
                    sign = "+"
                }
                var amount = sign + TokenAmount(baseUnits: t.value).description
                if t.transactionType == .contractCall, let out = v.output, !out.isEmpty, v.outcome == .success { amount = out }
                let state = v.outcome == .failure ? "failed" : v.status.rawValue
                table.add([
                    String(t.hash.prefix(16)) + "…", UTCTime.dateTime(t.creationDate), direction, amount,
                    TokenAmount(baseUnits: t.fee).description, state, v.round.map { "#\($0)" } ?? "-",
                ])
            }
            var text =
                page.transactions.isEmpty
                ? (offset == 0
                    ? "no transactions yet; get tokens with 'mosaic wallet faucet'"
                    : "no transactions at offset \(offset) (there are \(page.total))")
                : table.rendered()
                    + "\nshowing \(offset + 1)–\(offset + page.transactions.count) of \(page.total) · amounts in \(info.symbol)"
            if offset + page.transactions.count < page.total { text += " · next page: --offset \(offset + page.transactions.count)" }
            return CommandOutput(
                text: text,
                json: .object([
                    ("client_id", .string(w.clientID)), ("total", .integer(Int64(page.total))), ("limit", .integer(Int64(limit))),
                    ("offset", .integer(Int64(offset))), ("transactions", .array(try page.transactions.map { try ctx.viewJSON($0) })),
                ]))
        })

    static let tx = Command(
        name: "tx", summary: "show a transaction (optionally waiting until it is finalized or sealed)",
        usage: "HASH", examples: ["mosaic wallet tx 61708db6…267f", "mosaic wallet tx HASH --wait sealed --json"],
        options: ShowOptions.self, arguments: ["HASH"], minArguments: 1, maxArguments: 1,
        action: { o, inv in
            let hash = inv.arguments[0].lowercased()
            guard Transaction.isHexID(hash) else {
                throw CLIError.usage("'\(inv.arguments[0])' is not a transaction hash (64 hex characters)")
            }
            let ctx = try LedgerContext(inv, needsWallet: false)
            let view: TransactionView
            if let target = o.wait?.status {
                let timeout = o.timeout?.duration ?? .seconds(60)
                do { view = try await Wallet.wait(client: ctx.client, for: hash, until: target, timeout: timeout) } catch let error
                    as WalletError
                {
                    // Failures and expiry are facts about the transaction: show them, then fail.
                    if case .failed = error, let v = try? await ctx.client.transaction(hash) {
                        Console.out(ctx.details(v) + "\n")
                    }
                    throw error
                }
            } else {
                do { view = try await ctx.client.transaction(hash) } catch let error as LedgerClientError {
                    if case .notFound = error { throw WalletError.unknownTransaction(hash: hash) }
                    throw error
                }
            }
            return CommandOutput(text: ctx.details(view), json: try ctx.viewJSON(view))
        })
}
