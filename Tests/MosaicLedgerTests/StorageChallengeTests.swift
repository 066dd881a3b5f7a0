import Foundation
import MosaicCrypto
import MosaicProtocol
import MosaicTestSupport
import Testing

@testable import MosaicLedger

@Suite(.timeLimit(.minutes(2))) struct StorageChallengeTests {
    /// Blobber 0 of a 1+1 allocation holding two files; a challenge every block.
    struct Setup {
        let net: StorageNet
        let allocation: Allocation
        let blobber: Ed25519.SigningKey
        let tree: AllocationTree
        let fragments: [String: TestFragment]
        let commitRound: UInt64

        init(files: [String: TestFragment] = ["/a.bin": TestFragment(length: 3 * 65536 + 10), "/b.txt": TestFragment(length: 64, seed: 7)])
            throws
        {
            net = try StorageNet(blobberCount: 2, config: StorageNet.testConfig(challengeEvery: 1))
            try net.registerAll()
            allocation = try net.newAllocation(data: 1, parity: 1, size: 1 << 20, seconds: 7200, lock: 10 * token)
            let id = allocation.blobbers[0].blobberID
            blobber = try #require(net.key(of: id))
            fragments = files
            tree = try AllocationTree(
                entries: fragments.map { path, f in
                    AllocationEntry(
                        path: path, fragmentRoot: f.root, fragmentLength: UInt64(f.bytes.count), fileSize: UInt64(f.bytes.count))
                })
            let m = net.marker(allocation, blobber: id, previous: AllocationTree.emptyRoot, root: tree.root, size: tree.totalFragmentBytes)
            let r = try net.call(blobber, "commit_write_markers", ["markers": .array([try jsonArg(m)])])
            guard r.outcome == .success else { throw LedgerError.storage(r.error?.message ?? "commit failed") }
            commitRound = r.round
        }

        func openChallenge() throws -> Challenge {
            let open = try net.ledger.storageOpenChallenges(blobber: blobber.publicKey.clientID)
            guard open.count == 1 else { throw LedgerError.storage("expected one open challenge, found \(open.count)") }
            return open[0]
        }

        func proof(for c: Challenge) throws -> ChallengeProof {
            try ChallengeProof.build(challengeID: c.id, tree: tree) { entry, index in
                guard let f = fragments[entry.path] else { throw LedgerError.storage("no fragment \(entry.path)") }
                return f.block(index)
            }
        }

        func respond(_ c: Challenge, _ proof: ChallengeProof) throws -> TransactionReceipt {
            try net.call(blobber, "respond_challenge", ["challenge_id": .string(c.id), "proof": try jsonArg(proof)])
        }
    }

    @Test func challengeIsIssuedFromThePreviousBlockHash() throws {
        let s = try Setup()
        let c = try s.openChallenge()
        let previous = try #require(try s.net.ledger.block(round: s.commitRound - 1))
        #expect(c.id == Hex.encode(Challenge.seed(previousBlockHash: previous.hash, round: s.commitRound)))
        #expect(c.allocationID == s.allocation.id && c.blobberID == s.blobber.publicKey.clientID)
        #expect(c.allocationRoot == s.tree.root)
        #expect(c.issuedRound == s.commitRound && c.status == .open)
        #expect(c.deadline == c.issuedAt + s.net.config.challengeTimeoutSeconds)
        // The other blobber has nothing committed, so it is never challenged.
        #expect(try s.net.ledger.storageOpenChallenges(blobber: s.allocation.blobbers[1].blobberID).isEmpty)
        // No challenges when the rate says no.
        let quiet = try StorageNet(blobberCount: 2)
        try quiet.registerAll()
        #expect(try quiet.ledger.storageOpenChallenges().isEmpty)
    }

    @Test func correctProofPassesAndPaysWrongBlockFailsAndPenalizes() throws {
        let s = try Setup()
        let pool = try #require(try s.net.ledger.storageAllocation(s.allocation.id)).challengePool
        try s.net.ledger.advanceClock(by: 200)
        let c = try s.openChallenge()
        let before = try s.net.balance(s.blobber)
        let passed = try s.respond(c, try s.proof(for: c))
        #expect(passed.outcome == .success)
        #expect(passed.output.contains("passed"))
        let closed = try #require(try s.net.ledger.storageChallenge(c.id))
        #expect(closed.status == .passed && closed.amount > 0)
        // Released evenly over time: 200 s of the 7200 s since the write.
        let since = try #require(s.allocation.blobbers.first).challengePoolSince
        #expect(closed.amount == pool * UInt64(s.net.now - since) / UInt64(s.allocation.expiration - since))
        #expect(try s.net.balance(s.blobber) == before + closed.amount - s.net.genesis.minimumFee)
        var alloc = try #require(try s.net.ledger.storageAllocation(s.allocation.id))
        #expect(alloc.successfulChallenges == 1 && alloc.failedChallenges == 0)
        #expect(alloc.latestClosedChallenge == s.net.now)
        #expect(try s.net.ledger.storageBlobber(s.blobber.publicKey.clientID)?.successfulChallenges == 1)

        // The block that closed it issued the next one; answer it with a flipped byte.
        try s.net.ledger.advanceClock(by: 100)
        let c2 = try s.openChallenge()
        #expect(c2.id != c.id)
        var bad = try s.proof(for: c2)
        var bytes = [UInt8](try #require(Data(base64Encoded: bad.block)))
        bytes[0] ^= 0xff
        bad.block = Data(bytes).base64EncodedString()
        let stake = try #require(try s.net.ledger.storageBlobber(s.blobber.publicKey.clientID)).stake
        let writePool = alloc.writePool
        let failed = try s.respond(c2, bad)
        #expect(failed.outcome == .success)
        #expect(failed.output.contains("failed"))
        let closed2 = try #require(try s.net.ledger.storageChallenge(c2.id))
        #expect(closed2.status == .failed && closed2.reason.contains("does not match fragment root"))
        let info = try #require(try s.net.ledger.storageBlobber(s.blobber.publicKey.clientID))
        #expect(info.failedChallenges == 1 && info.stake == stake - s.net.config.challengePenalty)
        #expect(info.penalties == s.net.config.challengePenalty)
        alloc = try #require(try s.net.ledger.storageAllocation(s.allocation.id))
        #expect(alloc.failedChallenges == 1)
        #expect(alloc.writePool > writePool + s.net.config.challengePenalty)  // penalty plus the period's pay
        // Someone else cannot answer, and a closed challenge cannot be answered again.
        let c3 = try s.openChallenge()
        let other = try #require(s.net.key(of: s.allocation.blobbers[1].blobberID))
        #expect(
            try s.net.failure(other, "respond_challenge", ["challenge_id": .string(c3.id), "proof": try jsonArg(try s.proof(for: c3))])?
                .contains("not the caller") == true)
        #expect(
            try s.net.failure(s.blobber, "respond_challenge", ["challenge_id": .string(c2.id), "proof": try jsonArg(bad)])?
                .contains("already failed") == true)
        #expect(try s.net.ledger.supply().isConserved)
        #expect(try s.net.contractBalance() == s.net.storageLiabilities())
    }

    @Test func missedDeadlineFailsAtBlockEnd() throws {
        let s = try Setup()
        let c = try s.openChallenge()
        try s.net.ledger.advanceClock(by: s.net.config.challengeTimeoutSeconds + 1)
        try s.net.ledger.produceBlock()
        let closed = try #require(try s.net.ledger.storageChallenge(c.id))
        #expect(closed.status == .failed)
        #expect(closed.reason.contains("no answer before the deadline"))
        let alloc = try #require(try s.net.ledger.storageAllocation(s.allocation.id))
        #expect(alloc.failedChallenges == 1 && alloc.latestClosedChallenge == s.net.now)
        #expect(try s.net.ledger.storageBlobber(s.blobber.publicKey.clientID)?.penalties == s.net.config.challengePenalty)
        // A late answer to the next challenge fails too.
        let c2 = try s.openChallenge()
        #expect(c2.id != c.id)
        try s.net.ledger.advanceClock(by: s.net.config.challengeTimeoutSeconds + 1)
        let late = try s.respond(c2, try s.proof(for: c2))
        #expect(late.outcome == .success && late.output.contains("after the deadline"))
        #expect(try s.net.ledger.storageChallenge(c2.id)?.status == .failed)
        #expect(try s.net.ledger.supply().isConserved)
        #expect(try s.net.contractBalance() == s.net.storageLiabilities())
    }

    @Test func fullBlockAnswerFitsInATransaction() throws {
        let s = try Setup(files: ["/big": TestFragment(length: 2 * 65536, seed: 3)])
        let c = try s.openChallenge()
        let proof = try s.proof(for: c)
        #expect(Data(base64Encoded: proof.block)?.count == 65536)
        let r = try s.respond(c, proof)
        #expect(r.outcome == .success && r.output.contains("passed"))
    }

    @Test func challengesOfACanceledAllocationCloseWithoutCounting() throws {
        let s = try Setup()
        let c = try s.openChallenge()
        #expect(try s.net.call(s.net.owner, "cancel_allocation", ["allocation_id": .string(s.allocation.id)]).outcome == .success)
        try s.net.ledger.advanceClock(by: s.net.config.challengeTimeoutSeconds + 1)
        try s.net.ledger.produceBlock()
        let closed = try #require(try s.net.ledger.storageChallenge(c.id))
        #expect(closed.status == .failed && closed.reason.contains("not counted"))
        #expect(try s.net.ledger.storageBlobber(s.blobber.publicKey.clientID)?.failedChallenges == 0)
        #expect(try s.net.ledger.storageOpenChallenges().isEmpty)
        #expect(try s.net.ledger.supply().isConserved)
        #expect(try s.net.contractBalance() == s.net.storageLiabilities())
    }

    @Test func blobbersFailingTooOftenAreNotPicked() throws {
        var config = StorageNet.testConfig()
        config.maxFailedChallenges = 0
        let net = try StorageNet(blobberCount: 2, config: config)
        try net.registerAll()
        // With the threshold at 0 every blobber with failed ≥ successful (0 ≥ 0) is excluded.
        let e = try net.failure(
            net.owner, "new_allocation",
            [
                "data_shards": 1, "parity_shards": 1, "size": .integer(1 << 20),
                "expiration": .integer(net.now + 7200),
            ], value: token)
        #expect(e == "not enough blobbers: need 2 with 1 MiB free, found 0")
    }
}
