/// `GET /v1/faucet/{client_id}`: whether this account can pour now, and if not, when.
public struct FaucetView: Sendable, Hashable, Codable {
    public var clientID: String
    public var pourAmount: UInt64
    public var pouredInWindow: UInt64
    public var accountLimit: UInt64
    /// Unix seconds of the next possible pour; nil when a pour is possible now.
    public var nextPourAt: Int64?
    public var remainingSupply: UInt64
    /// Ledger clock, unix seconds.
    public var now: Int64

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case pourAmount = "pour_amount"
        case pouredInWindow = "poured_in_window"
        case accountLimit = "account_limit"
        case nextPourAt = "next_pour_at"
        case remainingSupply = "remaining_supply"
        case now
    }

    public init(
        clientID: String, pourAmount: UInt64, pouredInWindow: UInt64, accountLimit: UInt64, nextPourAt: Int64?,
        remainingSupply: UInt64, now: Int64
    ) {
        self.clientID = clientID
        self.pourAmount = pourAmount
        self.pouredInWindow = pouredInWindow
        self.accountLimit = accountLimit
        self.nextPourAt = nextPourAt
        self.remainingSupply = remainingSupply
        self.now = now
    }
}
