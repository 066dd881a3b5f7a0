import Foundation
import MosaicCrypto
import MosaicProtocol
import MosaicTestSupport
import Testing

@testable import MosaicLedger

/// Issue 11 item 3: an expired transaction must never be replayable once its nonce comes round
/// again, and old signed bytes must not come back after their window (docs/PROTOCOL.md §2.3).
@Suite struct ReplayTests {
    /// The double payment: Alice's payment A (nonce 2, waiting on a gap) expires; told to "send
    /// it again", she pays Bob anew with nonce 1, which fills the gap; Bob then resubmits A's
    /// signed bytes (the node shows expired transactions in full) to be paid twice.
    @Test func anExpiredPaymentReplayedAfterItsNonceCameRoundIsRefusedAndPaysOnce() throws {
        let net = try TestNet(confirmations: 1, expiryBlocks: 3)
        let paid = 10 * token
        let original = net.transfer(net.alice, to: net.bob, paid, nonce: 2)
        try net.ledger.submit(original)
        for _ in 0..<3 { try net.ledger.produceBlock() }
        #expect(try net.ledger.transaction(original.hash)?.status == .expired)

        // The payment sent again, with a fresh signature at the nonce now free.
        let again = net.transfer(net.alice, to: net.bob, paid, nonce: 1)
        try net.ledger.submit(again)
        try net.ledger.produceBlock()
        #expect(try net.ledger.transaction(again.hash)?.receipt?.outcome == .success)
        let bob = try net.balance(net.bob)
        let alice = try net.balance(net.alice)
        let pending = net.ledger.pendingCount

        // Bob replays the expired bytes: nonce 2 is next now, so only the record of its expiry stops it.
        let stored = try #require(try net.ledger.transaction(original.hash)?.transaction)
        #expect(rejection { try net.ledger.submit(stored) } == .alreadyExpired(hash: original.hash))
        #expect(rejection { try net.ledger.submit(stored) }?.code == "already_expired")
        try net.ledger.produceBlock()
        #expect(try net.balance(net.bob) == bob)
        #expect(try net.balance(net.alice) == alice)
        #expect(net.ledger.pendingCount == pending)
        #expect(try net.ledger.transaction(original.hash)?.status == .expired)
        // Alice's own next payment at nonce 2 goes through.
        try net.ledger.submit(net.transfer(net.alice, to: net.carol, token, nonce: 2))
        try net.ledger.produceBlock()
        #expect(try net.nonce(net.alice) == 2)
        #expect(try net.ledger.supply().isConserved)
    }

    /// The expired record survives a restart: the replay is refused by the reopened ledger too.
    @Test func theExpiredRecordOutlivesARestart() throws {
        let net = try TestNet(confirmations: 1, expiryBlocks: 2)
        let original = net.transfer(net.alice, to: net.bob, token, nonce: 2)
        try net.ledger.submit(original)
        for _ in 0..<2 { try net.ledger.produceBlock() }
        try net.reopen()
        try net.ledger.submit(net.transfer(net.alice, to: net.bob, token, nonce: 1))
        try net.ledger.produceBlock()
        #expect(rejection { try net.ledger.submit(original) } == .alreadyExpired(hash: original.hash))
    }

    /// Signed bytes held back (or signed with a wrong clock) are refused outside the window
    /// around ledger time; inside it they are accepted.
    @Test func creationDateOutsideTheWindowAroundLedgerTimeIsRefused() throws {
        let net = try TestNet()
        let now = net.now
        let g = net.genesis
        func signed(_ date: Int64, nonce: UInt64 = 1) -> Transaction {
            Transaction.signed(
                by: net.alice, chainID: g.chainID, to: net.bob.publicKey.clientID, value: token, fee: g.minimumFee,
                nonce: nonce, creationDate: date)
        }
        for date in [now - g.creationDateMaxAgeSeconds - 1, now + g.creationDateMaxAheadSeconds + 1, Int64.min, Int64.max, 0] {
            let e = rejection { try net.ledger.submit(signed(date)) }
            #expect(e?.code == "creation_date_out_of_window", "creation_date \(date)")
            if case .creationDateOutOfWindow(let d, let n, let age, let ahead) = e {
                #expect(d == date && n == now && age == g.creationDateMaxAgeSeconds && ahead == g.creationDateMaxAheadSeconds)
            } else {
                Issue.record("expected creationDateOutOfWindow, got \(String(describing: e))")
            }
        }
        #expect(net.ledger.pendingCount == 0)
        try net.ledger.submit(signed(now - g.creationDateMaxAgeSeconds))
        try net.ledger.submit(signed(now + g.creationDateMaxAheadSeconds, nonce: 2))
        try net.ledger.produceBlock()
        #expect(try net.nonce(net.alice) == 2)
    }

    /// Once ledger time passes the window, the expired record may be pruned: the bytes stay out
    /// because their creation_date is refused, so nothing can come back either way.
    @Test func afterTheWindowTheExpiredRecordIsPrunedAndTheReplayStillRefused() throws {
        // A clock at genesis time, so moving it moves ledger time.
        let net = try TestNet(confirmations: 1, expiryBlocks: 2, clock: LedgerClock(source: { 1_800_000_000_000 }))
        let original = net.transfer(net.alice, to: net.bob, token, nonce: 2)
        try net.ledger.submit(original)
        for _ in 0..<2 { try net.ledger.produceBlock() }
        try net.ledger.submit(net.transfer(net.alice, to: net.bob, token, nonce: 1))
        try net.ledger.advanceClock(by: net.genesis.creationDateMaxAgeSeconds + 10)
        // Pruning runs every `historyPruneEvery` (1000) rounds; 10 here, so the test makes few blocks.
        net.ledger.pruneEvery = 10
        while net.ledger.latestBlock.round % 10 != 0 { try net.ledger.produceBlock() }
        #expect(try net.ledger.transaction(original.hash) == nil)
        #expect(rejection { try net.ledger.submit(original) }?.code == "creation_date_out_of_window")
        #expect(try net.nonce(net.alice) == 1)
    }
}
