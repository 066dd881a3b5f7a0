/// `GET /v1/storage/allocations?owner=`: an owner's allocations.
public struct AllocationList: Sendable, Codable {
    public var allocations: [Allocation]
    public init(allocations: [Allocation]) { self.allocations = allocations }
}
