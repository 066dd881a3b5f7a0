import Foundation
import MosaicCrypto
import MosaicLedger
import MosaicNode
import MosaicProtocol
import MosaicSDK
import MosaicTestSupport
import Testing

/// A node's `/metrics` in the Prometheus text format: what an operator scrapes and alerts on.
@Suite(.timeLimit(.minutes(3))) struct NodeMetricsTests {
    @Test func metricsShowTheChainThePoolAndTheRequestsAnswered() async throws {
        let net = try TestDevnet()
        let alice = net.wallet(net.alice)
        let tx = try await alice.send(to: net.bob.publicKey.clientID, amount: "1", fee: "0.001")
        _ = try await alice.wait(for: tx.hash, until: .sealed, timeout: .seconds(20))
        _ = try await net.raw("GET", "/v1/blocks/999999999")

        let r = try await net.raw("GET", "/metrics")
        #expect(r.status == 200)
        let m = MetricsScrape(String(decoding: r.body, as: UTF8.self))
        let round = try #require(m["mosaic_ledger_round"])
        #expect(round >= Double(net.genesis.confirmations), "the transfer was sealed, so the chain has that many blocks on top")
        #expect(round <= Double(net.node.ledger.latestBlock.round))
        #expect(m["mosaic_ledger_pool_transactions"] != nil)
        #expect(m["mosaic_http_requests_total", ["method": "POST", "route": "/v1/transactions", "status": "202"]].map { $0 >= 1 } == true)
        #expect(m["mosaic_http_requests_total", ["method": "GET", "route": "/v1/blocks/:id", "status": "404"]] == 1)
        #expect(m["mosaic_http_errors_total", ["kind": "server"]] == 0)
        // The devnet genesis has the storage contract but no blobber registered yet.
        #expect(m["mosaic_storage_blobbers"] == 0)
        #expect(m["mosaic_storage_challenges_total", ["result": "failed"]] == 0)
        await net.stop()
    }
}
