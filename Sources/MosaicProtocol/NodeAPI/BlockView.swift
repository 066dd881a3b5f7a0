/// `GET /v1/blocks/{round|hash}`: a block's header fields, flat, with the hashes of its
/// transactions in block order (only on single-block reads) and whether it is sealed.
public struct BlockView: Sendable, Hashable, Codable {
    public var block: Block
    public var transactions: [String]?
    /// Blocks committed after this one.
    public var confirmations: UInt64

    enum ExtraKeys: String, CodingKey { case transactions, confirmations }

    public init(block: Block, transactions: [String]?, confirmations: UInt64) {
        self.block = block
        self.transactions = transactions
        self.confirmations = confirmations
    }

    public init(from decoder: any Decoder) throws {
        block = try Block(from: decoder)
        let c = try decoder.container(keyedBy: ExtraKeys.self)
        transactions = try c.decodeIfPresent([String].self, forKey: .transactions)
        confirmations = try c.decodeIfPresent(UInt64.self, forKey: .confirmations) ?? 0
    }

    public func encode(to encoder: any Encoder) throws {
        try block.encode(to: encoder)
        var c = encoder.container(keyedBy: ExtraKeys.self)
        try c.encodeIfPresent(transactions, forKey: .transactions)
        try c.encode(confirmations, forKey: .confirmations)
    }
}
