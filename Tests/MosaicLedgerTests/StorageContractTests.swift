import Foundation
import MosaicCrypto
import MosaicProtocol
import MosaicTestSupport
import Testing

@testable import MosaicLedger

@Suite(.timeLimit(.minutes(2))) struct StorageContractTests {
    @Test func blobbersRegisterUpdateAndRefuseDuplicates() throws {
        let net = try StorageNet(blobberCount: 2)
        try net.registerAll()
        let list = try net.ledger.storageBlobbers()
        #expect(list.map(\.id) == net.blobbers.map(\.publicKey.clientID))
        #expect(list[0].url == "http://127.0.0.1:5051")
        #expect(list[0].capacity == 10 << 30)
        #expect(list[0].stake == 5 * token)
        let again = try net.failure(
            net.blobbers[0], "register_blobber",
            [
                "url": .string("http://x"), "capacity": 1,
                "write_price": 1, "read_price": 1,
            ], value: 5 * token)
        #expect(again?.contains("already registered") == true)
        let cheap = try net.failure(
            net.owner, "register_blobber",
            [
                "url": .string("http://x"), "capacity": 1,
                "write_price": 1, "read_price": 1,
            ], value: 1)
        #expect(cheap?.contains("stake at least") == true)
        let badURL = try net.failure(
            net.owner, "register_blobber",
            [
                "url": .string("ftp://x"), "capacity": 1,
                "write_price": 1, "read_price": 1,
            ], value: 5 * token)
        #expect(badURL?.contains("http://") == true)
        try net.call(net.blobbers[1], "update_blobber", ["write_price": 7, "url": .string("https://b.example")], value: token)
        let b = try #require(try net.ledger.storageBlobber(net.blobbers[1].publicKey.clientID))
        #expect(b.writePrice == 7 && b.url == "https://b.example" && b.stake == 6 * token)
        #expect(try net.failure(net.owner, "update_blobber")?.contains("not a registered blobber") == true)
        let stakeBack = try net.balance(net.blobbers[1])
        #expect(try net.call(net.blobbers[1], "unregister_blobber").outcome == .success)
        #expect(try net.balance(net.blobbers[1]) == stakeBack + 6 * token - net.genesis.minimumFee)
        #expect(try net.ledger.storageBlobbers().map(\.id) == [net.blobbers[0].publicKey.clientID])
        #expect(try net.ledger.supply().isConserved)
        #expect(try net.contractBalance() == net.storageLiabilities())
    }

    @Test func newAllocationPicksDistinctBlobbersAndLocksTokens() throws {
        let net = try StorageNet(blobberCount: 7)
        try net.registerAll()
        let before = try net.balance(net.owner)
        let a = try net.newAllocation(data: 4, parity: 2, size: 1 << 30, seconds: 2_592_000, lock: 100 * token)
        #expect(a.blobbers.count == 6)
        #expect(Set(a.blobbers.map(\.blobberID)).count == 6)
        #expect(a.blobberSize == 1 << 28)
        #expect(a.writePool == 100 * token)
        #expect(a.ownerPublicKey == net.owner.publicKey.hex)
        #expect(a.status == .active && a.name == "photos")
        #expect(a.blobbers.allSatisfy { $0.allocationRoot == AllocationTree.emptyRoot })
        #expect(try net.balance(net.owner) == before - 100 * token - net.genesis.minimumFee)
        for part in a.blobbers { #expect(try net.ledger.storageBlobber(part.blobberID)?.allocated == 1 << 28) }
        #expect(try net.ledger.storageAllocations(owner: net.owner.publicKey.clientID).map(\.id) == [a.id])
        // The order is the documented hash order over the tx hash.
        let expected = net.blobbers.map(\.publicKey.clientID)
            .sorted { SHA256.hash(Array((a.id + $0).utf8)).lexicographicallyPrecedes(SHA256.hash(Array((a.id + $1).utf8))) }
        #expect(a.blobbers.map(\.blobberID) == Array(expected.prefix(6)))
        // Preferred blobbers come first.
        let preferred = net.blobbers[6].publicKey.clientID
        let r = try net.call(
            net.owner, "new_allocation",
            [
                "data_shards": 2, "parity_shards": 1, "size": .integer(1 << 20),
                "expiration": .integer(net.now + 7200), "blobbers": .array([.string(preferred)]),
            ],
            value: token)
        #expect(r.outcome == .success)
        #expect(try net.ledger.storageAllocation(r.transactionHash)?.blobbers.first?.blobberID == preferred)
        #expect(try net.ledger.supply().isConserved)
        #expect(try net.contractBalance() == net.storageLiabilities())
    }

    @Test func newAllocationErrorsAreClear() throws {
        let net = try StorageNet(blobberCount: 4)
        try net.registerAll()
        let exp = JSONValue.integer(net.now + 2_592_000)
        let few = try net.failure(
            net.owner, "new_allocation",
            [
                "data_shards": 4, "parity_shards": 2, "size": .integer(1 << 30),
                "expiration": exp,
            ], value: 100 * token)
        #expect(few == "not enough blobbers: need 6 with 256 MiB free, found 4")
        let shards = try net.failure(
            net.owner, "new_allocation",
            [
                "data_shards": 0, "parity_shards": 2, "size": .integer(1 << 30),
                "expiration": exp,
            ], value: 100 * token)
        #expect(shards?.contains("invalid shards") == true)
        // 2+2 of 1 GiB for 30 days at 1 token per GiB per 30 days: 4 × 0.5 = 2 tokens.
        let cost = StoragePricing.allocationCost(
            writePrices: [token, token, token, token], size: 1 << 30, dataShards: 2, seconds: 2_592_000)
        #expect(cost == 2 * token)
        #expect(try net.ledger.storageAllocationQuote(dataShards: 2, parityShards: 2, size: 1 << 30, seconds: 2_592_000) == 2 * token)
        #expect(try net.ledger.storageAllocationQuote(dataShards: 4, parityShards: 2, size: 1 << 30, seconds: 2_592_000) == nil)
        let poor = try net.failure(
            net.owner, "new_allocation",
            [
                "data_shards": 2, "parity_shards": 2, "size": .integer(1 << 30),
                "expiration": exp,
            ], value: token)
        #expect(poor == "lock at least 2 tokens for this size and duration (cost 2 tokens, sent 1 tokens)")
        let short = try net.failure(
            net.owner, "new_allocation",
            [
                "data_shards": 2, "parity_shards": 2, "size": .integer(1 << 30),
                "expiration": .integer(net.now + 60),
            ], value: 10 * token)
        #expect(short?.contains("expiration") == true)
        let big = try net.failure(
            net.owner, "new_allocation",
            [
                "data_shards": 1, "parity_shards": 1, "size": .integer(11 << 30),
                "expiration": exp,
            ], value: 100 * token)
        #expect(big == "not enough blobbers: need 2 with 11 GiB free, found 0")
        #expect(try net.ledger.storageAllocations(owner: net.owner.publicKey.clientID).isEmpty)
        #expect(try net.ledger.supply().isConserved)
    }

    @Test func writeMarkersChainAndRejectForgeriesAndGaps() throws {
        let net = try StorageNet(blobberCount: 4)
        try net.registerAll()
        let a = try net.newAllocation(data: 2, parity: 2, size: 1 << 30, lock: 10 * token)
        let blobberID = a.blobbers[0].blobberID
        let bk = try #require(net.key(of: blobberID))
        let frag = TestFragment(length: 3 * 65536 + 10)
        let tree1 = try AllocationTree(entries: [
            AllocationEntry(path: "/a.bin", fragmentRoot: frag.root, fragmentLength: 196618, fileSize: 300_000)
        ])

        let forged = net.marker(
            a, blobber: blobberID, previous: AllocationTree.emptyRoot, root: tree1.root, size: 196618, signer: net.reader)
        let e1 = try net.failure(bk, "commit_write_markers", ["markers": .array([try jsonArg(forged)])])
        #expect(e1?.contains("signature does not verify") == true)
        var tampered = net.marker(a, blobber: blobberID, previous: AllocationTree.emptyRoot, root: tree1.root, size: 196618)
        tampered.size = 5
        let e2 = try net.failure(bk, "commit_write_markers", ["markers": .array([try jsonArg(tampered)])])
        #expect(e2?.contains("signature does not verify") == true)
        let gap = net.marker(a, blobber: blobberID, previous: tree1.root, root: AllocationTree.emptyRoot, size: 0)
        let e3 = try net.failure(bk, "commit_write_markers", ["markers": .array([try jsonArg(gap)])])
        #expect(e3?.contains("does not match the committed root") == true)
        let huge = net.marker(a, blobber: blobberID, previous: AllocationTree.emptyRoot, root: tree1.root, size: 1 << 30)
        #expect(try net.failure(bk, "commit_write_markers", ["markers": .array([try jsonArg(huge)])])?.contains("per blobber") == true)
        let other = try #require(net.key(of: a.blobbers[1].blobberID))
        let good1 = net.marker(a, blobber: blobberID, previous: AllocationTree.emptyRoot, root: tree1.root, size: 196618)
        #expect(
            try net.failure(other, "commit_write_markers", ["markers": .array([try jsonArg(good1)])])?.contains("not the caller") == true)

        let tree2 = try AllocationTree(
            entries: tree1.entries + [
                AllocationEntry(
                    path: "/b.txt", fragmentRoot: TestFragment(length: 64).root,
                    fragmentLength: 64, fileSize: 20)
            ])
        let good2 = net.marker(a, blobber: blobberID, previous: tree1.root, root: tree2.root, size: 196682)
        let ok = try net.call(bk, "commit_write_markers", ["markers": .array([try jsonArg(good1), try jsonArg(good2)])])
        #expect(ok.outcome == .success)
        let after = try #require(try net.ledger.storageAllocation(a.id))
        #expect(after.blobbers[0].allocationRoot == tree2.root)
        #expect(after.blobbers[0].used == 196682 && after.usedSize == 196682 * UInt64(after.dataShards))
        #expect(after.numWrites == 2)
        #expect(after.challengePool > 0 && after.writePool == 10 * token - after.challengePool)
        // Replaying the first marker is refused: the chain moved on.
        #expect(try net.failure(bk, "commit_write_markers", ["markers": .array([try jsonArg(good1)])])?.contains("committed root") == true)
        #expect(try net.ledger.supply().isConserved)
        #expect(try net.contractBalance() == net.storageLiabilities())
    }

    @Test func readMarkersPayFromReadPoolAndNeedIncreasingCounters() throws {
        let net = try StorageNet(blobberCount: 2)
        try net.registerAll(readPrice: 16384 * 100)  // 100 base units per 64 KiB block
        let a = try net.newAllocation(data: 1, parity: 1, size: 1 << 20, seconds: 7200, lock: token)
        let blobberID = a.blobbers[0].blobberID
        let bk = try #require(net.key(of: blobberID))
        func marker(_ counter: UInt64) throws -> JSONValue {
            var m = ReadMarker(
                allocationID: a.id, blobberID: blobberID, clientID: "", publicKey: "", ownerID: a.ownerID,
                counter: counter, timestamp: net.now, readPrice: a.blobbers[0].readPrice)
            m.sign(with: net.reader)
            return .array([try jsonArg(m)])
        }
        let empty = try net.failure(bk, "redeem_read_markers", ["markers": try marker(10)])
        #expect(empty?.contains("lock tokens with storage.lock_read_pool") == true)
        try net.call(net.reader, "lock_read_pool", value: 5000)
        let stake = try net.balance(bk)
        #expect(try net.call(bk, "redeem_read_markers", ["markers": try marker(10)]).outcome == .success)
        #expect(try net.balance(bk) == stake + 1000 - net.genesis.minimumFee)
        #expect(try net.ledger.storageReadPool(net.reader.publicKey.clientID) == 4000)
        #expect(try net.ledger.storageReadCounter(allocation: a.id, blobber: blobberID, reader: net.reader.publicKey.clientID) == 10)
        let same = try net.failure(bk, "redeem_read_markers", ["markers": try marker(10)])
        #expect(same?.contains("counter 10 is not above the last redeemed 10") == true)
        #expect(try net.call(bk, "redeem_read_markers", ["markers": try marker(15)]).outcome == .success)
        #expect(try net.ledger.storageAllocation(a.id)?.numReads == 2)
        #expect(try net.call(net.reader, "unlock_read_pool").outcome == .success)
        #expect(try net.ledger.storageReadPool(net.reader.publicKey.clientID) == 0)
        #expect(try net.ledger.supply().isConserved)
        #expect(try net.contractBalance() == net.storageLiabilities())
    }

    @Test func cancelRefundsMinusPenaltyAndFinalizePaysBlobbers() throws {
        let net = try StorageNet(blobberCount: 2)
        try net.registerAll()
        let a = try net.newAllocation(data: 1, parity: 1, size: 1 << 20, seconds: 7200, lock: 10 * token)
        let ownerBefore = try net.balance(net.owner)
        let blobberBefore = try net.balance(try #require(net.key(of: a.blobbers[0].blobberID)))
        #expect(try net.failure(net.reader, "cancel_allocation", ["allocation_id": .string(a.id)])?.contains("only the owner") == true)
        #expect(try net.call(net.owner, "cancel_allocation", ["allocation_id": .string(a.id)]).outcome == .success)
        // Nothing used: the 10 % penalty is split evenly; 90 % is refunded.
        #expect(try net.balance(net.owner) == ownerBefore + 9 * token - net.genesis.minimumFee)
        #expect(try net.balance(try #require(net.key(of: a.blobbers[0].blobberID))) == blobberBefore + token / 2)
        let canceled = try #require(try net.ledger.storageAllocation(a.id))
        #expect(canceled.status == .canceled && canceled.writePool == 0)
        #expect(try net.ledger.storageBlobber(a.blobbers[0].blobberID)?.allocated == 0)
        #expect(try net.failure(net.owner, "cancel_allocation", ["allocation_id": .string(a.id)])?.contains("canceled") == true)

        // Finalize: after expiry, blobbers get their challenge pools, the owner the write pool.
        let b = try net.newAllocation(data: 1, parity: 1, size: 1 << 20, seconds: 7200, lock: 10 * token)
        let bid = b.blobbers[0].blobberID
        let bk = try #require(net.key(of: bid))
        let tree = try AllocationTree(entries: [
            AllocationEntry(
                path: "/f", fragmentRoot: TestFragment(length: 1000).root,
                fragmentLength: 1000, fileSize: 900)
        ])
        try net.call(
            bk, "commit_write_markers",
            [
                "markers": .array([
                    try jsonArg(
                        net.marker(
                            b, blobber: bid, previous: AllocationTree.emptyRoot,
                            root: tree.root, size: 1000))
                ])
            ])
        let pool = try #require(try net.ledger.storageAllocation(b.id)).challengePool
        #expect(pool > 0)
        let early = try net.failure(net.reader, "finalize_allocation", ["allocation_id": .string(b.id)])
        #expect(early?.contains("expires at") == true)
        try net.ledger.advanceClock(by: 7201)
        let ownerMid = try net.balance(net.owner)
        let bkMid = try net.balance(bk)
        #expect(try net.call(net.reader, "finalize_allocation", ["allocation_id": .string(b.id)]).outcome == .success)
        #expect(try net.balance(bk) == bkMid + pool)
        #expect(try net.balance(net.owner) == ownerMid + 10 * token - pool)
        let done = try #require(try net.ledger.storageAllocation(b.id))
        #expect(done.status == .finalized && done.writePool == 0 && done.challengePool == 0)
        #expect(try net.ledger.supply().isConserved)
        #expect(try net.contractBalance() == net.storageLiabilities())
    }

    @Test func updateAllocationExtendsGrowsAndAddsBlobbers() throws {
        let net = try StorageNet(blobberCount: 3)
        try net.registerAll()
        let a = try net.newAllocation(data: 1, parity: 1, size: 1 << 30, seconds: 2_592_000, lock: 2 * token)
        let args: [String: JSONValue] = ["allocation_id": .string(a.id), "extend_seconds": 2_592_000, "grow_bytes": .integer(1 << 30)]
        let poor = try net.failure(net.owner, "update_allocation", args, value: 1)
        // New cost 2 blobbers × 2 GiB × 60 days = 8 tokens, minus the 2 already covered.
        #expect(poor == "lock at least 6 tokens more with this update (cost 6 tokens, sent 0.0000000001 tokens)")
        #expect(try net.call(net.owner, "update_allocation", args, value: 6 * token).outcome == .success)
        var u = try #require(try net.ledger.storageAllocation(a.id))
        #expect(u.size == 2 << 30 && u.expiration == a.expiration + 2_592_000 && u.writePool == 8 * token)
        let third = try #require(net.blobbers.map(\.publicKey.clientID).first { u.index(of: $0) == nil })
        #expect(
            try net.call(
                net.owner, "update_allocation", ["allocation_id": .string(a.id), "add_blobber": .string(third)],
                value: 4 * token
            ).outcome == .success)
        u = try #require(try net.ledger.storageAllocation(a.id))
        #expect(u.blobbers.count == 3 && u.blobbers[2].blobberID == third)
        #expect(try net.ledger.storageBlobber(third)?.allocated == 2 << 30)
        #expect(try net.ledger.supply().isConserved)
        #expect(try net.contractBalance() == net.storageLiabilities())
    }

    @Test func storageIsBuiltIntoEveryLedger() throws {
        let net = try TestNet()
        let call = ContractCall(
            contract: "storage", method: "register_blobber",
            args: ["url": .string("http://127.0.0.1:5051"), "capacity": .integer(1 << 30), "write_price": 1, "read_price": 1])
        let tx = Transaction.signed(
            by: net.alice, chainID: net.genesis.chainID, to: ContractCall.address(of: "storage"), value: token,
            fee: net.genesis.minimumFee, nonce: 1, type: .contractCall, data: call.json, creationDate: net.now)
        try net.ledger.submit(tx)
        try net.ledger.produceBlock()
        #expect(try net.ledger.transaction(tx.hash)?.receipt?.outcome == .success)
        #expect(try net.ledger.storageBlobbers().map(\.id) == [net.alice.publicKey.clientID])
        #expect(try net.ledger.supply().isConserved)
    }

    @Test func revokedTicketsAreQueryable() throws {
        let net = try StorageNet(blobberCount: 0)
        var t = AuthTicket(
            allocationID: String(repeating: "a", count: 64), ownerID: "", ownerPublicKey: "", path: "/p.jpg",
            kind: .file, recipientID: "", expiration: 0, nonce: "01")
        t.sign(with: net.owner)
        try t.verify(now: StorageNet.start, reader: net.reader.publicKey.clientID)
        #expect(try !net.ledger.isTicketRevoked(t.id, owner: net.owner.publicKey.clientID))
        #expect(try net.call(net.owner, "revoke_ticket", ["ticket_id": .string(t.id)]).outcome == .success)
        #expect(try net.ledger.isTicketRevoked(t.id, owner: net.owner.publicKey.clientID))
        // Another client revoking the same id does not affect the owner's ticket's record under its name.
        #expect(try !net.ledger.isTicketRevoked(t.id, owner: net.reader.publicKey.clientID))
        #expect(try net.failure(net.owner, "revoke_ticket", ["ticket_id": .string(t.id)])?.contains("already revoked") == true)
    }
}
