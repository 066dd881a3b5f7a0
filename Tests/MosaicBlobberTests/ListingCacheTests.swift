import Foundation
import Testing

@testable import MosaicBlobber
@testable import MosaicSDK
@testable import MosaicStorageCore

/// A client reuses its last listing of a blobber only while the blobber's root is the one it
/// left: a write by another client (another device of the same owner) in between is seen.
@Suite struct ListingCacheTests {
    @Test func writesFromAnotherClientInBetweenAreNotLost() async throws {
        let grid = try await StorageGrid(data: 2, parity: 1)
        defer { Task { await grid.shutdown() } }
        let other = StorageClient(signingKey: grid.owner, home: URL(fileURLWithPath: grid.root + "/other-home"))
        let file = try grid.localFile(randomBytes(5_000))
        _ = try await grid.client.upload(localFile: file, remotePath: "/one", allocation: grid.allocation)
        _ = try await other.upload(localFile: file, remotePath: "/two", allocation: grid.allocation)
        _ = try await grid.client.upload(localFile: file, remotePath: "/three", allocation: grid.allocation)
        try await grid.client.delete("/one", allocation: grid.allocation)
        _ = try await other.upload(localFile: file, remotePath: "/four", allocation: grid.allocation)
        for client in [grid.client, other] {
            #expect(try await client.list("/", allocation: grid.allocation).map(\.path) == ["/four", "/three", "/two"])
        }
        for i in 0..<3 {
            let state = try await grid.connection(i).state()
            #expect(state.fileCount == 3, "blobber \(i)")
        }
    }
}
