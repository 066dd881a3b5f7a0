import Foundation
import MosaicProtocol
import MosaicSDK

/// What a wallet command needs to reach the ledger: the network from the config (or
/// `--network`), a client for its node, and the wallet (default or `--wallet`).
struct LedgerContext {
    let inv: Invocation
    let network: ClientConfig.Network
    let client: LedgerClient
    let keystore: Keystore
    let walletName: String
    let stored: StoredWallet?

    init(_ inv: Invocation, needsWallet: Bool = true) throws {
        self.inv = inv
        network = try ClientConfig.load(home: inv.home).resolve(inv.global.network)
        client = try LedgerClient(network: network)
        keystore = Keystore(home: inv.home, environment: inv.environment)
        if needsWallet {
            walletName = try keystore.resolveName(inv.global.wallet)
            stored = try keystore.wallet(named: walletName)
        } else {
            walletName = ""
            stored = nil
        }
    }

    /// Signs nothing: only the public key is read (no passphrase).
    func readOnlyWallet() -> ReadOnlyWallet {
        ReadOnlyWallet(clientID: stored?.clientID ?? "", client: client)
    }

    /// Unlocks with `--passphrase-file`, `MOSAIC_PASSPHRASE` or a prompt.
    func unlockedWallet() throws -> Wallet {
        let passphrase = try PassphraseSource.resolve(
            passphraseFile: inv.global.passphraseFile, environment: inv.environment,
            prompt: "Passphrase for wallet \(walletName): ")
        return Wallet(try keystore.unlock(name: walletName, passphrase: passphrase), client: client)
    }

    /// Waits until sealed unless `--no-wait`; returns the view (nil when not waited) and the status.
    func waitIfAsked(_ wallet: Wallet, _ tx: Transaction, _ wait: WaitOptions) async throws -> (TransactionView?, TransactionStatus) {
        if wait.noWait { return (nil, .pending) }
        if !inv.json { Console.err("submitted \(tx.hash); waiting until it is sealed…\n") }
        let v = try await wallet.wait(for: tx.hash, until: .sealed, timeout: wait.duration)
        return (v, v.status)
    }

    func explorer(_ hash: String) -> String { client.explorerURL(transaction: hash).absoluteString }

    func report(tx: Transaction, view: TransactionView?, status: TransactionStatus, headline: String) -> String {
        var lines = [headline, "transaction: \(tx.hash)"]
        if let view, let round = view.round {
            lines.append("status:      \(status.rawValue) in block #\(round)\(view.output.map { $0.isEmpty ? "" : " (\($0))" } ?? "")")
        } else {
            lines.append("status:      \(status.rawValue) (check with 'mosaic wallet tx \(tx.hash) --wait sealed')")
        }
        lines.append("explorer:    \(explorer(tx.hash))")
        return lines.joined(separator: "\n")
    }

    /// A transaction as `--json` prints it: the node's `TransactionView` (every key of
    /// `GET /v1/transactions/{hash}`), then what the CLI adds: value and fee in tokens, the type
    /// and data under the names scripts read (`type`, `description`), the explorer link, and
    /// the command's own `extra` fields.
    func viewJSON(_ v: TransactionView, extra: JSONObject = [:]) throws -> JSONValue {
        let t = v.transaction
        var after: JSONObject = [
            ("tokens", .string(TokenAmount(baseUnits: t.value).description)),
            ("fee_tokens", .string(TokenAmount(baseUnits: t.fee).description)),
            ("type", .string(t.transactionType.rawValue)), ("description", .string(t.transactionData)),
            ("explorer_url", .string(explorer(t.hash))),
        ]
        for (key, value) in extra { after[key] = value }
        return try .output(v, after: after)
    }

    /// A submitted transaction: its view once waited for, else what is known (`status`, no block yet).
    func viewJSON(_ tx: Transaction, view: TransactionView?, status: TransactionStatus, extra: JSONObject = [:]) throws -> JSONValue {
        try viewJSON(view ?? TransactionView(transaction: tx, status: status), extra: extra)
    }

    func details(_ v: TransactionView) -> String {
        let t = v.transaction
        var rows: [(String, String)] = [
            ("hash", t.hash),
            (
                "status",
                v.status.rawValue
                    + (v.round.map { " in block #\($0), \(v.confirmations) confirmation\(v.confirmations == 1 ? "" : "s")" } ?? "")
            ),
        ]
        if let o = v.outcome { rows.append(("outcome", o.rawValue + (v.error.map { ": \($0.message) [\($0.code)]" } ?? ""))) }
        rows += [
            ("from", t.clientID), ("to", t.toClientID), ("value", TokenAmount(baseUnits: t.value).description),
            ("fee", TokenAmount(baseUnits: t.fee).description), ("type", t.transactionType.rawValue),
        ]
        if !t.transactionData.isEmpty { rows.append((t.transactionType == .transfer ? "description" : "call", t.transactionData)) }
        if let out = v.output, !out.isEmpty { rows.append(("output", out)) }
        rows += [("nonce", String(t.nonce)), ("created", UTCTime.dateTime(t.creationDate) + " UTC")]
        if let bh = v.blockHash { rows.append(("block hash", bh)) }
        if let oh = v.outputHash { rows.append(("output hash", oh)) }
        rows.append(("signature", t.signature))
        rows.append(("explorer", explorer(t.hash)))
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { $0.0 + ":" + String(repeating: " ", count: width - $0.0.count + 2) + $0.1 }.joined(separator: "\n")
    }
}
