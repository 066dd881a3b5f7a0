import MosaicProtocol

/// What a view (a free, unsigned read script) sees: one contract's committed state as it was at
/// the end of `round`, read-only, with a budget of rows so no query can run unbounded.
package final class ContractView {
    /// The round whose state this view reads.
    public let round: UInt64
    /// That block's timestamp (unix seconds): the "now" of the state being read.
    public let now: Int64
    /// Rows a single view may read.
    public static let rowBudget = 20_000
    public private(set) var rowsRead = 0
    private let contract: String
    private let store: any LedgerStore
    /// `rowBudget` for anyone's view; the node's own typed reads (`Ledger.read`) answer whole lists.
    private let budget: Int
    /// `round` is the latest round of `store`'s snapshot: no later change to undo, so reads skip
    /// the history lookups (the node's typed reads and `wantsBlocks` on every idle tick).
    private let isLatest: Bool

    init(contract: String, round: UInt64, now: Int64, store: any LedgerStore, budget: Int = ContractView.rowBudget, isLatest: Bool = false)
    {
        self.contract = contract
        self.round = round
        self.now = now
        self.store = store
        self.budget = budget
        self.isLatest = isLatest
    }

    private func charge(_ rows: Int) throws(ContractError) {
        rowsRead += rows
        guard rowsRead <= budget else {
            throw .refused(.limitExceeded, "this read touches more than \(budget) rows; ask for a smaller page (limit)")
        }
    }

    /// The value of `key` as of `round`.
    public func get(_ key: String) throws(ContractError) -> [UInt8]? {
        try charge(1)
        do {
            if !isLatest, let old = try store.valueBeforeChanges(contract, key, after: round) { return old }
            return try store.contractValue(contract, key)
        } catch { throw .refused(.stateUnavailable, "state unavailable: \(error)") }
    }

    /// The committed balance of `clientID`, for the node's typed reads (`Ledger.read`): balances
    /// keep no history, so a view of an earlier round cannot ask for one.
    public func balance(of clientID: String) throws(ContractError) -> UInt64 {
        guard isLatest else { throw .refused(.invalidState, "balances are readable at the latest round only") }
        try charge(1)
        do { return try store.account(clientID)?.balance ?? 0 } catch { throw .refused(.stateUnavailable, "state unavailable: \(error)") }
    }

    /// Like `ContractContext.scan`, as of `round`: keys starting with `prefix` in UTF-8 byte order
    /// (descending when `reverse`), strictly after `after` (before it when `reverse`), at most `limit` (1…1000).
    public func scan(prefix: String, after: String? = nil, limit: Int, reverse: Bool = false) throws(ContractError) -> [ContractEntry] {
        guard (1...1000).contains(limit) else { throw .invalidArguments("a scan returns 1 to 1000 rows; asked for \(limit)") }
        let range = KeyRange(prefix: prefix, after: after, limit: limit, reverse: reverse)
        do {
            guard try !isLatest && store.hasChanges(contract, after: round) else {
                let rows = try store.scan(contract, range, limit: limit)
                try charge(max(1, rows.count))
                return rows
            }
            // Current rows up to a bound, corrected by the changes of those keys since `round`;
            // when corrections leave the page short, read further.
            var fetch = limit
            while true {
                let base = try store.scan(contract, range, limit: fetch)
                let complete = base.count < fetch
                let edge = complete ? nil : base.last?.key
                let low = range.reverse ? (edge ?? range.prefix) : (range.after ?? range.prefix)
                let high = range.reverse ? (range.after ?? range.upperBound) : (edge ?? range.upperBound)
                let overlay = try store.undoOverlay(contract, range, after: round, low: low, high: high)
                try charge(max(1, base.count + overlay.count))
                let rows = range.merge(base: base, overlay: overlay)
                if rows.count >= limit || complete { return rows }
                fetch = fetch * 2 + overlay.count
            }
        } catch let e as ContractError {
            throw e
        } catch {
            throw .refused(.stateUnavailable, "state unavailable: \(error)")
        }
    }
}
