import MosaicHTTPServer
import Synchronization

/// The blobber's own figures on `/metrics`, beside the HTTP ones every server keeps: what it
/// holds and what it still owes the ledger (write markers not yet committed pay nothing).
extension BlobberServer {
    func registerMetrics() {
        http.addMetrics { [weak self] in
            guard let self else { return [] }
            let (allocations, files, bytes, pending) = self.records.withLock { all in
                all.values.reduce((0, 0, UInt64(0), 0)) { sum, r in
                    (sum.0 + 1, sum.1 + r.files.count, sum.2 &+ r.size, sum.3 + r.pendingMarkers.count)
                }
            }
            return [
                Metric("mosaic_blobber_allocations", .gauge, help: "Allocations this blobber holds.", value: Double(allocations)),
                Metric("mosaic_blobber_files", .gauge, help: "Files committed, over all allocations.", value: Double(files)),
                Metric(
                    "mosaic_blobber_committed_bytes", .gauge, help: "Bytes of committed fragments, over all allocations.",
                    value: Double(bytes)),
                Metric(
                    "mosaic_blobber_pending_write_markers", .gauge,
                    help:
                        "Write markers signed by owners and not yet committed to the ledger (a figure that keeps growing means the node is unreachable).",
                    value: Double(pending)),
            ]
        }
    }
}
