/// The answer of a contract view: what it returned and the round whose state it read.
public struct ContractViewResult: Sendable, Hashable, Codable {
    public var round: UInt64
    public var result: JSONValue

    public init(round: UInt64, result: JSONValue) {
        self.round = round
        self.result = result
    }
}

/// The body of `POST /v1/contracts/{contract}/views/{view}`.
public struct ContractViewRequest: Sendable, Hashable, Codable {
    public var args: [String: JSONValue]
    /// The round to read; the latest sealed round when absent.
    public var round: UInt64?

    public init(args: [String: JSONValue] = [:], round: UInt64? = nil) {
        self.args = args
        self.round = round
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        args = try c.decodeIfPresent([String: JSONValue].self, forKey: .args) ?? [:]
        round = try c.decodeIfPresent(UInt64.self, forKey: .round)
    }
}
