/// `GET /v1/accounts/{client_id}`: committed balance and nonce, plus the nonce the next
/// transaction should carry (after the sender's pending ones), so a client can sign without guessing.
public struct AccountView: Sendable, Hashable, Codable {
    public var clientID: String
    public var balance: UInt64
    /// Last nonce used in a block (0 for a new account).
    public var nonce: UInt64
    /// First nonce no committed or pending transaction holds.
    public var nextNonce: UInt64
    /// How many of this sender's transactions wait in the pool.
    public var pendingCount: Int
    /// Round of the block this state reflects.
    public var round: UInt64

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case balance, nonce
        case nextNonce = "next_nonce"
        case pendingCount = "pending_count"
        case round
    }

    public init(clientID: String, balance: UInt64, nonce: UInt64, nextNonce: UInt64, pendingCount: Int, round: UInt64) {
        self.clientID = clientID
        self.balance = balance
        self.nonce = nonce
        self.nextNonce = nextNonce
        self.pendingCount = pendingCount
        self.round = round
    }
}
