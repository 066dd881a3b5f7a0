import Foundation
import MosaicHTTP
import MosaicHTTPServer
import MosaicLedger
import MosaicProtocol

/// The explorer: server-rendered pages for blocks, transactions and accounts, linked to each
/// other, so a wallet can link any transaction to `/explorer/tx/{hash}`.
extension NodeServer {
    func registerExplorer() {
        let ledger = self.ledger
        http.route(.get, "/", summary: "Redirects to the explorer", statuses: [302]) { _ in
            HTTPResponse(status: 302, headers: ["Location": "/explorer"], body: .data(Data()))
        }
        http.route(.get, "/explorer", summary: "Explorer home: network and latest blocks (HTML)") { _ in
            .html(try NodeServer.homePage(ledger))
        }
        http.route(
            .get, "/explorer/search", summary: "Finds a transaction, block or account and redirects to its page",
            parameters: [NodeParameters.search], statuses: [302], errors: [404]
        ) { req in
            let q = try req[NodeParameters.search].trimmingCharacters(in: .whitespaces).lowercased()
            let target = try NodeServer.mapped { () throws(LedgerError) in try NodeServer.searchTarget(ledger, q) }
            guard let target else {
                return .html(
                    HTML.page(
                        title: "Not found", network: ledger.genesis.chainID,
                        body: "<h1>Nothing found</h1><p>No transaction, block or account matches <code>\(HTML.escape(q))</code>.</p>"),
                    status: 404)
            }
            return HTTPResponse(status: 302, headers: ["Location": target], body: .data(Data()))
        }
        http.route(
            .get, "/explorer/tx/:hash", summary: "A transaction's page (HTML)", parameters: [NodeParameters.transactionHash],
            errors: [404]
        ) { req in
            let hash = try req[NodeParameters.transactionHash]
            guard let r = try NodeServer.mapped({ () throws(LedgerError) in try ledger.transaction(hash) }) else {
                return NodeServer.notFoundPage(
                    ledger, "Transaction not found", "No transaction <code>\(HTML.escape(hash))</code> on this network.")
            }
            return .html(NodeServer.transactionPage(ledger, TransactionView(r)))
        }
        http.route(
            .get, "/explorer/block/:id", summary: "A block's page with its transactions (HTML)",
            parameters: [NodeParameters.block, NodeParameters.offset], errors: [404]
        ) { req in
            let id = try req[NodeParameters.block]
            guard let b = try NodeServer.mapped({ () throws(LedgerError) in try NodeServer.findBlock(ledger, id) }) else {
                return NodeServer.notFoundPage(
                    ledger, "Block not found", "No block <code>\(HTML.escape(try req.param("id")))</code> on this network.")
            }
            let offset = try req[NodeParameters.offset]
            return .html(try NodeServer.blockPage(ledger, b, offset: offset))
        }
        http.route(
            .get, "/explorer/account/:client_id", summary: "An account's page with its transactions (HTML)",
            parameters: [NodeParameters.clientID, NodeParameters.offset]
        ) { req in
            let id = try req[NodeParameters.clientID]
            let offset = try req[NodeParameters.offset]
            return .html(try NodeServer.accountPage(ledger, id, offset: offset))
        }
    }

    static let pageSize = 50

    static func tokens(_ ledger: Ledger, _ units: UInt64) -> String {
        "\(TokenAmount(baseUnits: units)) \(ledger.genesis.symbol)"
    }

    static func status(_ s: String) -> String { "<span class=\"status \(HTML.escape(s))\">\(HTML.escape(s))</span>" }

    static func txLink(_ hash: String, short: Bool = false) -> String {
        HTML.link("/explorer/tx/\(hash)", short ? String(hash.prefix(16)) + "…" : hash, cls: "hash")
    }

    static func accountLink(_ ledger: Ledger, _ id: String, short: Bool = false) -> String {
        let label = id == ContractCall.address(of: "faucet") ? "faucet contract" : (short ? String(id.prefix(16)) + "…" : id)
        return HTML.link("/explorer/account/\(id)", label, cls: "hash")
    }

    static func blockLink(_ round: UInt64) -> String { HTML.link("/explorer/block/\(round)", "#\(round)") }

    static func notFoundPage(_ ledger: Ledger, _ title: String, _ message: String) -> HTTPResponse {
        .html(
            HTML.page(title: title, network: ledger.genesis.chainID, body: "<h1>\(HTML.escape(title))</h1><p>\(message)</p>"), status: 404)
    }

    static func searchTarget(_ ledger: Ledger, _ q: String) throws(LedgerError) -> String? {
        // The same check as a round parameter: digits beyond the ledger's rounds find nothing.
        if q.first?.isNumber == true, q.allSatisfy(\.isNumber) {
            guard case .integer(let r)? = ParameterType.round.parse(q), let round = UInt64(exactly: r) else { return nil }
            return try ledger.block(round: round) != nil ? "/explorer/block/\(round)" : nil
        }
        guard Transaction.isHexID(q) else { return nil }
        if try ledger.transaction(q) != nil { return "/explorer/tx/\(q)" }
        if try ledger.block(hash: q) != nil { return "/explorer/block/\(q)" }
        return "/explorer/account/\(q)"
    }

    static func homePage(_ ledger: Ledger) throws -> String {
        let info = ledger.networkInfo
        let latest = info.latestRound
        let blocks = try mapped { () throws(LedgerError) in try ledger.blocks(limit: 25) }
        var body = "<h1>Network \(HTML.escape(info.chainID))</h1>"
        body += HTML.details([
            ("Latest block", blockLink(latest)),
            ("Storage", HTML.link("/explorer/storage", "blobbers")),
            ("Symbol", HTML.escape(info.symbol)),
            ("Confirmations to seal", String(info.confirmations)),
            ("Minimum fee", HTML.escape(tokens(ledger, info.minimumFee))),
            (
                "USD per token",
                HTML.escape(TokenAmount(tokens: 1).map { $0.usdString(microDollarsPerToken: info.usdMicrosPerToken) } ?? "-")
            ),
            ("Ledger time", HTML.escape(HTML.time(info.time))),
        ])
        body +=
            "<h2>Latest blocks</h2><table><tr><th>Round</th><th>Hash</th><th>Time</th><th class=\"num\">Transactions</th><th>Status</th></tr>"
        for b in blocks {
            let sealed = blocksAfter(b.round, latest: latest) >= info.confirmations
            body +=
                "<tr><td>\(blockLink(b.round))</td><td>\(HTML.link("/explorer/block/\(b.hash)", String(b.hash.prefix(24)) + "…", cls: "hash"))</td>"
            body +=
                "<td>\(HTML.escape(HTML.time(b.timestamp)))</td><td class=\"num\">\(b.transactionCount)</td><td>\(status(sealed ? "sealed" : "finalized"))</td></tr>"
        }
        body += "</table>"
        return HTML.page(title: "Explorer", network: info.chainID, body: body)
    }

    static func transactionPage(_ ledger: Ledger, _ v: TransactionView) -> String {
        let tx = v.transaction
        var rows: [(String, String)] = [
            ("Hash", "<span class=\"hash\">\(HTML.escape(tx.hash))</span>"),
            (
                "Status",
                status(v.status.rawValue)
                    + (v.round != nil
                        ? " <span class=\"muted\">\(v.confirmations) confirmation\(v.confirmations == 1 ? "" : "s")</span>" : "")
            ),
        ]
        if let round = v.round, let blockHash = v.blockHash {
            rows.append(("Block", blockLink(round) + " " + HTML.link("/explorer/block/\(blockHash)", blockHash, cls: "hash")))
        }
        if let outcome = v.outcome { rows.append(("Outcome", status(outcome.rawValue))) }
        if let error = v.error {
            rows.append(("Error", HTML.escape(error.message) + " <span class=\"muted\">\(HTML.escape(error.code))</span>"))
        }
        rows += [
            ("From", accountLink(ledger, tx.clientID)),
            ("To", accountLink(ledger, tx.toClientID)),
            ("Value", HTML.escape(tokens(ledger, tx.value)) + " <span class=\"muted\">(\(tx.value) units)</span>"),
            ("Fee", HTML.escape(tokens(ledger, tx.fee)) + " <span class=\"muted\">(\(tx.fee) units)</span>"),
            ("Type", HTML.escape(tx.transactionType.rawValue)),
            (
                tx.transactionType == .transfer ? "Description" : "Call",
                tx.transactionData.isEmpty ? "<span class=\"muted\">none</span>" : "<code>\(HTML.escape(tx.transactionData))</code>"
            ),
            ("Nonce", String(tx.nonce)),
            ("Created", HTML.escape(HTML.time(tx.creationDate))),
        ]
        if let output = v.output, !output.isEmpty { rows.append(("Output", HTML.escape(output))) }
        if let oh = v.outputHash { rows.append(("Output hash", "<span class=\"hash\">\(HTML.escape(oh))</span>")) }
        for e in v.events ?? [] {
            let attrs = e.attributes.sorted { $0.key < $1.key }.map { "\(HTML.escape($0.key))=\(HTML.escape($0.value))" }.joined(
                separator: " ")
            rows.append(("Event", "<code>\(HTML.escape(e.name)) \(attrs)</code>"))
        }
        rows.append(("Signature", "<span class=\"hash\">\(HTML.escape(tx.signature))</span>"))
        return HTML.page(
            title: "Transaction \(tx.hash.prefix(12))", network: ledger.genesis.chainID,
            body: "<h1>Transaction</h1>" + HTML.details(rows))
    }

    static func blockPage(_ ledger: Ledger, _ b: Block, offset: Int) throws -> String {
        let latest = ledger.latestBlock.round
        let sealed = blocksAfter(b.round, latest: latest) >= ledger.genesis.confirmations
        var rows: [(String, String)] = [
            ("Round", String(b.round)),
            ("Hash", "<span class=\"hash\">\(HTML.escape(b.hash))</span>"),
            (
                "Status",
                status(sealed ? "sealed" : "finalized")
                    + " <span class=\"muted\">\(blocksAfter(b.round, latest: latest)) blocks after it</span>"
            ),
            ("Time", HTML.escape(HTML.time(b.timestamp))),
            ("Transactions", String(b.transactionCount)),
        ]
        if b.round > 0 { rows.append(("Previous", HTML.link("/explorer/block/\(b.round - 1)", b.previousHash, cls: "hash"))) }
        if b.round < latest { rows.append(("Next", blockLink(b.round + 1))) }
        rows += [
            ("Transaction root", "<span class=\"hash\">\(HTML.escape(b.transactionRoot))</span>"),
            ("State root", "<span class=\"hash\">\(HTML.escape(b.stateRoot))</span>"),
            ("Fees to", accountLink(ledger, b.minerID)),
        ]
        // Which node made it, by the key that signed it (docs/PROTOCOL.md §2.9).
        if !b.producer.isEmpty {
            rows.append(("Signed by", "<span class=\"hash\">\(HTML.escape(b.producer))</span> <span class=\"muted\">node key</span>"))
        }
        var body = "<h1>Block #\(b.round)</h1>" + HTML.details(rows)
        let txs = try mapped { () throws(LedgerError) in try ledger.transactions(inRound: b.round, limit: pageSize, offset: offset) }
        if !txs.isEmpty {
            body += "<h2>Transactions</h2>" + txTable(ledger, txs.map(TransactionView.init), perspective: nil)
            body += pager("/explorer/block/\(b.round)", offset: offset, count: txs.count, total: b.transactionCount)
        }
        return HTML.page(title: "Block \(b.round)", network: ledger.genesis.chainID, body: body)
    }

    static func accountPage(_ ledger: Ledger, _ id: String, offset: Int) throws -> String {
        let a = try mapped { () throws(LedgerError) in try accountView(ledger, id) }
        let page = try mapped { () throws(LedgerError) in try history(ledger, id, limit: pageSize, offset: offset) }
        let usd = TokenAmount(baseUnits: a.balance).usdString(microDollarsPerToken: ledger.genesis.usdMicrosPerToken)
        var body =
            "<h1>Account</h1>"
            + HTML.details([
                ("Client id", "<span class=\"hash\">\(HTML.escape(id))</span>"),
                (
                    "Balance",
                    HTML.escape(tokens(ledger, a.balance)) + " <span class=\"muted\">≈ \(HTML.escape(usd)) · \(a.balance) units</span>"
                ),
                ("Nonce", "\(a.nonce) <span class=\"muted\">next \(a.nextNonce)</span>"),
                ("Transactions", String(page.total)),
            ])
        body += "<h2>Transactions</h2>"
        body +=
            page.transactions.isEmpty ? "<p class=\"muted\">No transactions yet.</p>" : txTable(ledger, page.transactions, perspective: id)
        body += pager("/explorer/account/\(id)", offset: offset, count: page.transactions.count, total: page.total)
        return HTML.page(title: "Account \(id.prefix(12))", network: ledger.genesis.chainID, body: body)
    }

    /// Transactions as table rows; with a `perspective` account, amounts show as in (+) or out (−).
    static func txTable(_ ledger: Ledger, _ txs: [TransactionView], perspective: String?) -> String {
        var out =
            "<table><tr><th>Hash</th><th>Block</th><th>From</th><th>To</th><th class=\"num\">Value</th><th class=\"num\">Fee</th><th>Status</th></tr>"
        for v in txs {
            let tx = v.transaction
            var value = tokens(ledger, tx.value)
            if let p = perspective, tx.value > 0 {
                if tx.clientID == p && tx.toClientID != p {
                    value = "−" + value
                } else if tx.toClientID == p && tx.clientID != p {
                    value = "+" + value
                }
            }
            let state = v.outcome == .failure ? "failure" : v.status.rawValue
            out += "<tr><td>\(txLink(tx.hash, short: true))</td><td>\(v.round.map(blockLink) ?? "<span class=\"muted\">-</span>")</td>"
            out += "<td>\(accountLink(ledger, tx.clientID, short: true))</td><td>\(accountLink(ledger, tx.toClientID, short: true))</td>"
            out +=
                "<td class=\"num\">\(HTML.escape(value))</td><td class=\"num\">\(HTML.escape(tokens(ledger, tx.fee)))</td><td>\(status(state))</td></tr>"
        }
        return out + "</table>"
    }

    static func pager(_ base: String, offset: Int, count: Int, total: Int) -> String {
        var links: [String] = []
        if offset > 0 { links.append(HTML.link("\(base)?offset=\(max(0, offset - pageSize))", "← newer")) }
        if offset + count < total { links.append(HTML.link("\(base)?offset=\(offset + count)", "older →")) }
        guard !links.isEmpty else { return "" }
        return "<div class=\"pager\">\(links.joined())<span class=\"muted\">\(offset + 1)–\(offset + count) of \(total)</span></div>"
    }
}
