import MosaicProtocol

/// Display helpers over `TokenAmount`: integer arithmetic only.
extension TokenAmount {
    /// "1.5 MSC".
    /// - Parameter symbol: the network's token symbol.
    public func formatted(symbol: String) -> String { "\(self) \(symbol)" }

    /// USD value as a decimal string rounded to the nearest cent (half up), e.g. "0.15" (no "$"):
    /// $0.0199 shows as 0.02, not as a cut-off 0.01.
    /// - Parameter rate: the network's USD rate, micro-dollars per whole token.
    /// - Returns: the value, or "overflow" when it does not fit in 64 bits.
    public func usdDecimal(microDollarsPerToken rate: UInt64) -> String {
        guard let micros = usdMicros(microDollarsPerToken: rate) else { return "overflow" }
        let (half, over) = micros.addingReportingOverflow(5_000)
        let cents = (over ? micros : half) / 10_000
        let c = cents % 100
        return "\(cents / 100).\(c < 10 ? "0" : "")\(c)"
    }

    /// Parses a token string, reporting problems as `WalletError.invalidAmount`.
    /// - Parameter text: what the user typed, e.g. "1.5".
    /// - Returns: the amount.
    /// - Throws: `WalletError.invalidAmount` quoting what is wrong.
    public static func parse(_ text: String) throws(WalletError) -> TokenAmount {
        do { return try TokenAmount(parsing: text) } catch { throw .invalidAmount(error.description) }
    }
}
