import Foundation
import MosaicCrypto
import MosaicHTTP
import MosaicProtocol
import MosaicTestSupport
import Synchronization
import Testing

@testable import MosaicBlobber
@testable import MosaicLedger
@testable import MosaicSDK
@testable import MosaicStorageCore

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

    /// False while the node is cut off (a restart or a partition on a real network): reads throw.
    let reachable = Atomic<Bool>(true)

    /// What a blobber's ledger reads throw while `reachable` is false.
    struct Unreachable: Error {}

    func allocation(_ id: String) async throws -> Allocation? {
        guard reachable.load(ordering: .relaxed) else { throw Unreachable() }
        return try ledger.storageAllocation(id)
    }

    func commitWriteMarkers(_ markers: [WriteMarker]) async throws {
        try call("commit_write_markers", ["markers": try Self.json(markers)])
    }

    func redeemReadMarkers(_ markers: [ReadMarker]) async throws {
        try call("redeem_read_markers", ["markers": try Self.json(markers)])
    }

    func readCounter(allocation: String, blobber: String, reader: String) async throws -> UInt64 {
        try ledger.storageReadCounter(allocation: allocation, blobber: blobber, reader: reader)
    }

    func isTicketRevoked(_ id: String, owner: String) async throws -> Bool {
        try ledger.isTicketRevoked(id, owner: owner)
    }

    /// Not part of `BlobberLedger` (the SDK's `ChallengeResponder` answers over the node API):
    /// answers every open challenge of this blobber with proofs from `prover`.
    func answerChallenges(with prover: ChallengeProver) throws -> Int {
        let open = try ledger.storageOpenChallenges(blobber: key.publicKey.clientID)
        for ch in open {
            try call("respond_challenge", ["challenge_id": .string(ch.id), "proof": try Self.json(try prover.proof(for: ch))])
        }
        return open.count
    }

    static func json<T: Encodable>(_ value: T) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
    }

    func call(_ method: String, _ args: [String: JSONValue]) throws {
        try lock.withLock { _ in
            let nonce = try ledger.account(key.publicKey.clientID).nonce + 1
            let tx = Transaction.signed(
                by: key, chainID: chainID, to: ContractCall.address(of: "storage"), value: 0,
                fee: 1_000_000, nonce: nonce, type: .contractCall,
                data: ContractCall(contract: "storage", method: method, args: args).json,
                creationDate: Int64(Date().timeIntervalSince1970))
            try ledger.submit(tx)
            _ = try ledger.produceBlock()
            guard let r = try ledger.transaction(tx.hash)?.receipt, r.outcome == .success else {
                throw StorageRequestError.invalid(
                    "\(method) refused: \(try ledger.transaction(tx.hash)?.receipt?.error?.message ?? "not included")")
            }
        }
    }
}

@Suite(.serialized, .timeLimit(.minutes(3)))
struct LedgerBlobberTests {
    @Test func allocationsAlreadyHeldCarryOnWhileTheLedgerIsUnreachableAndNewOnesAre503() async throws {
        let grid = try await LedgerGrid()
        defer { Task { await grid.shutdown() } }
        let (client, allocation) = (grid.client, grid.allocation!)
        let first = randomBytes(200_000)
        _ = try await client.upload(localFile: try grid.localFile(first), remotePath: "/a.bin", allocation: allocation)

        // The node goes away: the blobbers keep the allocation they hold on its last terms.
        for l in grid.ledgers { l.reachable.store(false, ordering: .relaxed) }
        let second = randomBytes(300_000)
        _ = try await client.upload(localFile: try grid.localFile(second), remotePath: "/b.bin", allocation: allocation)
        for (name, bytes) in [("a", first), ("b", second)] {
            let out = URL(fileURLWithPath: grid.root + "/local/out-\(name)")
            try await client.download(remotePath: "/\(name).bin", to: out, allocation: allocation)
            #expect(same([UInt8](try Data(contentsOf: out)), bytes))
        }
        // An allocation a blobber has never seen cannot be checked: 503, retry later (not a 500).
        var config = HTTPClient.Configuration()
        config.retries = 0
        let http = HTTPClient(baseURL: allocation.blobbers[0].url, configuration: config)
        do {
            _ = try await http.send(.get, "/v1/alloc/\(Hex.encode(Random.bytes(32)))")
            Issue.record("an unknown allocation was answered while the ledger was unreachable")
        } catch let e as HTTPClientError {
            #expect(e.status == 503 && e.code == "unavailable", "\(e)")
            #expect(e.message.contains("retry when the node is reachable"), "\(e)")
        }
        // Back: the markers made meanwhile are committed.
        for l in grid.ledgers { l.reachable.store(true, ordering: .relaxed) }
        for s in grid.servers { #expect(await s.commitPendingMarkers().isEmpty) }
    }

    @Test func allocationFromTheLedgerAndMarkersCommittedToIt() async throws {
        let grid = try await LedgerGrid()
        defer { Task { await grid.shutdown() } }
        let (ledger, owner, client, allocation) = (grid.ledger, grid.owner, grid.client, grid.allocation!)
        let onLedger = try #require(try ledger.storageAllocation(allocation.id))

        // No assignment needed: the blobbers read the allocation from the ledger, and refuse one.
        var fake = AllocationAssignment(
            allocationID: allocation.id, ownerPublicKey: owner.publicKey, dataShards: 1, parityShards: 2,
            size: 1 << 30, expiration: Int64(Date().timeIntervalSince1970) + 100, blobbers: onLedger.blobbers.map(\.blobberID))
        fake.sign(with: owner)
        #expect(await client.assign(fake, to: allocation).count == 3)

        let bytes = randomBytes(300_000)
        _ = try await client.upload(localFile: try grid.localFile(bytes), remotePath: "/notes/a.bin", allocation: allocation)
        try await client.copy("/notes/a.bin", to: "/notes/b.bin", allocation: allocation)
        let out = URL(fileURLWithPath: grid.root + "/local/out")
        try await client.download(remotePath: "/notes/b.bin", to: out, allocation: allocation)
        #expect(same([UInt8](try Data(contentsOf: out)), bytes))

        // The blobbers commit the owner's markers; the ledger then holds each blobber's root.
        for s in grid.servers { #expect(await s.commitPendingMarkers().isEmpty) }
        let after = try #require(try ledger.storageAllocation(allocation.id))
        for (i, part) in after.blobbers.enumerated() {
            let s = try #require(grid.server(of: part.blobberID))
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
        for s in grid.servers { #expect(await s.commitPendingMarkers().isEmpty) }

        // Sharing: another wallet reads one file with the owner's ticket and the file's key.
        let reader = Ed25519.SigningKey.generate()
        let readerClient = StorageClient(signingKey: reader, home: URL(fileURLWithPath: grid.root + "/reader-home"))
        var ticket = AuthTicket(
            allocationID: allocation.id, ownerID: "", ownerPublicKey: "", path: "/notes/a.bin", kind: .file,
            recipientID: reader.publicKey.clientID, expiration: Int64(Date().timeIntervalSince1970) + 600,
            nonce: Hex.encode(Random.bytes(8)))
        ticket.sign(with: owner)
        let meta = try await client.stat("/notes/a.bin", allocation: allocation)
        let fileKey = try SealedBox.open(try #require(Hex.decode(meta.wrappedKey)), with: owner)
        let shared = URL(fileURLWithPath: grid.root + "/local/shared")
        try await readerClient.download(remotePath: "/notes/a.bin", to: shared, allocation: allocation, ticket: ticket, contentKey: fileKey)
        #expect(same([UInt8](try Data(contentsOf: shared)), bytes))
        // Not without the ticket, not for another path, and not after the owner revoked it.
        await #expect(throws: StorageClientError.self) {
            try await readerClient.download(remotePath: "/notes/a.bin", to: shared, allocation: allocation, contentKey: fileKey)
        }
        await #expect(throws: StorageClientError.self) {
            try await readerClient.download(
                remotePath: "/notes/b.bin", to: shared, allocation: allocation, ticket: ticket, contentKey: fileKey)
        }
        let revoke = try grid.call(owner, "revoke_ticket", ["ticket_id": .string(ticket.id)])
        #expect(revoke.outcome == .success, "\(revoke.error?.message ?? "")")
        await #expect(throws: StorageClientError.self) {
            try await readerClient.download(
                remotePath: "/notes/a.bin", to: shared, allocation: allocation, ticket: ticket, contentKey: fileKey)
        }
    }

    @Test func readMarkersAcceptedBeforeACrashAreRedeemedAfterRestart() async throws {
        let grid = try await LedgerGrid()
        defer { Task { await grid.shutdown() } }
        let (ledger, owner, client, allocation) = (grid.ledger, grid.owner, grid.client, grid.allocation!)
        let bytes = randomBytes(200_000)
        _ = try await client.upload(localFile: try grid.localFile(bytes), remotePath: "/r.bin", allocation: allocation)
        for s in grid.servers { #expect(await s.commitPendingMarkers().isEmpty) }
        let before = try #require(try ledger.storageAllocation(allocation.id)).numReads
        let out = URL(fileURLWithPath: grid.root + "/local/r-out")
        try await client.download(remotePath: "/r.bin", to: out, allocation: allocation)
        #expect(same([UInt8](try Data(contentsOf: out)), bytes))

        // The blobbers go away before redeeming; new processes on the same directories redeem.
        var redeemedAfterRestart: UInt64 = 0
        for (i, old) in grid.servers.enumerated() {
            await old.stop()
            var c = BlobberServer.Configuration(directory: grid.root + "/blobber\(i)")
            c.ledger = InProcessBlobberLedger(ledger: ledger, key: grid.blobberKeys[i], chainID: grid.genesis.chainID)
            let restarted = try BlobberServer(configuration: c)
            #expect(await restarted.commitPendingMarkers().isEmpty)
            redeemedAfterRestart += try ledger.storageReadCounter(
                allocation: allocation.id, blobber: restarted.blobberID,
                reader: owner.publicKey.clientID)
            // Redeemed once: a second restart has nothing left to send.
            let again = try BlobberServer(configuration: c)
            let reads = try #require(try ledger.storageAllocation(allocation.id)).numReads
            #expect(await again.commitPendingMarkers().isEmpty)
            #expect(try #require(try ledger.storageAllocation(allocation.id)).numReads == reads)
        }
        #expect(redeemedAfterRestart >= 2, "at least d blocks were read and are paid after the restart")
        #expect(try #require(try ledger.storageAllocation(allocation.id)).numReads > before)
    }

    @Test func readsUnderAPublicTicketArePaidFromTheOwnersWritePool() async throws {
        let grid = try await LedgerGrid(readPrice: TokenAmount.unitsPerToken / 1000)
        defer { Task { await grid.shutdown() } }
        let (ledger, owner, client, allocation) = (grid.ledger, grid.owner, grid.client, grid.allocation!)
        let bytes = randomBytes(150_000)
        _ = try await client.upload(localFile: try grid.localFile(bytes), remotePath: "/pub.bin", allocation: allocation)
        for s in grid.servers { #expect(await s.commitPendingMarkers().isEmpty) }
        let before = try #require(try ledger.storageAllocation(allocation.id))

        // A reader with no tokens at all opens a public link (ticket for anyone), whose reads the
        // owner pays for up to the budget it signed into the ticket.
        let reader = Ed25519.SigningKey.generate()
        #expect(try ledger.storageReadPool(reader.publicKey.clientID) == 0)
        var ticket = AuthTicket(
            allocationID: allocation.id, ownerID: "", ownerPublicKey: "", path: "/pub.bin", kind: .file,
            recipientID: "", expiration: 0, nonce: Hex.encode(Random.bytes(8)),
            readBudget: ShareToken.defaultReadBudget(fileSize: Int64(bytes.count), allocation: allocation))
        ticket.sign(with: owner)
        let meta = try await client.stat("/pub.bin", allocation: allocation)
        let fileKey = try SealedBox.open(try #require(Hex.decode(meta.wrappedKey)), with: owner)
        let readerClient = StorageClient(signingKey: reader, home: URL(fileURLWithPath: grid.root + "/public-home"))
        let out = URL(fileURLWithPath: grid.root + "/local/pub-out")
        try await readerClient.download(remotePath: "/pub.bin", to: out, allocation: allocation, ticket: ticket, contentKey: fileKey)
        #expect(same([UInt8](try Data(contentsOf: out)), bytes))

        // The blobbers redeem the reader's markers; the owner's write pool pays.
        for s in grid.servers { #expect(await s.commitPendingMarkers().isEmpty) }
        let after = try #require(try ledger.storageAllocation(allocation.id))
        var blocks: UInt64 = 0
        var cost: UInt64 = 0
        for p in after.blobbers {
            let n = try ledger.storageReadCounter(allocation: allocation.id, blobber: p.blobberID, reader: reader.publicKey.clientID)
            blocks += n
            cost += try #require(StoragePricing.readCost(price: p.readPrice, blocks: n))
        }
        #expect(blocks >= 2, "the reader's blocks were redeemed")
        #expect(cost > 0)
        #expect(after.numReads > before.numReads)
        #expect(after.writePool == before.writePool - cost)
    }

    @Test func challengesPassAndALostFragmentIsPenalized() async throws {
        var config = StorageConfig()
        config.challengeEveryBlocks = 1
        let grid = try await LedgerGrid(config: config)
        defer { Task { await grid.shutdown() } }
        let (ledger, client, allocation) = (grid.ledger, grid.client, grid.allocation!)
        _ = try await client.upload(localFile: try grid.localFile(randomBytes(400_000)), remotePath: "/a.bin", allocation: allocation)
        _ = try await client.upload(localFile: try grid.localFile(randomBytes(200_000)), remotePath: "/b.bin", allocation: allocation)
        for s in grid.servers { #expect(await s.commitPendingMarkers().isEmpty) }

        // Honest blobbers answer whatever they are asked (ChallengeProver, as `mosaic blobber` runs it).
        let provers = grid.servers.map { ChallengeProver(server: $0) }
        let seams = grid.servers.map { $0.configuration.ledger as? InProcessBlobberLedger }
        var answered = 0
        for _ in 0..<20 where answered < 3 {
            _ = try ledger.produceBlock()
            for (i, seam) in seams.enumerated() { answered += try #require(seam).answerChallenges(with: provers[i]) }
        }
        #expect(answered > 0)
        let passed = try #require(try ledger.storageAllocation(allocation.id)).successfulChallenges
        #expect(passed == UInt64(answered))

        // A blobber that lost its fragments cannot prove a block of a file: the challenge fails, with a penalty.
        var victim: Int?
        var victimChallenge: Challenge?
        for _ in 0..<60 where victim == nil {
            _ = try ledger.produceBlock()
            for (i, s) in grid.servers.enumerated() {
                for ch in try ledger.storageOpenChallenges(blobber: s.blobberID) {
                    if victim == nil, try provers[i].proof(for: ch).entry.blockCount > 0 {
                        victim = i
                        victimChallenge = ch
                    }
                }
                if victim != i { _ = try #require(seams[i]).answerChallenges(with: provers[i]) }
            }
        }
        let lostIndex = try #require(victim)
        _ = try #require(victimChallenge)
        let lost = grid.servers[lostIndex]
        let dir = lost.store.directory + "/alloc/" + allocation.id
        for f in try FileManager.default.contentsOfDirectory(atPath: dir) { try FileManager.default.removeItem(atPath: dir + "/" + f) }
        let before = try #require(try ledger.storageBlobber(lost.blobberID))
        _ = try #require(seams[lostIndex]).answerChallenges(with: provers[lostIndex])
        let after = try #require(try ledger.storageBlobber(lost.blobberID))
        #expect(after.failedChallenges == before.failedChallenges + 1)
        #expect(after.penalties > before.penalties)
        #expect(try #require(try ledger.storageAllocation(allocation.id)).failedChallenges >= 1)
    }
}
