import Foundation
import MosaicCrypto
import MosaicProtocol
import Synchronization

// Committed history (accounts, transactions, blocks) is read on the view connections
// (`committed`), so these answers never wait for a block being made; only what lives in memory
// beside the writer (the pool, the latest block) takes the ledger's state mutex.
extension Ledger {
    /// Runs `body` on a read connection in one snapshot, with that snapshot's latest round.
    func committed<R>(_ body: (any LedgerStore, UInt64) throws -> R) throws(LedgerError) -> R {
        let reader = try readers.take(self)
        defer { readers.put(reader) }
        do {
            return try reader.readTransaction {
                guard let latest = try reader.latestBlock() else { throw LedgerError.storage("the ledger has no blocks") }
                return try body(reader, latest.round)
            }
        } catch let e as LedgerError {
            throw e
        } catch {
            throw .store(error, "reading the ledger")
        }
    }

    /// Committed balance and nonce (zeros for an account never seen).
    public func account(_ clientID: String) throws(LedgerError) -> Account {
        try committed { store, round in
            let a = try store.account(clientID) ?? AccountState()
            return Account(clientID: clientID, balance: a.balance, nonce: a.nonce, round: round)
        }
    }

    /// A transaction with its status and, once included, its receipt; nil when unknown.
    public func transaction(_ hash: String) throws(LedgerError) -> TransactionRecord? {
        // The pool first: a block removes what it includes only after committing it, so a hash
        // gone from the pool is already in the snapshot read next.
        if let e = try locked({ s, _ throws(LedgerError) in s.pool.entry(hash) }) {
            return TransactionRecord(transaction: e.tx, status: .pending, receipt: nil, confirmations: 0)
        }
        return try committed { store, round in
            if let (tx, receipt) = try store.transaction(hash, chainID: genesis.chainID) { return record(tx, receipt, latest: round) }
            if let tx = try store.expired(hash) {
                return TransactionRecord(transaction: tx, status: .expired, receipt: nil, confirmations: 0)
            }
            return nil
        }
    }

    /// Included transactions sent or received by `clientID`, newest first. `limit` is capped at 1000.
    public func transactions(of clientID: String, limit: Int = 50, offset: Int = 0) throws(LedgerError) -> [TransactionRecord] {
        try committed { store, round in
            try store.transactions(of: clientID, limit: min(max(limit, 0), 1000), offset: max(offset, 0), chainID: genesis.chainID)
                .map { record($0.0, $0.1, latest: round) }
        }
    }

    /// Transactions of `clientID` still in the pool, by nonce.
    public func pendingTransactions(of clientID: String) throws(LedgerError) -> [Transaction] {
        try locked { s, _ throws(LedgerError) in s.pool.pending(of: clientID) }
    }

    /// Transactions of one block in block order.
    public func transactions(inRound round: UInt64, limit: Int = 100, offset: Int = 0) throws(LedgerError) -> [TransactionRecord] {
        try committed { store, latest in
            try store.transactions(inRound: round, limit: min(max(limit, 0), 5000), offset: max(offset, 0), chainID: genesis.chainID)
                .map { record($0.0, $0.1, latest: latest) }
        }
    }

    private func record(_ tx: Transaction, _ receipt: TransactionReceipt, latest: UInt64) -> TransactionRecord {
        let confirmations = latest >= receipt.round ? latest - receipt.round : 0
        return TransactionRecord(
            transaction: tx, status: confirmations >= genesis.confirmations ? .sealed : .finalized,
            receipt: receipt, confirmations: confirmations)
    }

    public func block(round: UInt64) throws(LedgerError) -> Block? {
        try committed { store, _ in try store.block(round: round) }
    }

    public func block(hash: String) throws(LedgerError) -> Block? {
        try committed { store, _ in try store.block(hash: hash) }
    }

    /// Blocks newest first, starting below `round` (default: from the latest); `limit` capped at 1000.
    public func blocks(before round: UInt64? = nil, limit: Int = 20) throws(LedgerError) -> [Block] {
        try committed { store, latest in
            try store.blocks(before: round ?? (latest < .max ? latest + 1 : latest), limit: min(max(limit, 0), 1000))
        }
    }

    /// The last committed block.
    public var latestBlock: Block { state.withLock { $0.latest } }

    /// Number of transactions waiting in the pool.
    public var pendingCount: Int { state.withLock { $0.pool.count } }

    /// `GET /v1/network`: the genesis parameters and the latest block, with each contract's part
    /// (`Contract.contribute(to:)`: the faucet's address and pour amount).
    public var networkInfo: NetworkInfo {
        let block = latestBlock
        var info = NetworkInfo(
            chainID: genesis.chainID, symbol: genesis.symbol, decimals: genesis.decimals,
            blockTimeMillis: genesis.blockTimeMillis, confirmations: genesis.confirmations,
            expiryBlocks: genesis.expiryBlocks, minimumFee: genesis.minimumFee,
            usdMicrosPerToken: genesis.usdMicrosPerToken, latestRound: block.round, latestBlockHash: block.hash,
            faucetAddress: "", faucetPourAmount: 0,
            maxNonceAhead: genesis.maxNonceAhead, time: clock.now)
        info.producers = genesis.producers
        info.nodeKey = signingKey.publicKey.hex
        for (_, contract) in contractOrder { contract.contribute(to: &info) }
        return info
    }

    /// A committed value from a contract's key-value store, for free read-only queries.
    public func contractValue(_ contract: String, key: String) throws(LedgerError) -> [UInt8]? {
        try locked { _, store throws(LedgerError) in
            do { return try store.contractValue(contract, key) } catch { throw .store(error, "reading \(contract)") }
        }
    }

    /// Adds up every balance and compares with the genesis supply; each contract adds its part
    /// (`Contract.contribute(to:balance:)`: the faucet's remaining supply).
    public func supply() throws(LedgerError) -> SupplyReport {
        try locked { _, store throws(LedgerError) in
            do {
                let (sum, count) = try store.balanceSum()
                var report = SupplyReport(totalSupply: genesis.totalSupply ?? 0, balanceSum: sum, faucetRemaining: 0, accountCount: count)
                for (name, contract) in contractOrder {
                    contract.contribute(to: &report, balance: try store.account(ContractCall.address(of: name))?.balance ?? 0)
                }
                return report
            } catch { throw .store(error, "reading the supply") }
        }
    }
}
