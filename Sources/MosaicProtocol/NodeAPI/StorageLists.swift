/// List answers of the node's storage routes (`{"blobbers":[…]}` and the like).
public struct BlobberList: Sendable, Codable {
    public var blobbers: [BlobberInfo]
    public init(blobbers: [BlobberInfo]) { self.blobbers = blobbers }
}

public struct AllocationList: Sendable, Codable {
    public var allocations: [Allocation]
    public init(allocations: [Allocation]) { self.allocations = allocations }
}

public struct ChallengeList: Sendable, Codable {
    public var challenges: [Challenge]
    public init(challenges: [Challenge]) { self.challenges = challenges }
}

public struct ReadCounterView: Sendable, Codable {
    public var counter: UInt64
    public init(counter: UInt64) { self.counter = counter }
}

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
