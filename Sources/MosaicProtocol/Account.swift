/// An account's state. `nonce` is the last nonce used; the next transaction carries `nonce + 1`.
/// An account that never received anything reads as balance 0, nonce 0.
public struct Account: Sendable, Hashable, Codable {
    public var clientID: String
    public var balance: UInt64
    public var nonce: UInt64
    /// Round of the latest block this state reflects.
    public var round: UInt64

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case balance, nonce, round
    }

    public init(clientID: String, balance: UInt64, nonce: UInt64, round: UInt64) {
        self.clientID = clientID
        self.balance = balance
        self.nonce = nonce
        self.round = round
    }
}
