import Foundation
import MosaicSDK
import MosaicStorageCore
import Testing

@testable import MosaicBlobber

/// The blobber's cache of encoded listings serves a body again only for the very same state, and
/// stays within its budget.
@Suite struct ListingBodyCacheTests {
    private func key(_ path: String, state: UInt64 = 1) -> ListingBodyCache.Key {
        let s = BlobberWire.AllocationState(
            allocationID: "a", blobberID: "b", index: 0, root: String(state), size: state, capacity: 1 << 30, fileCount: 1,
            expiration: 0, writeMarker: nil)
        return ListingBodyCache.Key(allocationID: "a", path: path, recursive: false, format: "proven", state: s)
    }

    @Test func aBodyIsMadeOncePerStateAndAgainAfterTheStateChanges() {
        let cache = ListingBodyCache()
        var made = 0
        func body(_ k: ListingBodyCache.Key) -> Data {
            cache.body(k) {
                made += 1
                return Data("listing \(made)".utf8)
            }
        }
        #expect(body(key("/p")) == Data("listing 1".utf8))
        #expect(body(key("/p")) == Data("listing 1".utf8))
        #expect(made == 1)
        // A commit changes the state (its root): the next listing is made from the new state.
        #expect(body(key("/p", state: 2)) == Data("listing 2".utf8))
        #expect(body(key("/q")) == Data("listing 3".utf8))
        #expect(made == 3)
    }

    @Test func theOldestBodiesGoWhenTheBudgetIsFullAndAnOversizedOneIsNotKept() {
        let cache = ListingBodyCache(maxBytes: 100, maxEntries: 3)
        var made = 0
        func body(_ k: ListingBodyCache.Key, size: Int = 10) -> Data {
            cache.body(k) {
                made += 1
                return Data(repeating: 0, count: size)
            }
        }
        for p in ["/a", "/b", "/c", "/d"] { _ = body(key(p)) }
        #expect(made == 4)
        _ = body(key("/d"))
        _ = body(key("/b"))
        #expect(made == 4)
        _ = body(key("/a"))
        #expect(made == 5, "the oldest went when a fourth came")
        _ = body(key("/big"), size: 60)
        _ = body(key("/big"), size: 60)
        #expect(made == 7, "a body over half the budget is served but not kept")
    }

    @Test func aBlobberListingTheSameFolderTwiceEncodesItOnce() async throws {
        let grid = try await StorageGrid(data: 1, parity: 1)
        defer { Task { await grid.shutdown() } }
        let a = grid.allocation
        for name in ["a", "b", "c"] {
            _ = try await grid.client.upload(localFile: try grid.localFile([1, 2, 3]), remotePath: "/d/" + name, allocation: a)
        }
        let server = try #require(grid.server(0))
        let before = server.listingBodies.made
        for _ in 0..<3 { #expect(try await grid.client.list("/d", allocation: a).count == 3) }
        #expect(server.listingBodies.made == before + 1, "the same state lists from the cache (its key must not vary per request)")
        try await grid.client.mkdir("/d/e", allocation: a)
        #expect(try await grid.client.list("/d", allocation: a).count == 4)
        #expect(server.listingBodies.made == before + 2, "a commit gives a new state, so a new body")
        await grid.shutdown()
    }
}
