import Foundation
import Testing

@testable import MosaicLedger

@Suite struct SocialScoreTests {
    @Test func integerLog10MatchesTheRealLogarithmToSevenDecimals() {
        #expect(SocialScore.log10Fixed(1) == 0)
        #expect(SocialScore.log10Fixed(10) == 10_000_000)
        #expect(SocialScore.log10Fixed(1_000_000_000) == 90_000_000)
        #expect(SocialScore.log10Fixed(2) == 3_010_299)  // 0.30102999566…
        #expect(SocialScore.log10Fixed(3) == 4_771_212)  // 0.47712125472…
        #expect(SocialScore.log10Fixed(999_999_999) == 89_999_999)  // 8.99999999957…
        #expect(SocialScore.log10Fixed(UInt64.max) == 192_659_197)  // 19.2659197224…
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let n = UInt64.random(in: 1...UInt64.max >> UInt64.random(in: 0...63, using: &generator), using: &generator)
            let real = log10(Double(n)) * 1e7
            #expect(abs(Double(SocialScore.log10Fixed(n)) - real) < 1.5, "log10(\(n))")
        }
    }

    @Test func orderIsZeroBelowTenMillionRsharesAndScoresAddCreatedOverThePeriod() {
        #expect(SocialScore.orderFixed(9_999_999) == 0)
        #expect(SocialScore.orderFixed(10_000_000) == 0)
        #expect(SocialScore.orderFixed(1_000_000_000) == 20_000_000)
        // 2·10^8 rshares, created 1,800,000,000: trending = log10(20) + 1.8e9/480000 = 1.30103 + 3750.
        #expect(SocialScore.trending(rshares: 200_000_000, created: 1_800_000_000) == 13_010_299 + 37_500_000_000)
        #expect(SocialScore.hot(rshares: -200_000_000, created: 1_800_000_000) == -13_010_299 + 1_800_000_000_000)
    }

    @Test func descendingKeysSortHigherScoresFirst() {
        let scores: [Int64] = [Int64.min, -5, -1, 0, 1, 7, 37_500_000_000, Int64.max]
        let keys = scores.map(SocialScore.descendingKey)
        #expect(keys.allSatisfy { $0.utf8.count == 16 })
        #expect(keys == keys.sorted().reversed())
    }
}
