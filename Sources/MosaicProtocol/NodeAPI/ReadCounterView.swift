/// `GET /v1/storage/read-counter`: the highest redeemed read-marker counter.
public struct ReadCounterView: Sendable, Codable {
    public var counter: UInt64
    public init(counter: UInt64) { self.counter = counter }
}
