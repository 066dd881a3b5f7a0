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
