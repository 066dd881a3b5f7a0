import Foundation
import MosaicProtocol
import MosaicSDK

/// Wallet commands that talk to a ledger node (balance, faucet, send, history). The wallet is the
/// default one or `--wallet NAME`; the network the current one or `--network NAME`. Reads need
/// only the wallet's public half; writes unlock it with the passphrase.
enum WalletLedgerCommands {
    static let all: [Command] = [balance, faucet, send, txns, tx]

    static let waitFlags: [Flag] = [
        .toggle("no-wait", "return once the node accepted the transaction instead of waiting until it is sealed"),
        .option("timeout", "DURATION", "how long to wait for sealing (default 60s)"),
    ]

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
            return CommandOutput(text: text, json: balanceJSON(b, wallet: ctx.walletName, network: ctx.network.name))
        })

    static let faucet = Command(
        name: "faucet", summary: "receive test tokens from the network's faucet",
        examples: ["mosaic wallet faucet", "mosaic wallet faucet --no-wait --json"],
        flags: waitFlags,
        action: { inv in
            let ctx = try LedgerContext(inv)
            let wallet = try ctx.unlockedWallet()
            let tx = try await wallet.faucet()
            let (view, status) = try await ctx.waitIfAsked(wallet, tx)
            let b = try await wallet.balance()
            var text = ctx.report(tx: tx, view: view, status: status, headline: "faucet pour submitted")
            text += "\nbalance: \(b.tokens) \(b.symbol) ($\(b.usd))"
            return CommandOutput(
                text: text,
                json: .object(
                    ctx.txFields(tx, view: view, status: status) + [
                        ("balance", .uint(b.baseUnits)), ("balance_tokens", .string(b.tokens)),
                    ]))
        })

    static let send = Command(
        name: "send", summary: "send tokens to another wallet",
        discussion: "Checked before anything is broadcast: the amount, the address, zero amounts, the balance and sending to yourself.",
        examples: ["mosaic wallet send --to 3c2580b8…7801 --amount 1.5", "mosaic wallet send --to ID --amount 0.25 --desc lunch --json"],
        flags: [
            .option("to", "CLIENT_ID", "recipient's client id (64 hex characters)"),
            .option("amount", "TOKENS", "amount in tokens, e.g. 1.5"),
            .option("fee", "TOKENS", "fee in tokens (default: the network's minimum fee)"),
            .option("desc", "TEXT", "a description stored with the transaction"),
        ] + waitFlags,
        action: { inv in
            let to = try inv.required("to")
            let amount = try inv.required("amount")
            let ctx = try LedgerContext(inv)
            let wallet = try ctx.unlockedWallet()
            let tx = try await wallet.send(to: to, amount: amount, fee: inv.value("fee"), description: inv.value("desc") ?? "")
            let (view, status) = try await ctx.waitIfAsked(wallet, tx)
            let info = try await wallet.networkInfo()
            let headline =
                "sent \(TokenAmount(baseUnits: tx.value)) \(info.symbol) to \(tx.toClientID) (fee \(TokenAmount(baseUnits: tx.fee)))"
            return CommandOutput(
                text: ctx.report(tx: tx, view: view, status: status, headline: headline),
                json: .object(ctx.txFields(tx, view: view, status: status)))
        })

    static let txns = Command(
        name: "txns", summary: "list the wallet's transactions, newest first",
        examples: ["mosaic wallet txns", "mosaic wallet txns --limit 50 --offset 50 --json"],
        flags: [.option("limit", "N", "how many (default 20, at most 1000)"), .option("offset", "N", "skip the newest N")],
        action: { inv in
            let limit = try number(inv.value("limit"), flag: "limit", default: 20, max: 1000)
            let offset = try number(inv.value("offset"), flag: "offset", default: 0, max: Int(Int32.max))
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
                    String(t.hash.prefix(16)) + "…", shortDate(t.creationDate), direction, amount,
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
                    ("client_id", .string(w.clientID)), ("total", .int(Int64(page.total))), ("limit", .int(Int64(limit))),
                    ("offset", .int(Int64(offset))), ("transactions", .array(page.transactions.map { ctx.viewJSON($0) })),
                ]))
        })

    static let tx = Command(
        name: "tx", summary: "show a transaction (optionally waiting until it is finalized or sealed)",
        usage: "HASH", examples: ["mosaic wallet tx 61708db6…267f", "mosaic wallet tx HASH --wait sealed --json"],
        flags: [
            .option("wait", "STATUS", "wait until finalized or sealed"), .option("timeout", "DURATION", "how long to wait (default 60s)"),
        ],
        arguments: ["HASH"], minArguments: 1, maxArguments: 1,
        action: { inv in
            let hash = inv.arguments[0].lowercased()
            guard Transaction.isHexID(hash) else {
                throw CLIError.usage("'\(inv.arguments[0])' is not a transaction hash (64 hex characters)")
            }
            let ctx = try LedgerContext(inv, needsWallet: false)
            let view: TransactionView
            if let w = inv.value("wait") {
                guard let target = TransactionStatus(rawValue: w), target == .finalized || target == .sealed else {
                    throw CLIError.usage("--wait \(w): use finalized or sealed")
                }
                let timeout = try ctx.timeout()
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
            return CommandOutput(text: ctx.details(view), json: ctx.viewJSON(view))
        })

    static func balanceJSON(_ b: Balance, wallet: String, network: String) -> JSONValue {
        .object([
            ("wallet", .string(wallet)), ("client_id", .string(b.clientID)), ("balance", .uint(b.baseUnits)),
            ("tokens", .string(b.tokens)), ("usd", .string(b.usd)), ("usd_per_token", .string(b.usdPerToken)),
            ("symbol", .string(b.symbol)), ("nonce", .uint(b.nonce)), ("round", .uint(b.round)), ("network", .string(network)),
        ])
    }

    static func number(_ text: String?, flag: String, default value: Int, max: Int) throws -> Int {
        guard let text else { return value }
        guard let n = Int(text), n >= 0, n <= max else { throw CLIError.usage("--\(flag) \(text): give a whole number from 0 to \(max)") }
        return n
    }

    static func shortDate(_ unix: Int64) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return f.string(from: Date(timeIntervalSince1970: TimeInterval(unix)))
    }
}
