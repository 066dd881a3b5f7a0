/// The sum check behind "no tokens are created or lost": every balance, including the faucet's
/// remaining supply and collected fees, adds up to the genesis supply.
package struct SupplyReport: Sendable, Hashable, Codable {
    public var totalSupply: UInt64
    public var balanceSum: UInt64
    public var faucetRemaining: UInt64
    public var accountCount: Int
    public var isConserved: Bool { balanceSum == totalSupply }
}
