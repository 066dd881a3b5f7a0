import MosaicProtocol
import MosaicStorageCore
import Synchronization

/// A hook set after construction (the blobber server needs its ledger before the prover exists).
package final class MarkerCommitHook: Sendable {
    private let body = Mutex<(@Sendable ([WriteMarker]) -> Void)?>(nil)
    package init() {}
    package func set(_ f: @escaping @Sendable ([WriteMarker]) -> Void) { body.withLock { $0 = f } }
    func call(_ markers: [WriteMarker]) { body.withLock { $0 }?(markers) }
}
