import MosaicProtocol

/// Display helpers over `TokenAmount`: integer arithmetic only.
extension TokenAmount {
    /// "1.5 MSC".
    public func formatted(symbol: String) -> String { "\(self) \(symbol)" }

    /// USD value as a decimal string rounded to the nearest cent (half up), e.g. "0.15" (no "$"):
    /// $0.0199 shows as 0.02, not as a cut-off 0.01.
    public func usdDecimal(microDollarsPerToken rate: UInt64) -> String {
        guard let micros = usdMicros(microDollarsPerToken: rate) else { return "overflow" }
        let (half, over) = micros.addingReportingOverflow(5_000)
        let cents = (over ? micros : half) / 10_000
        let c = cents % 100
        return "\(cents / 100).\(c < 10 ? "0" : "")\(c)"
    }

    /// Parses a token string, reporting problems as `WalletError.invalidAmount`.
    public static func parse(_ text: String) throws(WalletError) -> TokenAmount {
        do { return try TokenAmount(parsing: text) } catch { throw .invalidAmount(error.description) }
    }
}
