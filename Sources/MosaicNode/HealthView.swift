/// `GET /health`: enough to tell that the node runs and produces blocks.
struct HealthView: Encodable {
    let latestRound: UInt64
    let pending: Int
    /// The last block production failure, if any (the node keeps serving reads).
    let productionError: String?

    enum CodingKeys: String, CodingKey {
        case latestRound = "latest_round"
        case pending
        case productionError = "production_error"
    }
}
