import Foundation
import MosaicHTTP
import MosaicHTTPServer
import MosaicLedger
import MosaicProtocol

/// Explorer pages of the storage network: every blobber, one blobber, one allocation (the same
/// fields as `mosaic alloc show`). Everything from the chain is escaped.
extension NodeServer {
    func registerStorageExplorer() {
        let ledger = self.ledger
        http.route(.get, "/explorer/storage", summary: "Registered blobbers (HTML)") { _ in
            let list = try NodeServer.storage(ledger) { s, v throws(ContractError) in try s.blobbers(v) }
            var body =
                "<h1>Storage</h1><h2>Blobbers</h2><table><tr><th>Blobber</th><th>URL</th><th class=\"num\">Capacity</th><th class=\"num\">Allocated</th><th class=\"num\">Stake</th><th class=\"num\">Challenges passed / failed</th></tr>"
            for b in list {
                body +=
                    "<tr><td>\(HTML.link("/explorer/blobber/\(b.id)", String(b.id.prefix(16)) + "…", cls: "hash"))</td><td>\(HTML.escape(b.url))</td>"
                    + "<td class=\"num\">\(b.capacity)</td><td class=\"num\">\(b.allocated)</td><td class=\"num\">\(HTML.escape(NodeServer.tokens(ledger, b.stake)))</td>"
                    + "<td class=\"num\">\(b.successfulChallenges) / \(b.failedChallenges)</td></tr>"
            }
            body += "</table>"
            if list.isEmpty { body += "<p class=\"muted\">No blobbers registered yet.</p>" }
            return .html(HTML.page(title: "Storage", network: ledger.genesis.chainID, body: body))
        }
        http.route(
            .get, "/explorer/blobber/:id", summary: "A blobber's page (HTML)", parameters: [NodeParameters.blobberID],
            errors: [404]
        ) { req in
            let id = try req[NodeParameters.blobberID]
            guard let b = try NodeServer.storage(ledger, { s, v throws(ContractError) in try s.blobber(v, id: id) }) else {
                return NodeServer.notFoundPage(ledger, "Blobber not found", "No blobber <code>\(HTML.escape(id))</code> is registered.")
            }
            let open = (try? NodeServer.storage(ledger) { s, v throws(ContractError) in try s.openChallenges(v, blobber: id).count }) ?? 0
            let rows: [(String, String)] = [
                ("Blobber", "<span class=\"hash\">\(HTML.escape(b.id))</span> · \(NodeServer.accountLink(ledger, b.id, short: true))"),
                ("URL", HTML.escape(b.url)), ("Capacity", "\(b.capacity) bytes"), ("Allocated", "\(b.allocated) bytes"),
                ("Write price", HTML.escape(NodeServer.tokens(ledger, b.writePrice)) + " per GiB per 30 days"),
                ("Read price", HTML.escape(NodeServer.tokens(ledger, b.readPrice)) + " per GiB"),
                ("Stake", HTML.escape(NodeServer.tokens(ledger, b.stake))),
                ("Penalties", HTML.escape(NodeServer.tokens(ledger, b.penalties))),
                ("Rewards", HTML.escape(NodeServer.tokens(ledger, b.rewards))),
                ("Challenges", "\(b.successfulChallenges) passed, \(b.failedChallenges) failed, \(open) open"),
                ("Registered", HTML.time(b.registeredAt)),
            ]
            return .html(HTML.page(title: "Blobber", network: ledger.genesis.chainID, body: "<h1>Blobber</h1>" + HTML.details(rows)))
        }
        http.route(
            .get, "/explorer/allocation/:id", summary: "An allocation's page (HTML)", parameters: [NodeParameters.allocationID],
            errors: [404]
        ) { req in
            let id = try req[NodeParameters.allocationID]
            guard let a = try NodeServer.storage(ledger, { s, v throws(ContractError) in try s.allocation(v, id: id) }) else {
                return NodeServer.notFoundPage(
                    ledger, "Allocation not found", "No allocation <code>\(HTML.escape(id))</code> on this network.")
            }
            let rows: [(String, String)] = [
                ("Allocation", "<span class=\"hash\">\(HTML.escape(a.id))</span> · \(NodeServer.txLink(a.id, short: true))"),
                ("Name", HTML.escape(a.name.isEmpty ? "-" : a.name)), ("Owner", NodeServer.accountLink(ledger, a.ownerID)),
                ("Status", NodeServer.status(a.status.rawValue)), ("Expiration", HTML.time(a.expiration)),
                ("Size", "\(a.size) bytes"), ("Used size", "\(a.usedSize) bytes"),
                ("Data shards", "\(a.dataShards)"), ("Parity shards", "\(a.parityShards)"),
                ("Writes", "\(a.numWrites)"), ("Reads", "\(a.numReads)"),
                ("Challenges", "\(a.successfulChallenges) passed, \(a.failedChallenges) failed"),
                ("Latest closed challenge", a.latestClosedChallenge.map(HTML.time) ?? "none"),
                ("Write pool", HTML.escape(NodeServer.tokens(ledger, a.writePool))),
                ("Challenge pool", HTML.escape(NodeServer.tokens(ledger, a.challengePool))),
            ]
            var body = "<h1>Allocation</h1>" + HTML.details(rows)
            body += "<h2>Blobbers</h2><table><tr><th>#</th><th>Blobber</th><th>URL</th><th class=\"num\">Used</th><th>Root</th></tr>"
            for (i, b) in a.blobbers.enumerated() {
                body +=
                    "<tr><td>\(i + 1)</td><td>\(HTML.link("/explorer/blobber/\(b.blobberID)", String(b.blobberID.prefix(16)) + "…", cls: "hash"))</td>"
                    + "<td>\(HTML.escape(b.url))</td><td class=\"num\">\(b.used)</td><td class=\"hash\">\(HTML.escape(String(b.allocationRoot.prefix(16))))…</td></tr>"
            }
            body += "</table>"
            return .html(HTML.page(title: "Allocation", network: ledger.genesis.chainID, body: body))
        }
    }
}
