/// The result of executing an included transaction.
public struct TransactionReceipt: Sendable, Hashable, Codable {
    public var transactionHash: String
    public var blockHash: String
    public var round: UInt64
    /// Position in the block.
    public var index: Int
    public var outcome: ExecutionOutcome
    /// Why execution failed, `{"code","message"}`; nil on success.
    public var error: ExecutionError?
    /// Short human output ("transferred 1.5 MSC", "poured 1 MSC").
    public var output: String
    /// Hex SHA-256 over tx hash, outcome, error code and message, and output (docs/PROTOCOL.md §2.6).
    public var outputHash: String
    public var events: [TransactionEvent]

    enum CodingKeys: String, CodingKey {
        case transactionHash = "transaction_hash"
        case blockHash = "block_hash"
        case round, index, outcome, error, output
        case outputHash = "output_hash"
        case events
    }

    public init(
        transactionHash: String, blockHash: String, round: UInt64, index: Int, outcome: ExecutionOutcome,
        error: ExecutionError?, output: String, outputHash: String, events: [TransactionEvent]
    ) {
        self.transactionHash = transactionHash
        self.blockHash = blockHash
        self.round = round
        self.index = index
        self.outcome = outcome
        self.error = error
        self.output = output
        self.outputHash = outputHash
        self.events = events
    }
}
