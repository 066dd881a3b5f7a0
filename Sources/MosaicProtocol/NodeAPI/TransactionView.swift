/// A transaction as the node API shows it (`GET /v1/transactions/{hash}`): the signed fields,
/// flat, plus where it stands and, once in a block, its receipt. Shared by node and SDK so both
/// sides agree on every key.
public struct TransactionView: Sendable, Hashable, Codable {
    public var transaction: Transaction
    public var status: TransactionStatus
    /// Blocks after the transaction's block (0 while pending or just finalized).
    public var confirmations: UInt64
    public var round: UInt64?
    public var blockHash: String?
    public var index: Int?
    public var outputHash: String?
    public var outcome: ExecutionOutcome?
    /// The chain's error when execution failed: a stable code and the contract's message.
    public var error: ExecutionError?
    public var output: String?
    public var events: [TransactionEvent]?

    enum ExtraKeys: String, CodingKey {
        case status, confirmations, round
        case blockHash = "block_hash"
        case index
        case outputHash = "output_hash"
        case outcome, error, output, events
    }

    public init(transaction: Transaction, status: TransactionStatus, confirmations: UInt64 = 0, receipt: TransactionReceipt? = nil) {
        self.transaction = transaction
        self.status = status
        self.confirmations = confirmations
        round = receipt?.round
        blockHash = receipt?.blockHash
        index = receipt?.index
        outputHash = receipt?.outputHash
        outcome = receipt?.outcome
        error = receipt?.error
        output = receipt?.output
        events = receipt?.events
    }

    public init(_ record: TransactionRecord) {
        self.init(transaction: record.transaction, status: record.status, confirmations: record.confirmations, receipt: record.receipt)
    }

    public var hash: String { transaction.hash }

    /// True once included and executed successfully.
    public var succeeded: Bool { outcome == .success }

    public init(from decoder: any Decoder) throws {
        transaction = try Transaction(from: decoder)
        let c = try decoder.container(keyedBy: ExtraKeys.self)
        status = try c.decode(TransactionStatus.self, forKey: .status)
        confirmations = try c.decodeIfPresent(UInt64.self, forKey: .confirmations) ?? 0
        round = try c.decodeIfPresent(UInt64.self, forKey: .round)
        blockHash = try c.decodeIfPresent(String.self, forKey: .blockHash)
        index = try c.decodeIfPresent(Int.self, forKey: .index)
        outputHash = try c.decodeIfPresent(String.self, forKey: .outputHash)
        outcome = try c.decodeIfPresent(ExecutionOutcome.self, forKey: .outcome)
        error = try c.decodeIfPresent(ExecutionError.self, forKey: .error)
        output = try c.decodeIfPresent(String.self, forKey: .output)
        events = try c.decodeIfPresent([TransactionEvent].self, forKey: .events)
    }

    /// Flat: the transaction's keys and the status keys in one object; absent values are null.
    public func encode(to encoder: any Encoder) throws {
        try transaction.encode(to: encoder)
        var c = encoder.container(keyedBy: ExtraKeys.self)
        try c.encode(status, forKey: .status)
        try c.encode(confirmations, forKey: .confirmations)
        try c.encode(round, forKey: .round)
        try c.encode(blockHash, forKey: .blockHash)
        try c.encode(index, forKey: .index)
        try c.encode(outputHash, forKey: .outputHash)
        try c.encode(outcome, forKey: .outcome)
        try c.encode(error, forKey: .error)
        try c.encode(output, forKey: .output)
        try c.encode(events, forKey: .events)
    }
}
