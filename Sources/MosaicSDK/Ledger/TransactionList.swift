import MosaicProtocol

/// `GET /v1/blocks/{id}/transactions`.
struct TransactionList: Decodable, Sendable {
    let transactions: [TransactionView]
}
