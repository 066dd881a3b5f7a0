import Foundation
import MosaicCrypto
import MosaicHTTP
@testable import MosaicLedger
import MosaicProtocol
import Synchronization
import Testing
@testable import MosaicSDK
@testable import MosaicStorage

/// A blobber's view of an in-process ledger: allocations read from its state, write markers
/// committed as `storage.commit_write_markers` transactions signed by the blobber (a block is made
/// at once, as a devnet would within a second).
final class InProcessBlobberLedger: BlobberLedger {
    let ledger: Ledger
    let key: Ed25519.SigningKey
    let chainID: String
    private let lock = Mutex(())

    init(ledger: Ledger, key: Ed25519.SigningKey, chainID: String) {
        self.ledger = ledger
        self.key = key
        self.chainID = chainID
    }

    func allocation(_ id: String) async throws -> Allocation? { try ledger.storageAllocation(id) }

    func commitWriteMarkers(_ markers: [WriteMarker]) async throws {
        try call("commit_write_markers", markers)
    }

    func redeemReadMarkers(_ markers: [ReadMarker]) async throws {
        try call("redeem_read_markers", markers)
    }

    func readCounter(allocation: String, blobber: String, reader: String) async throws -> UInt64 {
        try ledger.storageReadCounter(allocation: allocation, blobber: blobber, reader: reader)
    }

    func isTicketRevoked(_ id: String, owner: String) async throws -> Bool {
        try ledger.isTicketRevoked(id, owner: owner)
    }

    private func call<T: Encodable>(_ method: String, _ markers: [T]) throws {
        try lock.withLock { _ in
            let markerJSON = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(markers))
            let nonce = try ledger.account(key.publicKey.clientID).nonce + 1
            let tx = Transaction.signed(by: key, chainID: chainID, to: ContractCall.address(of: "storage"), value: 0,
                                        fee: 1_000_000, nonce: nonce, type: .contractCall,
                                        data: ContractCall(contract: "storage", method: method, args: ["markers": markerJSON]).json,
                                        creationDate: Int64(Date().timeIntervalSince1970))
            try ledger.submit(tx)
            _ = try ledger.produceBlock()
            guard let r = try ledger.transaction(tx.hash)?.receipt, r.outcome == .success else {
                throw StorageRequestError.invalid("\(method) refused: \(try ledger.transaction(tx.hash)?.receipt?.error ?? "not included")")
            }
        }
    }
}

@Suite(.serialized, .timeLimit(.minutes(3)))
struct LedgerBlobberTests {
    @Test func allocationFromTheLedgerAndMarkersCommittedToIt() async throws {
        let root = NSTemporaryDirectory() + "mosaic-ledger-grid-" + Hex.encode(Random.bytes(6))
        defer { try? FileManager.default.removeItem(atPath: root) }
        let owner = Ed25519.SigningKey.generate()
        let blobberKeys = (0..<3).map { _ in Ed25519.SigningKey.generate() }
        let token = TokenAmount.unitsPerToken
        var funds = [owner.publicKey.clientID: 1000 * token]
        for k in blobberKeys { funds[k.publicKey.clientID] = 100 * token }
        var genesis = Genesis(chainID: "mosaic-blobber-test", allocations: funds)
        genesis.confirmations = 1
        let ledger = try Ledger(directory: root + "/ledger", genesis: genesis)
        defer { ledger.close() }

        func call(_ key: Ed25519.SigningKey, _ method: String, _ args: [String: JSONValue], value: UInt64 = 0) throws -> TransactionReceipt {
            let tx = Transaction.signed(by: key, chainID: genesis.chainID, to: ContractCall.address(of: "storage"), value: value,
                                        fee: genesis.minimumFee, nonce: try ledger.account(key.publicKey.clientID).nonce + 1, type: .contractCall,
                                        data: ContractCall(contract: "storage", method: method, args: args).json,
                                        creationDate: Int64(Date().timeIntervalSince1970))
            try ledger.submit(tx)
            _ = try ledger.produceBlock()
            return try #require(try ledger.transaction(tx.hash)?.receipt)
        }

        // Blobbers with their wallets' keys, registered on the ledger at their real URLs.
        var servers: [BlobberServer] = []
        for (i, k) in blobberKeys.enumerated() {
            let dir = root + "/blobber\(i)"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            try Hex.encode(k.seed.copyBytes()).write(toFile: dir + "/blobber.key", atomically: true, encoding: .utf8)
            var config = BlobberServer.Configuration(directory: dir)
            config.ledger = InProcessBlobberLedger(ledger: ledger, key: k, chainID: genesis.chainID)
            config.ledgerRefresh = 0
            let s = try BlobberServer(configuration: config)
            try s.start()
            #expect(s.blobberID == k.publicKey.clientID)
            servers.append(s)
            let r = try call(k, "register_blobber", ["url": .string(s.baseURL.absoluteString), "capacity": .integer(10 << 30),
                                                     "write_price": .integer(Int64(token / 100)), "read_price": .integer(0)], value: 5 * token)
            #expect(r.outcome == .success, "\(r.error ?? "")")
        }
        let running = servers
        defer { Task { for s in running { await s.stop() } } }

        let r = try call(owner, "new_allocation", ["name": .string("docs"), "data_shards": .integer(2), "parity_shards": .integer(1),
                                                    "size": .integer(64 << 20), "expiration": .integer(Int64(Date().timeIntervalSince1970) + 86_400)],
                         value: 100 * token)
        #expect(r.outcome == .success, "\(r.error ?? "")")
        let onLedger = try #require(try ledger.storageAllocation(r.transactionHash))
        let allocation = try StorageAllocation(onLedger)
        let client = StorageClient(signingKey: owner, home: URL(fileURLWithPath: root + "/home"))

        // No assignment needed: the blobbers read the allocation from the ledger, and refuse one.
        var fake = AllocationAssignment(allocationID: allocation.id, ownerPublicKey: owner.publicKey, dataShards: 1, parityShards: 2,
                                        size: 1 << 30, expiration: Int64(Date().timeIntervalSince1970) + 100, blobbers: onLedger.blobbers.map(\.blobberID))
        fake.sign(with: owner)
        #expect(await client.assign(fake, to: allocation).count == 3)

        let bytes = randomBytes(300_000)
        try FileManager.default.createDirectory(atPath: root + "/local", withIntermediateDirectories: true)
        let file = URL(fileURLWithPath: root + "/local/in")
        try Data(bytes).write(to: file)
        _ = try await client.upload(localFile: file, remotePath: "/notes/a.bin", allocation: allocation)
        try await client.copy("/notes/a.bin", to: "/notes/b.bin", allocation: allocation)
        let out = URL(fileURLWithPath: root + "/local/out")
        try await client.download(remotePath: "/notes/b.bin", to: out, allocation: allocation)
        #expect(same([UInt8](try Data(contentsOf: out)), bytes))

        // The blobbers commit the owner's markers; the ledger then holds each blobber's root.
        for s in servers { #expect(await s.commitPendingMarkers().isEmpty) }
        let after = try #require(try ledger.storageAllocation(allocation.id))
        for (i, part) in after.blobbers.enumerated() {
            let s = try #require(servers.first { $0.blobberID == part.blobberID })
            let state = try s.state(s.record(allocation.id))
            #expect(state.index == i)
            #expect(part.allocationRoot == state.root)
            #expect(part.allocationRoot != AllocationTree.emptyRoot)
            #expect(part.used == state.size)
        }
        #expect(after.usedSize > 0)
        // The owner's reads were paid with read markers, redeemed on the ledger.
        #expect(after.numReads > 0)
        var redeemed: UInt64 = 0
        for p in after.blobbers {
            redeemed += try ledger.storageReadCounter(allocation: allocation.id, blobber: p.blobberID, reader: owner.publicKey.clientID)
        }
        #expect(redeemed >= 2, "at least d blocks were read and redeemed")
        // Nothing is sent twice.
        for s in servers { #expect(await s.commitPendingMarkers().isEmpty) }

        // Sharing: another wallet reads one file with the owner's ticket and the file's key.
        let reader = Ed25519.SigningKey.generate()
        let readerClient = StorageClient(signingKey: reader, home: URL(fileURLWithPath: root + "/reader-home"))
        var ticket = AuthTicket(allocationID: allocation.id, ownerID: "", ownerPublicKey: "", path: "/notes/a.bin", kind: .file,
                                recipientID: reader.publicKey.clientID, expiration: Int64(Date().timeIntervalSince1970) + 600,
                                nonce: Hex.encode(Random.bytes(8)))
        ticket.sign(with: owner)
        let meta = try await client.stat("/notes/a.bin", allocation: allocation)
        let fileKey = try SealedBox.open(try #require(Hex.decode(meta.wrappedKey)), with: owner)
        let shared = URL(fileURLWithPath: root + "/local/shared")
        try await readerClient.download(remotePath: "/notes/a.bin", to: shared, allocation: allocation, ticket: ticket, contentKey: fileKey)
        #expect(same([UInt8](try Data(contentsOf: shared)), bytes))
        // Not without the ticket, not for another path, and not after the owner revoked it.
        await #expect(throws: StorageClientError.self) {
            try await readerClient.download(remotePath: "/notes/a.bin", to: shared, allocation: allocation, contentKey: fileKey)
        }
        await #expect(throws: StorageClientError.self) {
            try await readerClient.download(remotePath: "/notes/b.bin", to: shared, allocation: allocation, ticket: ticket, contentKey: fileKey)
        }
        let revoke = try call(owner, "revoke_ticket", ["ticket_id": .string(ticket.id)])
        #expect(revoke.outcome == .success, "\(revoke.error ?? "")")
        await #expect(throws: StorageClientError.self) {
            try await readerClient.download(remotePath: "/notes/a.bin", to: shared, allocation: allocation, ticket: ticket, contentKey: fileKey)
        }
    }
}
