import MosaicProtocol
import Testing

@testable import MosaicLedger

/// `StorageContract.settlement`, the one rule for what an ending allocation pays: whatever the
/// pools, prices, usage and time, it pays out exactly what the allocation holds.
@Suite struct StorageSettlementTests {
    let contract = StorageContract(config: StorageConfig())

    func allocation(writePool: UInt64, pools: [UInt64], used: [UInt64], since: [Int64], expiration: Int64) -> Allocation {
        let blobbers = pools.indices.map { i in
            AllocationBlobber(
                blobberID: String(repeating: String(i % 10), count: 64), url: "http://b\(i)", used: used[i],
                writePrice: 1, readPrice: 1, challengePool: pools[i], challengePoolSince: since[i])
        }
        var a = Allocation(
            id: String(repeating: "a", count: 64), name: "", ownerID: String(repeating: "o", count: 64), ownerPublicKey: "",
            dataShards: 1, parityShards: max(0, pools.count - 1), size: 1 << 20, expiration: expiration,
            blobbers: blobbers, writePool: writePool, createdAt: 0)
        a.challengePool = pools.reduce(0, +)
        return a
    }

    /// paid + refund = write pool + challenge pools, the parts add up to `paid`, and no part
    /// exceeds what it came from; for random allocations canceled or finalized at random times.
    @Test func settlementConservesTokensOnCancelAndFinalize() throws {
        var rng = SeededGenerator(state: 12)
        for round in 0..<5_000 {
            let n = Int.random(in: 1...8, using: &rng)
            // Amounts up to 2^59 each, so the totals (at most 9 of them) fit 64 bits.
            let big: UInt64 = 1 << 59
            let amount = { (rng: inout SeededGenerator) -> UInt64 in
                switch UInt64.random(in: 0...3, using: &rng) {
                case 0: return 0
                case 1: return UInt64.random(in: 0...1000, using: &rng)
                default: return UInt64.random(in: 0...big, using: &rng)
                }
            }
            let writePool = amount(&rng)
            let pools = (0..<n).map { _ in amount(&rng) }
            let used = (0..<n).map { _ in Bool.random(using: &rng) ? 0 : UInt64.random(in: 0...(1 << 40), using: &rng) }
            let expiration = Int64.random(in: 1_000...2_000_000, using: &rng)
            let since = (0..<n).map { _ in Int64.random(in: 0...expiration + 10, using: &rng) }
            let now = Int64.random(in: 0...expiration + 1000, using: &rng)
            let alloc = allocation(writePool: writePool, pools: pools, used: used, since: since, expiration: expiration)
            let held = pools.reduce(writePool, +)
            for canceled in [true, false] {
                let s = try contract.settlement(of: alloc, canceled: canceled, now: now)
                #expect(s.paid + s.refund == held, "round \(round), canceled \(canceled)")
                #expect(s.earned.count == n && s.penaltyShares.count == n)
                #expect(s.earned.reduce(0, +) + s.penaltyShares.reduce(0, +) == s.paid)
                #expect(s.penaltyShares.reduce(0, +) == s.penalty)
                for i in 0..<n { #expect(s.earned[i] <= pools[i]) }
                if canceled {
                    // `cancel_penalty_percent` (floor) of what the owner would otherwise get back.
                    #expect(UInt128(s.penalty) == UInt128(s.refund + s.penalty) * UInt128(contract.config.cancelPenaltyPercent) / 100)
                } else {
                    #expect(s.earned == pools && s.penalty == 0 && s.refund == writePool)
                }
            }
        }
    }

    /// Canceling at creation pays the blobbers nothing earned and refunds the write pool minus the penalty.
    @Test func cancelingBeforeAnyTimePassedRefundsAllButThePenalty() throws {
        let alloc = allocation(writePool: 1_000, pools: [300, 100], used: [0, 0], since: [50, 50], expiration: 1_000)
        let s = try contract.settlement(of: alloc, canceled: true, now: 50)
        #expect(s.earned == [0, 0])
        #expect(s.penalty == 140)  // 10 % of 1,000 + 400 returned from the challenge pools
        #expect(s.penaltyShares == [70, 70])
        #expect(s.refund == 1_260)
        #expect(s.paid == 140)
    }
}
