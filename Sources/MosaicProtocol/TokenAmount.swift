/// An amount of tokens in integer base units (1 token = 10^10 units). Parsing and formatting are
/// exact decimal string work: no floating point anywhere.
public struct TokenAmount: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public static let decimals = 10
    public static let unitsPerToken: UInt64 = 10_000_000_000

    public var baseUnits: UInt64

    public init(baseUnits: UInt64) { self.baseUnits = baseUnits }

    /// Whole tokens; nil when the result does not fit in 64 bits.
    public init?(tokens: UInt64) {
        let (v, overflow) = tokens.multipliedReportingOverflow(by: TokenAmount.unitsPerToken)
        guard !overflow else { return nil }
        baseUnits = v
    }

    /// Parses a decimal token string such as "1.5", "0.0000000001" or "42".
    public init(parsing text: String) throws(TokenAmountError) {
        let s = text.trimmingSpaces()
        guard !s.isEmpty else { throw .invalid(text) }
        if s.hasPrefix("-") { throw .negative(text) }
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { throw .invalid(text) }
        let whole = parts[0]
        let fraction = parts.count == 2 ? parts[1] : ""
        guard !(whole.isEmpty && fraction.isEmpty),
            whole.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
            fraction.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 })
        else { throw .invalid(text) }
        guard fraction.utf8.count <= TokenAmount.decimals else { throw .tooManyDecimals(text) }
        var units: UInt64 = 0
        for c in whole.utf8 {
            let (m, o1) = units.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(UInt64(c - 48))
            guard !o1, !o2 else { throw .overflow(text) }
            units = a
        }
        let (scaled, o3) = units.multipliedReportingOverflow(by: TokenAmount.unitsPerToken)
        guard !o3 else { throw .overflow(text) }
        var frac: UInt64 = 0
        for c in fraction.utf8 { frac = frac * 10 + UInt64(c - 48) }
        for _ in fraction.utf8.count..<TokenAmount.decimals { frac *= 10 }
        let (total, o4) = scaled.addingReportingOverflow(frac)
        guard !o4 else { throw .overflow(text) }
        baseUnits = total
    }

    /// "1.5", "42", "0.0000000001": the shortest exact decimal form.
    public var description: String {
        let whole = baseUnits / TokenAmount.unitsPerToken
        let frac = baseUnits % TokenAmount.unitsPerToken
        guard frac != 0 else { return String(whole) }
        var digits = String(frac)
        digits = String(repeating: "0", count: TokenAmount.decimals - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits)"
    }

    /// Value in micro-dollars at `microDollarsPerToken`, rounded down; nil when it overflows.
    public func usdMicros(microDollarsPerToken rate: UInt64) -> UInt64? {
        let product = baseUnits.multipliedFullWidth(by: rate)
        guard product.high < TokenAmount.unitsPerToken else { return nil }
        return TokenAmount.unitsPerToken.dividingFullWidth(product).quotient
    }

    /// "$12.34" (rounded down to cents) at `microDollarsPerToken`.
    public func usdString(microDollarsPerToken rate: UInt64) -> String {
        guard let micros = usdMicros(microDollarsPerToken: rate) else { return "$∞" }
        let cents = micros / 10_000
        let c = cents % 100
        return "$\(cents / 100).\(c < 10 ? "0" : "")\(c)"
    }

    public static func < (a: TokenAmount, b: TokenAmount) -> Bool { a.baseUnits < b.baseUnits }

    public init(from decoder: any Decoder) throws {
        baseUnits = try decoder.singleValueContainer().decode(UInt64.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(baseUnits)
    }
}

extension String {
    func trimmingSpaces() -> Substring {
        var s = Substring(self)
        while s.first == " " || s.first == "\t" { s.removeFirst() }
        while s.last == " " || s.last == "\t" { s.removeLast() }
        return s
    }
}
