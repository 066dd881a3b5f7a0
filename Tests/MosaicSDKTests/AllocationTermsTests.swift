import MosaicSDK
import Testing

/// The one check of a new allocation's terms that the CLI and the web app both run.
@Suite struct AllocationTermsTests {
    @Test func termsInsideTheContractsLimitsAreKept() throws {
        let t = try AllocationTerms(dataShards: 60, parityShards: 4, size: 1 << 20, seconds: 3600)
        #expect([t.dataShards, t.parityShards] == [60, 4])
        #expect(
            try AllocationTerms(dataShards: 1, parityShards: 0, size: UInt64.max, seconds: AllocationTerms.maxSeconds).size == UInt64.max)
    }

    @Test func eachTermOutOfRangeIsRefusedWithItsCode() {
        let cases: [(Int, Int, UInt64, UInt64, AllocationTermsError)] = [
            (0, 2, 1 << 30, 86_400, .shards(data: 0, parity: 2)),
            (2, -1, 1 << 30, 86_400, .shards(data: 2, parity: -1)),
            (40, 25, 1 << 30, 86_400, .shards(data: 40, parity: 25)),
            (Int.max, Int.max, 1 << 30, 86_400, .shards(data: Int.max, parity: Int.max)),
            (2, 2, (1 << 20) - 1, 86_400, .size((1 << 20) - 1)),
            (2, 2, 1 << 30, 3599, .lifetime(seconds: 3599)),
            (2, 2, 1 << 30, AllocationTerms.maxSeconds + 1, .lifetime(seconds: AllocationTerms.maxSeconds + 1)),
        ]
        for (d, p, size, seconds, expected) in cases {
            #expect(throws: expected) { try AllocationTerms(dataShards: d, parityShards: p, size: size, seconds: seconds) }
        }
        #expect(AllocationTermsError.shards(data: 40, parity: 25).code == "invalid_shards")
        #expect(AllocationTermsError.size(1).message == "The size must be at least 1 MiB (got 1 B).")
    }
}
