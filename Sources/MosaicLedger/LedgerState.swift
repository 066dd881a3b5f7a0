import MosaicProtocol

/// Everything of a `Ledger` that changes, kept together behind its one `Mutex`
/// (`Ledger.state`): whoever holds it sees a pool, cache, latest block and waiters that agree.
struct LedgerState {
    /// The writer connection; nil once the ledger is closed.
    var store: (any LedgerStore)?
    var pool = TransactionPool()
    /// Committed accounts, bounded by `limits.accountCacheEntries` (see `Ledger.cacheAccount`).
    var accountCache: [String: AccountState] = [:]
    var latest: Block
    /// Round of the latest block with transactions; blocks continue until it is sealed.
    var lastNonEmptyRound: UInt64?
    var waiters: [String: [Waiter]] = [:]
    var nextWaiterID: UInt64 = 0
    var productionError: LedgerError?
    /// Suspects of a block that stopped the process, being bisected (Ledger+Recovery.swift).
    var recovery = RecoveryState()
    /// Rounds between prunings (`Ledger.historyPruneEvery`; tests lower it).
    var pruneEvery = Ledger.historyPruneEvery

    init(store: any LedgerStore, latest: Block, lastNonEmptyRound: UInt64?) {
        self.store = store
        self.latest = latest
        self.lastNonEmptyRound = lastNonEmptyRound
    }
}
