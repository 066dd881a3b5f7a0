import Foundation
import MosaicCrypto
import MosaicProtocol
import Testing

@testable import MosaicSDK

/// `StorageClient.share` and `LedgerClient.shareRecipient`: the checks the CLI's `share` and the
/// app's share route both rely on, made once in the SDK before a ticket is signed.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct ShareCheckTests {
    @Test func aFolderOrALockerFileIsRefusedAndAFileIsSharedWithItsKey() async throws {
        let grid = try await StorageGrid(data: 1, parity: 1)
        defer { Task { await grid.shutdown() } }
        let bytes = randomBytes(70_000)
        _ = try await grid.client.upload(localFile: try grid.localFile(bytes), remotePath: "/docs/a.bin", allocation: grid.allocation)
        var locker = Locker(storage: grid.client, allocation: grid.allocation)
        locker.parameters = .testing
        try await locker.put(localFile: try grid.localFile(randomBytes(1000)), name: "pin.bin", pin: try LockerPIN("2580"))

        await #expect(throws: ShareError.notAFile(path: "/docs")) {
            try await grid.client.share("/docs", allocation: grid.allocation, recipient: nil, expiration: 0)
        }
        await #expect(throws: ShareError.lockerFile(path: "/locker/pin.bin")) {
            try await grid.client.share("/locker/pin.bin", allocation: grid.allocation, recipient: nil, expiration: 0)
        }

        let link = try await grid.client.share("/docs/a.bin", allocation: grid.allocation, recipient: nil, expiration: 0)
        #expect(link.ticket.path == "/docs/a.bin")
        #expect(link.ticket.recipientID.isEmpty && link.key != nil && link.sealedKey == nil)
        #expect(link.ticket.readBudget == ShareToken.defaultReadBudget(fileSize: Int64(bytes.count), allocation: grid.allocation))

        let reader = Ed25519.SigningKey.generate()
        let sealed = try await grid.client.share(
            "/docs/a.bin", allocation: grid.allocation, recipient: reader.publicKey, expiration: 1_900_000_000, readBudget: 7)
        #expect(sealed.ticket.recipientID == reader.publicKey.clientID && sealed.key == nil && sealed.sealedKey != nil)
        #expect(sealed.ticket.readBudget == 7 && sealed.ticket.expiration == 1_900_000_000)
        #expect(try sealed.contentKey(for: reader).copyBytes() == link.contentKey(for: reader).copyBytes())
    }

    @Test func aRecipientThatIsNoClientIDIsRefusedBeforeTheNodeIsAsked() async throws {
        // Nothing listens on port 1: a lookup would fail as unreachable, not as an invalid recipient.
        let ledger = LedgerClient(baseURL: try #require(URL(string: "http://127.0.0.1:1")))
        for text in ["nope", String(repeating: "g", count: 64), String(repeating: "a", count: 63)] {
            await #expect(throws: ShareError.invalidRecipient(text)) { try await ledger.shareRecipient(text) }
        }
        await #expect(throws: LedgerClientError.self) { try await ledger.shareRecipient(" " + String(repeating: "A", count: 64)) }
    }
}
