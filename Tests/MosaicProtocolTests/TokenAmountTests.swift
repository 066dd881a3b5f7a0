import MosaicProtocol
import Testing

@Suite struct TokenAmountTests {
    @Test(arguments: [
        ("1.5", UInt64(15_000_000_000)), ("0.0000000001", 1), ("42", 420_000_000_000), (".5", 5_000_000_000),
        ("0", 0), ("1844674407.3709551615", UInt64.max),
    ])
    func parsesExactly(text: String, units: UInt64) throws {
        #expect(try TokenAmount(parsing: text).baseUnits == units)
    }

    @Test func formatsShortestExactForm() {
        #expect(TokenAmount(baseUnits: 15_000_000_000).description == "1.5")
        #expect(TokenAmount(baseUnits: 1).description == "0.0000000001")
        #expect(TokenAmount(baseUnits: 420_000_000_000).description == "42")
        #expect(TokenAmount(baseUnits: UInt64.max).description == "1844674407.3709551615")
    }

    @Test func rejectsBadInputWithClearMessages() {
        #expect(throws: TokenAmountError.invalid("1.2.3")) { try TokenAmount(parsing: "1.2.3") }
        #expect(TokenAmountError.invalid("1.2.3").description.hasPrefix("invalid amount \"1.2.3\""))
        #expect(throws: TokenAmountError.tooManyDecimals("1.00000000001")) { try TokenAmount(parsing: "1.00000000001") }
        #expect(throws: TokenAmountError.negative("-1")) { try TokenAmount(parsing: "-1") }
        #expect(throws: TokenAmountError.overflow("1844674407.3709551616")) { try TokenAmount(parsing: "1844674407.3709551616") }
        #expect(throws: TokenAmountError.invalid("abc")) { try TokenAmount(parsing: "abc") }
        #expect(throws: TokenAmountError.invalid("")) { try TokenAmount(parsing: "") }
        #expect(throws: TokenAmountError.invalid("1e5")) { try TokenAmount(parsing: "1e5") }
    }

    @Test func usdUsesIntegerRate() {
        // 2.5 tokens at $0.10 (100,000 micro-dollars) per token.
        #expect(TokenAmount(baseUnits: 25_000_000_000).usdMicros(microDollarsPerToken: 100_000) == 250_000)
        #expect(TokenAmount(baseUnits: 25_000_000_000).usdString(microDollarsPerToken: 100_000) == "$0.25")
    }
}
