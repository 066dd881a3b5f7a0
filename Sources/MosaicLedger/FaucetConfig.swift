import MosaicProtocol

/// Faucet parameters: a fixed pour, limited per account and overall within rolling windows.
package struct FaucetConfig: Sendable, Hashable, Codable {
    public var pourAmount: UInt64
    /// Most an account may receive within `accountWindowSeconds`.
    public var accountLimit: UInt64
    public var accountWindowSeconds: Int64
    /// Most the faucet gives to everyone together within `globalWindowSeconds`.
    public var globalLimit: UInt64
    public var globalWindowSeconds: Int64
    /// Balance the faucet account starts with.
    public var supply: UInt64

    enum CodingKeys: String, CodingKey {
        case pourAmount = "pour_amount"
        case accountLimit = "account_limit"
        case accountWindowSeconds = "account_window_seconds"
        case globalLimit = "global_limit"
        case globalWindowSeconds = "global_window_seconds"
        case supply
    }

    public init(
        pourAmount: UInt64 = TokenAmount.unitsPerToken, accountLimit: UInt64 = 10 * TokenAmount.unitsPerToken,
        accountWindowSeconds: Int64 = 3600, globalLimit: UInt64 = 100_000 * TokenAmount.unitsPerToken,
        globalWindowSeconds: Int64 = 86_400, supply: UInt64 = 1_000_000_000 * TokenAmount.unitsPerToken
    ) {
        self.pourAmount = pourAmount
        self.accountLimit = accountLimit
        self.accountWindowSeconds = accountWindowSeconds
        self.globalLimit = globalLimit
        self.globalWindowSeconds = globalWindowSeconds
        self.supply = supply
    }
}
