import Foundation
import MosaicCrypto
import MosaicProtocol
import MosaicTestSupport
import Testing

@testable import MosaicLedger

/// Attacks on the storage contract's money, each run as the attacker would: the call is sent,
/// refused (or bounded), and nothing moves that the rules do not allow.
@Suite(.timeLimit(.minutes(3))) struct StorageMoneyAttackTests {
    /// A 1+1 allocation with a read price of 100 base units per 64 KiB block, its first blobber
    /// (the attacker in most tests) and helpers to sign tickets and read markers.
    struct Setup {
        let net: StorageNet
        let allocation: Allocation
        let blobber: Ed25519.SigningKey
        var blobberID: String { blobber.publicKey.clientID }
        static let readPrice: UInt64 = 16384 * 100

        init() throws {
            net = try StorageNet(blobberCount: 2)
            try net.registerAll(readPrice: Setup.readPrice)
            allocation = try net.newAllocation(data: 1, parity: 1, size: 1 << 20, seconds: 7200, lock: token)
            blobber = try #require(net.key(of: allocation.blobbers[0].blobberID))
        }

        func ticket(recipient: String = "", expiration: Int64 = 0, budget: UInt64) -> AuthTicket {
            var t = AuthTicket(
                allocationID: allocation.id, ownerID: "", ownerPublicKey: "", path: "/shared.bin", kind: .file,
                recipientID: recipient, expiration: expiration, nonce: Hex.encode(Random.bytes(8)), readBudget: budget)
            t.sign(with: net.owner)
            return t
        }

        /// A read marker signed by `reader` (a fresh key by default), naming `ticketID`, with `ticket` attached.
        func marker(
            counter: UInt64, reader: Ed25519.SigningKey = .generate(), ticketID: String?, ticket: AuthTicket?,
            timestamp: Int64? = nil, readPrice: UInt64 = Setup.readPrice
        ) -> ReadMarker {
            var m = ReadMarker(
                allocationID: allocation.id, blobberID: blobberID, clientID: "", publicKey: "", ownerID: allocation.ownerID,
                counter: counter, timestamp: timestamp ?? net.now, readPrice: readPrice, ticketID: ticketID ?? "")
            m.sign(with: reader)
            m.ticket = ticket
            return m
        }

        func redeem(_ markers: [ReadMarker]) throws -> TransactionReceipt {
            try net.call(blobber, "redeem_read_markers", ["markers": .array(try markers.map { try jsonArg($0) })])
        }

        var writePool: UInt64 { get throws { try #require(try net.ledger.storageAllocation(allocation.id)).writePool } }

        func expectBooksBalance() throws {
            #expect(try net.ledger.supply().isConserved)
            #expect(try net.contractBalance() == net.storageLiabilities())
        }
    }

    @Test func aBlobberMintingMarkersAsThrowawayReadersOfAPublicTicketTakesAtMostItsBudget() throws {
        let s = try Setup()
        // The owner shares a file publicly and will pay for 25 blocks of reads (2,500 base units).
        let t = s.ticket(budget: 2_500)
        let before = try s.writePool
        // The blobber signs markers as fresh keys, 10 blocks each, naming the public ticket.
        #expect(try s.redeem([s.marker(counter: 10, ticketID: t.id, ticket: t)]).outcome == .success)
        #expect(try s.redeem([s.marker(counter: 10, ticketID: t.id, ticket: t)]).outcome == .success)
        #expect(try s.writePool == before - 2_000)
        // The third would pass the budget: refused, whole, and so is every later one.
        let third = try s.redeem([s.marker(counter: 10, ticketID: t.id, ticket: t)])
        #expect(third.outcome == .failure)
        #expect(third.error?.message.contains("within the ticket's read_budget") == true, "\(third.error?.message ?? "")")
        #expect(try s.redeem([s.marker(counter: 5, ticketID: t.id, ticket: t)]).outcome == .success)
        #expect(try s.redeem([s.marker(counter: 1, ticketID: t.id, ticket: t)]).outcome == .failure)
        #expect(try s.writePool == before - 2_500, "the owner lost exactly the budget it signed, no more")
        // A ticket the owner signed with no budget makes the write pool pay nothing.
        let free = s.ticket(budget: 0)
        #expect(try s.redeem([s.marker(counter: 1, ticketID: free.id, ticket: free)]).outcome == .failure)
        try s.expectBooksBalance()
    }

    @Test func theOwnerPaysOnlyUnderTheTicketTheReaderSigned() throws {
        let s = try Setup()
        let t = s.ticket(budget: 1_000_000)
        let before = try s.writePool
        // The ticket attached, but the reader's signature covers no ticket: the reader pays (it cannot).
        var e = try s.redeem([s.marker(counter: 3, ticketID: nil, ticket: t)]).error?.message
        #expect(e?.contains("lock tokens with storage.lock_read_pool") == true, "\(e ?? "")")
        // The reader signed another ticket's id: the attached one does not count either.
        let other = s.ticket(budget: 1_000_000)
        e = try s.redeem([s.marker(counter: 3, ticketID: other.id, ticket: t)]).error?.message
        #expect(e?.contains("does not pay for this reader") == true, "\(e ?? "")")
        // A ticket for someone else, or forged by the blobber with its own key, never pays.
        let someone = Ed25519.SigningKey.generate()
        let named = s.ticket(recipient: someone.publicKey.clientID, budget: 1_000_000)
        #expect(try s.redeem([s.marker(counter: 3, ticketID: named.id, ticket: named)]).outcome == .failure)
        var forged = AuthTicket(
            allocationID: s.allocation.id, ownerID: "", ownerPublicKey: "", path: "/x", kind: .file, recipientID: "",
            expiration: 0, nonce: "01", readBudget: UInt64(Int64.max))
        forged.sign(with: s.blobber)
        #expect(try s.redeem([s.marker(counter: 3, ticketID: forged.id, ticket: forged)]).outcome == .failure)
        #expect(try s.writePool == before)
        // The named recipient reading under its ticket is paid for.
        #expect(try s.redeem([s.marker(counter: 3, reader: someone, ticketID: named.id, ticket: named)]).outcome == .success)
        #expect(try s.writePool == before - 300)
        try s.expectBooksBalance()
    }

    /// One reader who cannot pay (its ticket's budget is spent) must not hold up the blobber's
    /// pay for the others in the same batch.
    @Test func anUnpayableMarkerIsSkippedWhileTheRestOfTheBatchIsRedeemed() throws {
        let s = try Setup()
        let spent = s.ticket(budget: 100)
        let generous = s.ticket(budget: 1_000_000)
        let broke = Ed25519.SigningKey.generate()
        let before = try s.writePool
        let batch = [
            s.marker(counter: 2, ticketID: generous.id, ticket: generous),
            s.marker(counter: 5, reader: broke, ticketID: spent.id, ticket: spent),
            s.marker(counter: 3, ticketID: generous.id, ticket: generous),
        ]
        let r = try s.redeem(batch)
        #expect(r.outcome == .success, "\(r.error?.message ?? "")")
        #expect(r.output.contains("redeemed 2 read marker(s)") && r.output.contains("refused 1: read marker 1"), "\(r.output)")
        #expect(r.events.contains { $0.name == "read_marker_refused" && $0.attributes["reader"] == broke.publicKey.clientID })
        #expect(try s.writePool == before - 500)
        #expect(
            try s.net.ledger.storageReadCounter(allocation: s.allocation.id, blobber: s.blobberID, reader: broke.publicKey.clientID) == 0)
        // A batch of nothing payable fails whole and changes nothing.
        let none = try s.redeem([s.marker(counter: 5, reader: broke, ticketID: spent.id, ticket: spent)])
        #expect(none.outcome == .failure && none.error?.message.contains("within the ticket's read_budget") == true)
        #expect(try s.writePool == before - 500)
        try s.expectBooksBalance()
    }

    @Test func expiryAndRevocationAreJudgedByLedgerTimeNotTheMarkersTimestamp() throws {
        let s = try Setup()
        let expiring = s.ticket(expiration: s.net.now + 600, budget: 1_000_000)
        let revoked = s.ticket(budget: 1_000_000)
        let oldTime = s.net.now
        let before = try s.writePool
        #expect(try s.net.call(s.net.owner, "revoke_ticket", ["ticket_id": .string(revoked.id)]).outcome == .success)
        try s.net.ledger.advanceClock(by: 601)
        // Markers dated before the expiry and the revocation (the reader picks the timestamp) are not paid.
        #expect(try s.redeem([s.marker(counter: 4, ticketID: expiring.id, ticket: expiring, timestamp: oldTime)]).outcome == .failure)
        #expect(try s.redeem([s.marker(counter: 4, ticketID: revoked.id, ticket: revoked, timestamp: oldTime - 3600)]).outcome == .failure)
        #expect(try s.writePool == before)
        // An unexpired, unrevoked ticket still pays.
        let live = s.ticket(expiration: s.net.now + 600, budget: 1_000_000)
        #expect(try s.redeem([s.marker(counter: 4, ticketID: live.id, ticket: live)]).outcome == .success)
        #expect(try s.writePool == before - 400)
        try s.expectBooksBalance()
    }

    @Test func aBlobberRaisingItsReadPriceLaterDoesNotRaiseWhatTheAllocationPays() throws {
        let s = try Setup()
        let reader = s.net.reader
        #expect(try s.net.call(reader, "lock_read_pool", value: 1_000_000).outcome == .success)
        // The blobber raises its price a hundredfold after joining the allocation.
        #expect(try s.net.call(s.blobber, "update_blobber", ["read_price": .integer(Int64(Setup.readPrice * 100))]).outcome == .success)
        #expect(try s.net.ledger.storageBlobber(s.blobberID)?.readPrice == Setup.readPrice * 100)
        // A marker the reader signed for the agreed price is paid at the agreed price.
        let agreed = s.marker(counter: 10, reader: reader, ticketID: nil, ticket: nil)
        let paidBefore = try s.net.balance(s.blobber)
        #expect(try s.redeem([agreed]).outcome == .success)
        #expect(try s.net.balance(s.blobber) == paidBefore + 1_000 - s.net.genesis.minimumFee)
        #expect(try s.net.ledger.storageReadPool(reader.publicKey.clientID) == 999_000)
        // Even a marker signed with a higher cap pays only the agreed price.
        #expect(
            try s.redeem([s.marker(counter: 20, reader: reader, ticketID: nil, ticket: nil, readPrice: UInt64(Int64.max))]).outcome
                == .success)
        #expect(try s.net.ledger.storageReadPool(reader.publicKey.clientID) == 998_000)
        // A marker signed below the agreed price is refused: the reader never agreed to pay that.
        let cheap = try s.redeem([s.marker(counter: 30, reader: reader, ticketID: nil, ticket: nil, readPrice: Setup.readPrice - 1)])
        #expect(
            cheap.error?.message.contains("below the \(Setup.readPrice) per GiB the allocation agreed") == true,
            "\(cheap.error?.message ?? "")")
        // New allocations get the new price.
        let later = try s.net.newAllocation(data: 1, parity: 1, size: 1 << 20, seconds: 7200, lock: token)
        #expect(later.blobbers.first { $0.blobberID == s.blobberID }?.readPrice == Setup.readPrice * 100)
        #expect(try s.net.ledger.storageAllocation(s.allocation.id)?.blobbers[0].readPrice == Setup.readPrice)
        try s.expectBooksBalance()
    }

    @Test func aWriteMarkerNotLaterThanTheLastIsRefused() throws {
        let s = try Setup()
        let net = s.net
        let tree1 = try AllocationTree(entries: [
            AllocationEntry(
                path: "/a", fragmentRoot: TestFragment(length: 100).root,
                fragmentLength: 100, fileSize: 90)
        ])
        let tree2 = try AllocationTree(
            entries: tree1.entries + [
                AllocationEntry(
                    path: "/b", fragmentRoot: TestFragment(length: 10).root,
                    fragmentLength: 10, fileSize: 9)
            ])
        let first = net.marker(s.allocation, blobber: s.blobberID, previous: AllocationTree.emptyRoot, root: tree1.root, size: 100)
        #expect(try net.call(s.blobber, "commit_write_markers", ["markers": .array([try jsonArg(first)])]).outcome == .success)
        for stamp in [first.timestamp, first.timestamp - 1, Int64.min] {
            var same = WriteMarker(
                allocationID: s.allocation.id, blobberID: s.blobberID, clientID: net.owner.publicKey.clientID,
                previousRoot: tree1.root, root: tree2.root, size: 110, timestamp: stamp)
            same.sign(with: net.owner)
            let e = try net.failure(s.blobber, "commit_write_markers", ["markers": .array([try jsonArg(same)])])
            #expect(e?.contains("timestamps must strictly increase") == true, "\(e ?? "")")
        }
        var far = WriteMarker(
            allocationID: s.allocation.id, blobberID: s.blobberID, clientID: net.owner.publicKey.clientID,
            previousRoot: tree1.root, root: tree2.root, size: 110, timestamp: Int64.max)
        far.sign(with: net.owner)
        #expect(
            try net.failure(s.blobber, "commit_write_markers", ["markers": .array([try jsonArg(far)])])?.contains("in the future") == true)
        let next = net.marker(s.allocation, blobber: s.blobberID, previous: tree1.root, root: tree2.root, size: 110)
        #expect(next.timestamp == first.timestamp + 1, "one millisecond later is enough")
        #expect(try net.call(s.blobber, "commit_write_markers", ["markers": .array([try jsonArg(next)])]).outcome == .success)
        try s.expectBooksBalance()
    }

    @Test func tokensSentWithACallThatTakesNoneAreRefusedNotKept() throws {
        let s = try Setup()
        let id = JSONValue.string(s.allocation.id)
        for (key, method, args) in [
            (s.net.owner, "cancel_allocation", ["allocation_id": id]), (s.net.reader, "finalize_allocation", ["allocation_id": id]),
            (s.net.reader, "unlock_read_pool", [:]), (s.net.owner, "revoke_ticket", ["ticket_id": id]),
            (s.blobber, "unregister_blobber", [:]),
        ] as [(Ed25519.SigningKey, String, [String: JSONValue])] {
            let before = try s.net.balance(key)
            let e = try s.net.failure(key, method, args, value: token)
            #expect(e?.contains("storage.\(method) takes no tokens") == true, "\(method): \(e ?? "")")
            #expect(try s.net.balance(key) == before - s.net.genesis.minimumFee, "\(method) kept nothing but the fee")
        }
        try s.expectBooksBalance()
    }

    @Test func cancelAndFinalizeSettleThroughOneRuleAndBalanceTheBooks() throws {
        let s = try Setup()
        let net = s.net
        let tree = try AllocationTree(entries: [
            AllocationEntry(
                path: "/f", fragmentRoot: TestFragment(length: 1000).root,
                fragmentLength: 1000, fileSize: 900)
        ])
        let m = net.marker(s.allocation, blobber: s.blobberID, previous: AllocationTree.emptyRoot, root: tree.root, size: 1000)
        #expect(try net.call(s.blobber, "commit_write_markers", ["markers": .array([try jsonArg(m)])]).outcome == .success)
        let a = try #require(try net.ledger.storageAllocation(s.allocation.id))
        try net.ledger.advanceClock(by: 3600)
        let owner = try net.balance(net.owner)
        let b0 = try net.balance(s.blobber)
        let other = try #require(net.key(of: a.blobbers[1].blobberID))
        let b1 = try net.balance(other)
        #expect(try net.call(net.owner, "cancel_allocation", ["allocation_id": .string(a.id)]).outcome == .success)
        // Half the time has passed: blobber 0 earned about half its pool, the rest went back to the write pool;
        // 10 % of that went to the blobbers by used bytes (all to blobber 0), the owner got the rest.
        let part = a.blobbers[0]
        let earned = StorageContract.earned(part, expiration: a.expiration, now: net.ledger.latestBlock.timestamp)
        let pool = a.writePool + (part.challengePool - earned)
        let penalty = pool / 10
        #expect(try net.balance(s.blobber) == b0 + earned + penalty)
        #expect(try net.balance(other) == b1)
        #expect(try net.balance(net.owner) == owner + pool - penalty - net.genesis.minimumFee)
        try s.expectBooksBalance()
    }

    /// The examples of issue 11: each once killed the node while it made the next block.
    @Test func newAllocationWithExtremeShardsOrExpirationFailsInsteadOfTrapping() throws {
        let s = try Setup()
        let base: [String: JSONValue] = [
            "data_shards": 1, "parity_shards": 1, "size": .integer(1 << 20), "expiration": .integer(s.net.now + 7200),
        ]
        for (key, value) in [
            ("parity_shards", JSONValue.integer(Int64.max)), ("data_shards", .integer(Int64.max)), ("expiration", .integer(Int64.min)),
            ("expiration", .integer(Int64.max)), ("data_shards", .integer(Int64.min)), ("parity_shards", .integer(Int64.min)),
            ("size", .string("18446744073709551615")),
        ] {
            var args = base
            args[key] = value
            let r = try s.net.call(s.net.owner, "new_allocation", args, value: token)
            #expect(r.outcome == .failure, "\(key) = \(value)")
            #expect(r.error?.message.isEmpty == false)
        }
        // And the ledger goes on making blocks.
        #expect(try s.net.newAllocation(data: 1, parity: 1, size: 1 << 20, seconds: 7200, lock: token).status == .active)
        try s.expectBooksBalance()
    }
}
