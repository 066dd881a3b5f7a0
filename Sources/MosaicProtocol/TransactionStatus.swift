/// Where a transaction is in its life. Ordered: pending < finalized < sealed; `expired` is final
/// and never reached by an included transaction.
public enum TransactionStatus: String, Sendable, Codable, CaseIterable {
    /// Accepted into the pool, waiting for a block.
    case pending
    /// In a block (executed, successfully or not).
    case finalized
    /// In a block with at least `confirmations` blocks after it.
    case sealed
    /// Not included within the expiry window; dropped from the pool.
    case expired

    /// True when a waiter for `target` can stop: the target or a later stage is reached, or the
    /// transaction expired (no further change will come).
    public func satisfies(_ target: TransactionStatus) -> Bool {
        switch (self, target) {
        case (.expired, _): return true
        case (.sealed, _): return true
        case (.finalized, .finalized), (.finalized, .pending): return true
        case (.pending, .pending): return true
        default: return false
        }
    }
}
