import Foundation
import MosaicCrypto
import MosaicStorageCore
import MosaicTestSupport
import Testing

@testable import MosaicSDK

/// Blobbers apply a commit to their record in place: a commit refused after some of its changes
/// were applied must leave files, leaves, root and size exactly as they were.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct CommitRollbackTests {
    @Test func aCommitRefusedHalfwayLeavesTheBlobberAsItWas() async throws {
        let grid = try await StorageGrid(data: 2, parity: 2)
        defer { Task { await grid.shutdown() } }
        for name in ["x", "y", "z"] {
            try await grid.client.upload(
                localFile: try grid.localFile(testBytes(3000, seed: UInt64(name.utf8.first ?? 1))), remotePath: "/docs/\(name)",
                allocation: grid.allocation)
        }
        let before = try await grid.connection(0).state()
        let listed = try await grid.client.list("/docs", allocation: grid.allocation).map(\.hash)
        var folder = FileMeta.directory(allocationID: grid.allocation.id, path: "/new", time: 0, ownerID: grid.owner.publicKey.clientID)
        folder.sign(with: grid.owner)
        let newFolder = folder
        // A delete and a put apply; the third change (a put over /docs/y without replace) is refused.
        await #expect(throws: (any Error).self) {
            try await grid.client.commit(grid.connection(0), allocation: grid.allocation) { files in
                guard let y = files["/docs/y"] else { return [] }
                return [.delete("/docs/x"), .put(newFolder), .put(y)]
            }
        }
        let after = try await grid.connection(0).state()
        #expect(after.root == before.root)
        #expect(after.size == before.size)
        #expect(after.fileCount == before.fileCount)
        #expect(try await grid.client.list("/docs", allocation: grid.allocation).map(\.hash) == listed)
        // Its files still give its root (a fresh client checks the full listing against it), and
        // the next commit there applies on top of the restored leaves.
        let fresh = StorageClient(signingKey: grid.owner, home: URL(fileURLWithPath: grid.root + "/fresh-home"))
        try await fresh.commit(grid.connection(0), allocation: grid.allocation) { _ in [.delete("/docs/z")] }
        try await grid.client.mkdir("/later", allocation: grid.allocation)
        #expect(try await grid.connection(0).state().fileCount == before.fileCount)
        #expect(try await grid.connection(0).list("/docs", recursive: false).map(\.path) == ["/docs/x", "/docs/y"])
        await grid.shutdown()  // also at the end: the deferred task may not run before the process exits
    }
}
