/// `GET /v1/supply`: the genesis supply and the sum of every balance; equal on a sound ledger.
public struct SupplyView: Sendable, Hashable, Codable {
    public var totalSupply: UInt64
    public var balanceSum: UInt64
    public var faucetRemaining: UInt64

    enum CodingKeys: String, CodingKey {
        case totalSupply = "total_supply"
        case balanceSum = "balance_sum"
        case faucetRemaining = "faucet_remaining"
    }

    public init(totalSupply: UInt64, balanceSum: UInt64, faucetRemaining: UInt64) {
        self.totalSupply = totalSupply
        self.balanceSum = balanceSum
        self.faucetRemaining = faucetRemaining
    }

    public var isConserved: Bool { totalSupply == balanceSum }
}
