import MosaicProtocol

/// Display helpers over `TokenAmount`: integer arithmetic only.
extension TokenAmount {
    /// "1.5 MSC".
    public func formatted(symbol: String) -> String { "\(self) \(symbol)" }

    /// USD value as a decimal string rounded down to cents, e.g. "0.15" (no "$").
    public func usdDecimal(microDollarsPerToken rate: UInt64) -> String {
        guard let micros = usdMicros(microDollarsPerToken: rate) else { return "overflow" }
        let cents = micros / 10_000
        let c = cents % 100
        return "\(cents / 100).\(c < 10 ? "0" : "")\(c)"
    }

    /// Parses a token string, reporting problems as `WalletError.invalidAmount`.
    public static func parse(_ text: String) throws(WalletError) -> TokenAmount {
        do { return try TokenAmount(parsing: text) } catch { throw .invalidAmount(error.description) }
    }
}
