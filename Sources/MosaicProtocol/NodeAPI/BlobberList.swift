/// `GET /v1/storage/blobbers`: every registered blobber.
public struct BlobberList: Sendable, Codable {
    public var blobbers: [BlobberInfo]
    public init(blobbers: [BlobberInfo]) { self.blobbers = blobbers }
}
