import MosaicProtocol

/// Another node's block to re-execute (`ChainVerifier`): its transactions run in its order at its
/// time, and the block keeps its producer and signature, so the hash comes out the same exactly
/// when every rule gave the same result.
final class Replay {
    let block: Block
    let transactions: [Transaction]
    /// Transactions the chain's receipts say were set aside after a crash (run as failed, not executed).
    let setAside: Set<String>
    /// The receipts the re-execution gave, in block order (filled when the block commits).
    var receipts: [TransactionReceipt] = []

    init(block: Block, transactions: [Transaction], setAside: Set<String>) {
        self.block = block
        self.transactions = transactions
        self.setAside = setAside
    }
}

extension Ledger {
    /// Re-executes `block` of another node on top of this ledger's head and commits the result:
    /// the block as this ledger computed it, and its receipts. The caller compares them with the
    /// originals; this ledger's pool, lease and clock take no part.
    package func replay(_ block: Block, transactions: [Transaction], setAside: Set<String>) throws(LedgerError) -> (
        Block, [TransactionReceipt]
    ) {
        let replay = Replay(block: block, transactions: transactions, setAside: setAside)
        let made = try locked { s, store throws(LedgerError) in
            var resumes: [(Waiter, TransactionStatus?)] = []
            return try produceLocked(&s, store, resumes: &resumes, replaying: replay)
        }
        return (made, replay.receipts)
    }
}
