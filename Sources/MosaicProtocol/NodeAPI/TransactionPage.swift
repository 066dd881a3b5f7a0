/// `GET /v1/accounts/{client_id}/transactions`: one page of an account's history, newest first
/// (its pending transactions first), and how many there are in all.
public struct TransactionPage: Sendable, Hashable, Codable {
    public var transactions: [TransactionView]
    public var total: Int
    public var limit: Int
    public var offset: Int

    public init(transactions: [TransactionView], total: Int, limit: Int, offset: Int) {
        self.transactions = transactions
        self.total = total
        self.limit = limit
        self.offset = offset
    }
}
