import MosaicProtocol

/// A caller suspended in `Ledger.wait`, resumed by a block commit, its timeout, or `close`.
struct Waiter {
    let id: UInt64
    let target: TransactionStatus
    let continuation: CheckedContinuation<TransactionStatus?, Never>
    var timeout: Task<Void, Never>?
    /// Round of the transaction's block once it is included.
    var round: UInt64?
}
