/// `GET /v1/storage/read-pools/{client_id}`: tokens the reader locked for paying reads.
public struct ReadPoolView: Sendable, Codable {
    public var clientID: String
    public var balance: UInt64
    enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case balance
    }
    public init(clientID: String, balance: UInt64) {
        self.clientID = clientID
        self.balance = balance
    }
}
