import Testing

@testable import MosaicSDK

/// After an expiry the wallet's next send takes the expired nonce again instead of waiting
/// behind the gap it left (issue 11 item 3).
@Suite struct NonceAllocatorTests {
    @Test func anExpiredNonceIsHandedOutAgainFirst() async throws {
        let nonces = NonceAllocator(window: 10)
        let first = try await nonces.reserve { 5 }
        await nonces.finish(first, taken: true)
        let second = try await nonces.reserve { 5 }
        await nonces.finish(second, taken: true)
        #expect([first, second] == [5, 6])
        await nonces.expired(5)
        #expect(try await nonces.reserve { 5 } == 5)
        #expect(try await nonces.reserve { 5 } == 7)
        // A nonce never handed out, or below what the node has used, is not reissued.
        await nonces.expired(99)
        await nonces.resync(nodeNext: 7)
        await nonces.expired(4)
        #expect(try await nonces.reserve { 5 } == 8)
    }
}
