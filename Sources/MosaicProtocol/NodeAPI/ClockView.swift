/// `POST /v1/devnet/time` (devnets only): the ledger clock after moving it.
public struct ClockView: Sendable, Hashable, Codable {
    public var time: Int64
    public var offsetSeconds: Int64

    enum CodingKeys: String, CodingKey {
        case time
        case offsetSeconds = "offset_seconds"
    }

    public init(time: Int64, offsetSeconds: Int64) {
        self.time = time
        self.offsetSeconds = offsetSeconds
    }
}
