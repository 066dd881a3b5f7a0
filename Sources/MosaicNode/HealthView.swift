/// `GET /health`: enough to tell that the node runs and produces blocks.
struct HealthView: Encodable {
    let latestRound: UInt64
    let pending: Int
    /// The last block production failure, if any (the node keeps serving reads).
    let productionError: String?
    /// Whether this node holds the producer lease: the one of the nodes sharing a database that
    /// makes the blocks (always true for a node alone on its SQLite file).
    let producer: Bool

    enum CodingKeys: String, CodingKey {
        case latestRound = "latest_round"
        case pending
        case productionError = "production_error"
        case producer
    }
}
