import MosaicProtocol

/// The trending and hot scores in integer fixed point (docs/SOCIAL.md §4):
///
///     score = sign(r) · log10(max(|r| / 10^7, 1)) + created / T      (T = 480,000 s or 10,000 s)
///
/// held as `score × 10^7` in an Int64. `log10` is computed digit by digit with integer
/// arithmetic only (no floating point reaches consensus state), so every node gets the same bits.
enum SocialScore {
    /// 10^7: the fixed-point unit (7 decimal places).
    static let scale: Int64 = 10_000_000
    static let trendingSeconds: Int64 = 480_000
    static let hotSeconds: Int64 = 10_000

    static func trending(rshares: Int64, created: Int64) -> Int64 { score(rshares: rshares, created: created, period: trendingSeconds) }
    static func hot(rshares: Int64, created: Int64) -> Int64 { score(rshares: rshares, created: created, period: hotSeconds) }

    static func score(rshares: Int64, created: Int64, period: Int64) -> Int64 {
        let order = orderFixed(rshares.magnitude)
        let signed = rshares < 0 ? -order : order
        // created ≥ 0 on any real ledger; × 10^7 stays below 2^63 until the year 2^63/10^7 s ≈ 29,000.
        return signed + created * scale / period
    }

    /// `log10(max(m / 10^7, 1)) × 10^7`, truncated: 0 below 10^7 rshares.
    static func orderFixed(_ m: UInt64) -> Int64 {
        m < 10_000_000 ? 0 : log10Fixed(m) - 7 * scale
    }

    /// `log10(n) × 10^7` for n ≥ 1, truncated towards zero (0 for n = 0). The integer part is
    /// the number of digits − 1; each of the 7 decimals is the integer part of log10(x^10) for
    /// the mantissa x ∈ [1, 10), held in fixed point with 18 decimals and raised to the 10th
    /// power as ((x²)² · x)², renormalized into [1, 10) after every product.
    static func log10Fixed(_ n: UInt64) -> Int64 {
        guard n > 0 else { return 0 }
        var digits: Int64 = 0
        var power: UInt64 = 1
        while n / power >= 10 {
            power *= 10
            digits += 1
        }
        let one: UInt128 = 1_000_000_000_000_000_000
        let ten = one * 10
        var x = UInt128(n) * one / UInt128(power)
        var fraction: Int64 = 0
        for _ in 0..<7 {
            func mul(_ a: UInt128, _ b: UInt128, _ e: inout Int64) -> UInt128 {
                var p = a * b / one
                while p >= ten {
                    p /= 10
                    e += 1
                }
                return p
            }
            var ea: Int64 = 0
            var eb: Int64 = 0
            var ec: Int64 = 0
            var ed: Int64 = 0
            let a = mul(x, x, &ea)
            let b = mul(a, a, &eb)
            eb += 2 * ea
            let c = mul(b, x, &ec)
            ec += eb
            let d = mul(c, c, &ed)
            ed += 2 * ec
            fraction = fraction * 10 + ed
            x = d
        }
        return digits * scale + fraction
    }

    /// 16 lowercase hex digits that sort (as bytes) in descending score order.
    static func descendingKey(_ score: Int64) -> String {
        hex16(~(UInt64(bitPattern: score) ^ (1 << 63)))
    }

    /// 16 lowercase hex digits, zero-padded.
    static func hex16(_ v: UInt64) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8](repeating: 0x30, count: 16)
        var v = v
        for i in stride(from: 15, through: 0, by: -1) {
            out[i] = digits[Int(v & 15)]
            v >>= 4
        }
        return String(decoding: out, as: UTF8.self)
    }
}
