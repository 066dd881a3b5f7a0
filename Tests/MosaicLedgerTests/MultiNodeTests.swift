import Foundation
import MosaicCrypto
import MosaicProtocol
import MosaicTestSupport
import Testing

@testable import MosaicLedger

/// Several ledgers on one PostgreSQL database (issue 14 §2): the producer lease decides which one
/// makes blocks, the others follow the stored head and the shared pending pool. Only PostgreSQL
/// can be shared; a SQLite file has one writer.
@Suite(.sharedDatabase)
struct MultiNodeTests {
    /// A second ledger (its own directory, with a key the genesis lists) on the database of
    /// `net`'s ledger; `net` closes it and removes its directory when released.
    static func follower(of net: TestNet) throws -> Ledger {
        let directory = try #require(net.followerDirectories.first, "make the TestNet with followers: 1")
        let ledger = try Ledger(
            directory: directory, database: .postgres(url: try TestLedgerDatabase.url(for: net.directory)), genesis: net.genesis)
        net.others.append(ledger)
        return ledger
    }

    /// Block time of these tests: short, so they finish soon; nothing depends on it.
    static let blockTime = Duration.milliseconds(50)
    /// How long a wait may hang before the test fails instead (a bound on hangs, not on speed).
    static let hangBound = Duration.seconds(300)

    /// Asks `condition` until it holds (or gives up after `hangBound`, failing the test).
    static func eventually(_ what: String, _ condition: () throws -> Bool) async throws {
        #expect(try await MosaicTestSupport.eventually(within: hangBound, condition), "never happened: \(what)")
    }

    @Test func exactlyOneLedgerProducesAndAFollowerSealsWhatItAccepted() async throws {
        let net = try TestNet(followers: 1)
        let follower = try Self.follower(of: net)
        let producer = net.ledger
        // The first to open holds the lease; the second follows and may not make a block.
        #expect(producer.isProducer)
        #expect(!follower.isProducer)
        #expect(rejection { try follower.produceBlock() } == .notProducer)
        producer.start(blockTime: Self.blockTime)
        follower.start(blockTime: Self.blockTime)

        // Accepted by the follower: in the shared pool, made into blocks by the producer, and the
        // follower's own wait is woken by those blocks.
        let tx = net.transfer(net.alice, to: net.bob, 5 * token, nonce: 1)
        try follower.submit(tx)
        #expect(await follower.wait(for: tx.hash, until: .sealed, timeout: Self.hangBound) == .sealed)
        #expect(producer.isProducer)
        #expect(!follower.isProducer)

        try await Self.eventually("both ledgers report the same head") {
            producer.latestBlock == follower.latestBlock && producer.pendingCount == 0 && follower.pendingCount == 0
        }
        let head = producer.latestBlock
        #expect(try follower.block(round: head.round) == head)
        for key in [net.alice, net.bob] {
            #expect(try follower.account(key.publicKey.clientID).balance == producer.account(key.publicKey.clientID).balance)
        }
        #expect(try follower.account(net.bob.publicKey.clientID).balance == 55 * token)
        let seen = try #require(try follower.transaction(tx.hash))
        #expect(seen.status == .sealed)
        #expect(seen.receipt?.outcome == .success)
        #expect(try producer.transaction(tx.hash)?.receipt == seen.receipt)
        // Its next nonce follows the chain, not the follower's stale cache.
        #expect(try follower.nextNonce(for: net.alice.publicKey.clientID) == 2)
    }

    @Test func whenTheProducerClosesAFollowerTakesTheLeaseAndTheChainGoesOnOnce() async throws {
        let net = try TestNet(followers: 1)
        let follower = try Self.follower(of: net)
        let producer = net.ledger
        producer.start(blockTime: Self.blockTime)
        follower.start(blockTime: Self.blockTime)
        let first = net.transfer(net.alice, to: net.bob, 1 * token, nonce: 1)
        try producer.submit(first)
        #expect(await producer.wait(for: first.hash, until: .sealed, timeout: Self.hangBound) == .sealed)
        // Waiting on the follower for what the producer made.
        #expect(await follower.wait(for: first.hash, until: .sealed, timeout: Self.hangBound) == .sealed)

        // The producer's session ends: its lease is free, and the follower takes it.
        producer.close()
        let second = net.transfer(net.alice, to: net.bob, 2 * token, nonce: 2)
        try follower.submit(second)
        #expect(await follower.wait(for: second.hash, until: .sealed, timeout: Self.hangBound) == .sealed)
        #expect(follower.isProducer)

        // Every round once, each on the one before it; nothing minted or lost.
        let head = follower.latestBlock
        var previous = try #require(try follower.block(round: 0))
        for round in 1...head.round {
            let block = try #require(try follower.block(round: round))
            #expect(block.previousHash == previous.hash)
            previous = block
        }
        #expect(previous == head)
        #expect(try follower.transaction(first.hash)?.status == .sealed)
        #expect(try follower.account(net.bob.publicKey.clientID).balance == 53 * token)
        #expect(try follower.supply().isConserved)
    }

    /// A follower whose own block timer ticks once an hour still answers a wait as soon as the
    /// producer's blocks are committed: PostgreSQL's NOTIFY wakes it (`BlockListener`), not a tick.
    @Test func aFollowerIsWokenByTheProducersBlocksNotByItsOwnTick() async throws {
        let net = try TestNet(followers: 1)
        let follower = try Self.follower(of: net)
        let producer = net.ledger
        producer.start(blockTime: Self.blockTime)
        follower.start(blockTime: .seconds(3600))
        for nonce in UInt64(1)...3 {
            let tx = net.transfer(net.alice, to: net.bob, token, nonce: nonce)
            try follower.submit(tx)
            #expect(await follower.wait(for: tx.hash, until: .sealed, timeout: Self.hangBound) == .sealed)
            #expect(try follower.transaction(tx.hash)?.status == .sealed)
        }
        #expect(!follower.isProducer)
        try await Self.eventually("the follower's head is the producer's") { follower.latestBlock == producer.latestBlock }
    }

    /// The same nonce accepted by two nodes (each pool alone cannot see the other's): the
    /// producer's own transaction is sealed, the follower's can never run and is recorded as
    /// expired, so the follower's wait ends with that answer and nothing is paid twice.
    @Test func aNonceTakenOnTwoNodesSealsOneAndExpiresTheOther() async throws {
        let net = try TestNet(followers: 1)
        let follower = try Self.follower(of: net)
        let producer = net.ledger
        let toBob = net.transfer(net.alice, to: net.bob, 1 * token, nonce: 1)
        let toCarol = net.transfer(net.alice, to: net.carol, 2 * token, nonce: 1)
        try producer.submit(toBob)
        try follower.submit(toCarol)
        producer.start(blockTime: Self.blockTime)
        follower.start(blockTime: Self.blockTime)
        #expect(await follower.wait(for: toCarol.hash, until: .sealed, timeout: Self.hangBound) == .expired)
        #expect(await follower.wait(for: toBob.hash, until: .sealed, timeout: Self.hangBound) == .sealed)
        try await Self.eventually("the follower's pool is empty") { follower.pendingCount == 0 }
        #expect(try follower.account(net.carol.publicKey.clientID).balance == 0)
        #expect(try follower.account(net.bob.publicKey.clientID).balance == 51 * token)
        #expect(try follower.account(net.alice.publicKey.clientID).nonce == 1)
        #expect(try producer.supply().isConserved)
        // Expired once, never again, on either node.
        #expect(rejection { try follower.submit(toCarol) } == .alreadyExpired(hash: toCarol.hash))
        #expect(rejection { try producer.submit(toCarol) } == .alreadyExpired(hash: toCarol.hash))
    }
}
