/// Body of `POST /v1/devnet/time`: seconds to move the ledger clock forward.
public struct ClockAdvance: Sendable, Hashable, Codable {
    public var advanceSeconds: Int64
    enum CodingKeys: String, CodingKey { case advanceSeconds = "advance_seconds" }
    public init(advanceSeconds: Int64) { self.advanceSeconds = advanceSeconds }
}
