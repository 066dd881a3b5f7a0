/// Something a contract reports happened (e.g. a faucet pour), for explorers and clients.
public struct TransactionEvent: Sendable, Hashable, Codable {
    public var name: String
    public var attributes: [String: String]

    public init(name: String, attributes: [String: String]) {
        self.name = name
        self.attributes = attributes
    }
}
