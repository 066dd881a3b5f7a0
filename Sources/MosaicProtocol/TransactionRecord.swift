/// A transaction with where it stands: what a "get transaction" read returns.
public struct TransactionRecord: Sendable, Hashable, Codable {
    public var transaction: Transaction
    public var status: TransactionStatus
    /// Present once finalized.
    public var receipt: TransactionReceipt?
    /// Blocks after the transaction's block (0 when just finalized).
    public var confirmations: UInt64

    public init(transaction: Transaction, status: TransactionStatus, receipt: TransactionReceipt?, confirmations: UInt64) {
        self.transaction = transaction
        self.status = status
        self.receipt = receipt
        self.confirmations = confirmations
    }
}
