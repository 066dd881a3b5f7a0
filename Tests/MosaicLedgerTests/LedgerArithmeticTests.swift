import Foundation
import MosaicCrypto
import MosaicProtocol
import MosaicTestSupport
import Testing

@testable import MosaicLedger

/// Issue 11 items 1 and 4 in the engine: the node's reads take any UInt64/Int64 a route may pass
/// on, the clock any step, genesis no value that overflows later, a binary batch any length
/// field; each answers or refuses, none traps.
@Suite struct LedgerArithmeticTests {
    @Test func readsByAnyRoundLimitOrOffsetAnswerInsteadOfTrapping() throws {
        let net = try TestNet()
        try net.ledger.submit(net.transfer(net.alice, to: net.bob, token, nonce: 1))
        try net.ledger.produceBlock()
        for round: UInt64 in [UInt64(Int64.max), UInt64(Int64.max) + 1, .max, .max - 1] {
            #expect(try net.ledger.block(round: round) == nil)
            #expect(try net.ledger.transactions(inRound: round, limit: .max, offset: .max).isEmpty)
            #expect(try net.ledger.transactions(inRound: round, limit: .min, offset: .min).isEmpty)
            #expect(try net.ledger.blocks(before: round, limit: .max).count == 2)
            #expect(throws: LedgerError.self) {
                try net.ledger.view(
                    contract: "faucet", name: "status", args: ["client_id": .string(net.alice.publicKey.clientID)], round: round)
            }
        }
        #expect(try net.ledger.blocks(before: 0, limit: .max).isEmpty)
        #expect(try net.ledger.blocks(before: 1, limit: .min).isEmpty)
        #expect(try net.ledger.transactions(of: net.alice.publicKey.clientID, limit: .max, offset: .max).isEmpty)
        #expect(try net.ledger.transactions(of: net.alice.publicKey.clientID, limit: .max, offset: .min).count == 1)
        #expect(try net.ledger.transactions(inRound: 1, limit: .max, offset: .min).count == 1)
    }

    @Test func theClockRefusesStepsThatWouldOverflowAndKeepsItsOffset() throws {
        let net = try TestNet()
        let before = net.ledger.clock.offsetSeconds
        for step in [Int64.max, Int64.min, LedgerClock.validOffsets.upperBound + 1, LedgerClock.validOffsets.lowerBound - 1] {
            let e = rejection { try net.ledger.advanceClock(by: step) }
            #expect(e?.code == "malformed", "step \(step)")
            #expect(e?.httpStatus == 400)
        }
        #expect(net.ledger.clock.offsetSeconds == before)
        try net.ledger.advanceClock(by: 3600)
        #expect(net.ledger.clock.offsetSeconds == before + 3600)
        // Even an offset set outside the range directly saturates instead of trapping.
        let clock = LedgerClock(offsetSeconds: .max)
        #expect(clock.nowMillis == .max)
        #expect(LedgerClock(offsetSeconds: .min).nowMillis == .min)
        try net.ledger.produceBlock()
    }

    @Test func genesisValuesThatWouldOverflowLaterAreRefusedAtTheStart() throws {
        func refused(_ change: (inout Genesis) -> Void) -> Bool {
            var g = Genesis(chainID: "mosaic-bounds")
            change(&g)
            let dir = NSTemporaryDirectory() + "mosaic-bounds-" + Hex.encode(Random.bytes(6))
            defer { try? FileManager.default.removeItem(atPath: dir) }
            guard let database = try? TestLedgerDatabase.forDirectory(dir) else { return false }
            do {
                let l = try Ledger(directory: dir, database: database, genesis: g)
                l.close()
                return false
            } catch { return error.code == "malformed" }
        }
        #expect(refused { $0.confirmations = .max })
        #expect(refused { $0.expiryBlocks = .max })
        #expect(refused { $0.maxNonceAhead = .max })
        #expect(refused { $0.maxBlockTransactions = .max })
        #expect(refused { $0.poolCapacity = .max })
        #expect(refused { $0.blockTimeMillis = -1 })
        #expect(refused { $0.maxTransferDataBytes = -1 })
        #expect(refused { $0.maxCallDataBytes = Transaction.maxDataBytes + 1 })
        #expect(refused { $0.creationDateMaxAgeSeconds = .max })
        #expect(refused { $0.creationDateMaxAheadSeconds = -1 })
        #expect(refused { $0.faucet.accountWindowSeconds = .max })
        #expect(
            refused {
                $0.faucet.supply = .max
                $0.allocations = [String(repeating: "a", count: 64): 1]
            })
        #expect(!refused { _ in })
    }

    /// A genesis.json written before the new keys existed still opens, with the defaults.
    @Test func aGenesisWithoutTheNewLimitsDecodesWithDefaults() throws {
        let g = Genesis(chainID: "mosaic-old")
        var object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(g)) as? [String: Any])
        for key in [
            "max_transfer_data_bytes", "max_call_data_bytes", "max_free_data_bytes", "creation_date_max_age_seconds",
            "creation_date_max_ahead_seconds",
        ] {
            #expect(object.removeValue(forKey: key) != nil)
        }
        let old = try JSONDecoder().decode(Genesis.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(old == g)
    }

    @Test func binaryBatchLengthFieldsOfAnySizeAreRefused() throws {
        let net = try TestNet()
        let good = [UInt8](BinaryBatch.encode([net.transfer(net.alice, to: net.bob, 1, nonce: 1)]))
        let cases: [[UInt8]] = [
            [0xFF, 0xFF, 0xFF, 0xFF] + good.dropFirst(4),
            [0x7F, 0xFF, 0xFF, 0xFF],
            [0x00, 0x00, 0x00],
            Array(good.dropLast()),
            [0x00, 0x00, 0x00, 0x00] + [UInt8](repeating: 0, count: 64),
            // A record whose inner string length claims 4 GiB.
            [0x00, 0x00, 0x00, 0x08, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 64),
        ]
        for bytes in cases {
            #expect(throws: LedgerError.self) { try BinaryBatch.decode(Data(bytes)) }
        }
        #expect(try BinaryBatch.decode(Data(good)).count == 1)
    }

    /// A challenge answer claiming a tree of 2^64 − 1 entries walked `(n + 1) / 2` into an
    /// overflow inside the ledger (a blobber could stop the node); now the walk just ends.
    @Test func aProofClaimingTheLargestTreeDoesNotOverflow() {
        let leaf = [UInt8](repeating: 7, count: 32)
        #expect(MerkleRules.rootFrom(leaf: leaf, index: 0, count: .max, siblings: [leaf]) == nil)
        #expect(MerkleRules.rootFrom(leaf: leaf, index: 0, count: .max, siblings: [[UInt8]](repeating: leaf, count: 64))?.count == 32)
        // The rule is unchanged for real trees: ⌈n / 2⌉ per level.
        let leaves = (0..<5).map { [UInt8](repeating: UInt8($0), count: 32) }
        for i in 0..<5 {
            #expect(
                MerkleRules.rootFrom(leaf: leaves[i], index: UInt64(i), count: 5, siblings: MerkleRules.siblings(leaves: leaves, index: i))
                    == MerkleRules.root(leaves: leaves))
        }
    }

    /// Contract messages quote times callers chose; every Int64 prints.
    @Test func anyTimestampPrintsWithoutOverflow() {
        #expect(UTCTime.iso8601(0) == "1970-01-01T00:00:00Z")
        #expect(UTCTime.iso8601(1_900_003_600) == "2030-03-17T18:46:40Z")
        for t in [Int64.min, Int64.min + 1, Int64.max, -1] { #expect(!UTCTime.iso8601(t).isEmpty) }
    }

    /// A transfer to oneself moves nothing and mints nothing; only the fee goes.
    @Test func aTransferToOneselfMintsNothing() throws {
        let net = try TestNet()
        let before = try net.balance(net.alice)
        let tx = Transaction.signed(
            by: net.alice, chainID: net.genesis.chainID, to: net.alice.publicKey.clientID, value: 7 * token,
            fee: net.genesis.minimumFee, nonce: 1, creationDate: net.now)
        try net.ledger.submit(tx)
        try net.ledger.produceBlock()
        #expect(try net.ledger.transaction(tx.hash)?.receipt?.outcome == .success)
        #expect(try net.balance(net.alice) == before - net.genesis.minimumFee)
        #expect(try net.ledger.supply().isConserved)
    }

    /// The producer's own transactions pay no fee to themselves and lose none.
    @Test func theProducerPayingItselfChangesNothingButTheNonce() throws {
        let producer = try testKey(77)
        var g = Genesis(chainID: "mosaic-self", genesisTime: 1_800_000_000, allocations: [producer.publicKey.clientID: 5 * token])
        g.nodeID = producer.publicKey.clientID
        let dir = NSTemporaryDirectory() + "mosaic-self-" + Hex.encode(Random.bytes(6))
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let ledger = try Ledger(directory: dir, database: try TestLedgerDatabase.forDirectory(dir), genesis: g)
        defer { ledger.close() }
        let other = try testKey(78).publicKey.clientID
        try ledger.submit(
            Transaction.signed(
                by: producer, chainID: g.chainID, to: other, value: token, fee: g.minimumFee, nonce: 1,
                creationDate: max(ledger.clock.now, ledger.latestBlock.timestamp)))
        try ledger.produceBlock()
        #expect(try ledger.account(producer.publicKey.clientID).balance == 4 * token)
        #expect(try ledger.account(producer.publicKey.clientID).nonce == 1)
        #expect(try ledger.supply().isConserved)
    }
}
