/// `POST /v1/transactions/batch`: many signed transactions in one request, so a busy client
/// pays one HTTP round trip (and one ledger lock) for up to `maxCount` of them.
public struct BatchSubmission: Sendable, Hashable, Codable {
    public static let maxCount = 5000
    public var transactions: [Transaction]
    public init(transactions: [Transaction]) { self.transactions = transactions }
}
