/// What a client needs to know about the network before signing (chain id, fees) and to display
/// amounts (symbol, decimals, USD rate).
public struct NetworkInfo: Sendable, Hashable, Codable {
    public var chainID: String
    public var symbol: String
    public var decimals: Int
    /// Block interval in milliseconds (0: a block per submitted batch).
    public var blockTimeMillis: Int64
    public var confirmations: UInt64
    /// Blocks a pending transaction may wait before it expires.
    public var expiryBlocks: UInt64
    public var minimumFee: UInt64
    /// Integer micro-dollars per whole token.
    public var usdMicrosPerToken: UInt64
    public var latestRound: UInt64
    public var latestBlockHash: String
    public var faucetAddress: String
    public var faucetPourAmount: UInt64
    public var maxNonceAhead: UInt64
    /// Ledger clock (unix seconds).
    public var time: Int64
    /// The URL others reach this node at (`mosaic node --public-url`), e.g. behind TLS on another
    /// machine; absent when the node did not say (then the URL the client used is the one).
    public var publicURL: String?
    /// Hex Ed25519 keys the genesis allows to sign blocks (docs/PROTOCOL.md §2.9); absent from
    /// nodes before blocks were signed.
    public var producers: [String]?
    /// This node's own key: the one that signs the blocks it makes while it holds the lease.
    public var nodeKey: String?

    enum CodingKeys: String, CodingKey {
        case chainID = "chain_id"
        case symbol, decimals
        case blockTimeMillis = "block_time_ms"
        case confirmations
        case expiryBlocks = "expiry_blocks"
        case minimumFee = "minimum_fee"
        case usdMicrosPerToken = "usd_micros_per_token"
        case latestRound = "latest_round"
        case latestBlockHash = "latest_block_hash"
        case faucetAddress = "faucet_address"
        case faucetPourAmount = "faucet_pour_amount"
        case maxNonceAhead = "max_nonce_ahead"
        case time
        case publicURL = "public_url"
        case producers
        case nodeKey = "node_key"
    }

    public init(
        chainID: String, symbol: String, decimals: Int, blockTimeMillis: Int64, confirmations: UInt64,
        expiryBlocks: UInt64, minimumFee: UInt64, usdMicrosPerToken: UInt64, latestRound: UInt64,
        latestBlockHash: String, faucetAddress: String, faucetPourAmount: UInt64, maxNonceAhead: UInt64, time: Int64
    ) {
        self.chainID = chainID
        self.symbol = symbol
        self.decimals = decimals
        self.blockTimeMillis = blockTimeMillis
        self.confirmations = confirmations
        self.expiryBlocks = expiryBlocks
        self.minimumFee = minimumFee
        self.usdMicrosPerToken = usdMicrosPerToken
        self.latestRound = latestRound
        self.latestBlockHash = latestBlockHash
        self.faucetAddress = faucetAddress
        self.faucetPourAmount = faucetPourAmount
        self.maxNonceAhead = maxNonceAhead
        self.time = time
    }
}
