/// What the faucet would do for an account right now, so clients can say "next pour at …"
/// before submitting a pour that would fail.
package struct FaucetStatus: Sendable, Hashable, Codable {
    public var pourAmount: UInt64
    /// Poured to this account in its current window.
    public var pouredInWindow: UInt64
    public var accountLimit: UInt64
    /// Unix seconds when the account can pour again; nil when it can pour now.
    public var nextPourAt: Int64?
    /// What the faucet account still holds.
    public var remainingSupply: UInt64

    enum CodingKeys: String, CodingKey {
        case pourAmount = "pour_amount"
        case pouredInWindow = "poured_in_window"
        case accountLimit = "account_limit"
        case nextPourAt = "next_pour_at"
        case remainingSupply = "remaining_supply"
    }
}
