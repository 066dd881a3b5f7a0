import MosaicHTTPServer
import MosaicLedger
import MosaicProtocol

/// The node's own figures on `/metrics`, beside the HTTP ones every server keeps: the chain's
/// progress, the pool, and the storage network's challenges (what an operator alerts on: blocks
/// that stop, a pool that fills, blobbers that fail their challenges).
extension NodeServer {
    func registerMetrics() {
        let ledger = self.ledger
        http.addMetrics {
            let latest = ledger.latestBlock
            var out = [
                Metric("mosaic_ledger_round", .gauge, help: "Round of the latest block.", value: Double(latest.round)),
                Metric(
                    "mosaic_ledger_block_timestamp_seconds", .gauge, help: "Ledger time of the latest block (unix seconds).",
                    value: Double(latest.timestamp)),
                Metric(
                    "mosaic_ledger_block_transactions", .gauge, help: "Transactions in the latest block.",
                    value: Double(latest.transactionCount)),
                Metric(
                    "mosaic_ledger_pool_transactions", .gauge, help: "Transactions accepted and waiting for a block.",
                    value: Double(ledger.pendingCount)),
            ]
            // Without a storage contract (a chain that has none) there is nothing to add.
            if let blobbers = try? NodeServer.storage(ledger, { s, v throws(ContractError) in try s.blobbers(v) }) {
                var challenges: [Metric.Sample] = []
                var passed: UInt64 = 0
                var failed: UInt64 = 0
                for b in blobbers {
                    passed &+= b.successfulChallenges
                    failed &+= b.failedChallenges
                    challenges.append(
                        Metric.Sample([Metric.Label("blobber", b.id), Metric.Label("result", "passed")], Double(b.successfulChallenges)))
                    challenges.append(
                        Metric.Sample([Metric.Label("blobber", b.id), Metric.Label("result", "failed")], Double(b.failedChallenges)))
                }
                out.append(
                    Metric("mosaic_storage_blobbers", .gauge, help: "Blobbers registered on the chain.", value: Double(blobbers.count)))
                out.append(
                    Metric(
                        "mosaic_storage_challenges_total", .counter,
                        help: "Challenges resolved on the chain, over all blobbers, by result.",
                        [
                            Metric.Sample([Metric.Label("result", "passed")], Double(passed)),
                            Metric.Sample([Metric.Label("result", "failed")], Double(failed)),
                        ]))
                out.append(
                    Metric(
                        "mosaic_storage_blobber_challenges_total", .counter,
                        help: "Challenges resolved on the chain, by blobber and result.",
                        challenges))
            }
            return out
        }
    }
}
