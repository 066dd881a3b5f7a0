import MosaicProtocol

/// A wallet's balance with what is needed to show it: tokens and the USD value at the
/// network's integer rate. Encodes as what clients print: `{"client_id","balance","tokens","usd",
/// "usd_per_token","symbol","nonce","round"}` (`balance` in base units, the rest as text).
public struct Balance: Sendable, Hashable, Encodable {
    /// The account the balance is of.
    public var clientID: String
    /// The spendable balance.
    public var amount: TokenAmount
    /// The account's nonce on the ledger (transactions it has had included).
    public var nonce: UInt64
    /// The network's token symbol, e.g. "MSC".
    public var symbol: String
    /// Micro-dollars per whole token.
    public var usdMicrosPerToken: UInt64
    /// The round the balance was read at.
    public var round: UInt64

    /// Usually made by `Wallet.balance()`; apps build one for previews and tests.
    /// - Parameters:
    ///   - clientID: the account.
    ///   - amount: its balance.
    ///   - nonce: its nonce.
    ///   - symbol: the token symbol.
    ///   - usdMicrosPerToken: the network's USD rate, micro-dollars per whole token.
    ///   - round: the round it was read at.
    public init(clientID: String, amount: TokenAmount, nonce: UInt64, symbol: String, usdMicrosPerToken: UInt64, round: UInt64) {
        self.clientID = clientID
        self.amount = amount
        self.nonce = nonce
        self.symbol = symbol
        self.usdMicrosPerToken = usdMicrosPerToken
        self.round = round
    }

    /// The balance in base units (the ledger's integer unit).
    public var baseUnits: UInt64 { amount.baseUnits }
    /// "1.5"
    public var tokens: String { amount.description }
    /// "0.15" (USD, rounded down to cents).
    public var usd: String { amount.usdDecimal(microDollarsPerToken: usdMicrosPerToken) }
    /// "0.10": the USD price of one token.
    public var usdPerToken: String {
        TokenAmount(baseUnits: TokenAmount.unitsPerToken).usdDecimal(microDollarsPerToken: usdMicrosPerToken)
    }

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case balance, tokens, usd
        case usdPerToken = "usd_per_token"
        case symbol, nonce, round
    }

    /// Writes the keys listed on the type, in that order.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(clientID, forKey: .clientID)
        try c.encode(baseUnits, forKey: .balance)
        try c.encode(tokens, forKey: .tokens)
        try c.encode(usd, forKey: .usd)
        try c.encode(usdPerToken, forKey: .usdPerToken)
        try c.encode(symbol, forKey: .symbol)
        try c.encode(nonce, forKey: .nonce)
        try c.encode(round, forKey: .round)
    }
}
