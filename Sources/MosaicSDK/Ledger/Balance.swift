import MosaicProtocol

/// A wallet's balance with what is needed to show it: tokens and the USD value at the
/// network's integer rate.
public struct Balance: Sendable, Hashable {
    public var clientID: String
    public var amount: TokenAmount
    public var nonce: UInt64
    public var symbol: String
    /// Micro-dollars per whole token.
    public var usdMicrosPerToken: UInt64
    public var round: UInt64

    public init(clientID: String, amount: TokenAmount, nonce: UInt64, symbol: String, usdMicrosPerToken: UInt64, round: UInt64) {
        self.clientID = clientID
        self.amount = amount
        self.nonce = nonce
        self.symbol = symbol
        self.usdMicrosPerToken = usdMicrosPerToken
        self.round = round
    }

    public var baseUnits: UInt64 { amount.baseUnits }
    /// "1.5"
    public var tokens: String { amount.description }
    /// "0.15" (USD, rounded down to cents).
    public var usd: String { amount.usdDecimal(microDollarsPerToken: usdMicrosPerToken) }
    /// "0.10": the USD price of one token.
    public var usdPerToken: String {
        TokenAmount(baseUnits: TokenAmount.unitsPerToken).usdDecimal(microDollarsPerToken: usdMicrosPerToken)
    }
}
