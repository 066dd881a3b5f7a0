import Foundation
import MosaicCrypto
import MosaicProtocol
import MosaicSDK
import MosaicTestSupport
import Testing

/// The node's storage routes through the SDK: `Wallet` storage calls (signed, waited for, chain
/// errors surfaced) and `LedgerClient` storage reads.
@Suite(.timeLimit(.minutes(3))) struct StorageAPITests {
    /// The chain's message when `body` fails on the ledger; nil when it succeeds or fails otherwise.
    func chainError(_ body: () async throws(WalletError) -> String) async -> String? {
        let r: Result<String, WalletError>
        do { r = .success(try await body()) } catch { r = .failure(error) }
        if case .failure(.failed(_, let m)) = r { return m.message }
        return nil
    }

    @Test func walletStorageCallsAndLedgerClientReads() async throws {
        let keys = try (3...5).map { try testKey(UInt8($0)) }
        var extra: [String: UInt64] = [:]
        for k in keys { extra[k.publicKey.clientID] = 10 * token }
        let net = try TestDevnet(confirmations: 1, extra: extra)
        let client = net.client
        do {
            // Too few blobbers: the quote says so, and so does the chain.
            await #expect(throws: LedgerClientError.self) {
                try await client.storageQuote(size: 1 << 20, dataShards: 2, parityShards: 1, seconds: 86_400)
            }
            for (i, k) in keys.enumerated() {
                let w = Wallet(signingKey: k, client: client)
                try await w.registerBlobber(
                    url: "http://127.0.0.1:\(9000 + i)", capacity: 1 << 30, writePrice: token / 100, readPrice: 0, stake: token)
            }
            let blobbers = try await client.storageBlobbers()
            #expect(blobbers.count == 3)
            #expect(try await client.storageBlobber(keys[0].publicKey.clientID)?.stake == token)
            #expect(try await client.storageBlobber(String(repeating: "0", count: 64)) == nil)

            let owner = Wallet(signingKey: net.alice, client: client)
            let now = try await client.network().time
            let lock = try await client.storageQuote(size: 1 << 20, dataShards: 2, parityShards: 1, seconds: 86_400)
            #expect(lock > 0)
            let low = await chainError { () async throws(WalletError) in
                try await owner.newAllocation(data: 2, parity: 1, size: 1 << 20, expiration: now + 86_400, lock: 1)
            }
            #expect(low?.contains("lock at least") == true, "\(low ?? "no error")")
            let few = await chainError { () async throws(WalletError) in
                try await owner.newAllocation(data: 3, parity: 1, size: 1 << 20, expiration: now + 86_400, lock: token)
            }
            #expect(few?.contains("not enough blobbers") == true, "\(few ?? "no error")")
            let id = try await owner.newAllocation(name: "n", data: 2, parity: 1, size: 1 << 20, expiration: now + 86_400, lock: lock)
            let a = try #require(try await client.storageAllocation(id))
            #expect(a.name == "n" && a.blobbers.count == 3 && a.writePool == lock)
            #expect(try await client.storageAllocations(owner: net.alice.publicKey.clientID).map(\.id) == [id])
            #expect(try await client.storageOpenChallenges(blobber: keys[0].publicKey.clientID).isEmpty)
            #expect(
                try await client.storageReadCounter(allocation: id, blobber: keys[0].publicKey.clientID, reader: net.bob.publicKey.clientID)
                    == 0)

            let ticket = Hex.encode(SHA256.hash(Array("t".utf8)))
            #expect(try await client.isTicketRevoked(ticket, owner: net.alice.publicKey.clientID) == false)
            try await owner.revokeTicket(ticket)
            #expect(try await client.isTicketRevoked(ticket, owner: net.alice.publicKey.clientID))

            try await owner.updateAllocation(id, extendSeconds: 3600, lock: lock)
            #expect(try await client.storageAllocation(id)?.expiration == a.expiration + 3600)
            try await owner.cancelAllocation(id)
            #expect(try await client.storageAllocation(id)?.status == .canceled)

            // Malformed ids are 400s, unknown ones 404 (nil in the SDK).
            #expect(try await client.storageAllocation(String(repeating: "a", count: 64)) == nil)
            #expect(try await client.storageChallenge(String(repeating: "a", count: 64)) == nil)
            await #expect(throws: LedgerClientError.self) { try await client.storageAllocation("nope") }
        } catch {
            await net.stop()
            throw error
        }
        await net.stop()
    }
}
