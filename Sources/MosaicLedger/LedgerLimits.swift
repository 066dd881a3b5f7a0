/// One node's own flood limits: how much its pending pool and caches may hold. Not consensus
/// rules (each node may choose its own; what a valid transaction is lives in `Genesis`), so they
/// come from configuration, with defaults sized for a node on one small machine.
package struct LedgerLimits: Sendable, Hashable {
    /// Wire bytes (`Transaction.wireSize`) all pending transactions together may hold, beside
    /// `Genesis.poolCapacity` on their number. 128 MiB: a full pool of typical 350-byte
    /// transfers is about 70 MiB, so honest traffic reaches the count limit first.
    public var poolBytes: Int
    /// Pending transactions one sender may have, so one rich account cannot fill the pool.
    public var senderPendingCount: Int
    /// Pending wire bytes one sender may have (128 transactions of the largest size).
    public var senderPendingBytes: Int
    /// Fee-exempt transactions (faucet pours) one sender may have waiting: 10, the pours the
    /// default faucet allows an account per window (a new blobber pours twice in a row for its stake).
    public var freePendingPerSender: Int
    /// Committed accounts kept in memory; past this the cache starts over (it only mirrors SQLite).
    public var accountCacheEntries: Int

    public init(
        poolBytes: Int = 128 << 20, senderPendingCount: Int = 1000, senderPendingBytes: Int = 16 << 20,
        freePendingPerSender: Int = 10, accountCacheEntries: Int = 100_000
    ) {
        self.poolBytes = poolBytes
        self.senderPendingCount = senderPendingCount
        self.senderPendingBytes = senderPendingBytes
        self.freePendingPerSender = freePendingPerSender
        self.accountCacheEntries = accountCacheEntries
    }
}
