import Foundation

/// Sizes and durations as people type them ("1GiB", "500MiB", "30d", "500ms"), parsed with
/// integers only so no rounding ever changes a size, a price or a deadline.
public enum Quantity {
    /// Bytes from "1024", "64KiB", "10MiB", "1GiB", "2TiB" (KB/MB/GB/TB are powers of 1000;
    /// K/M/G/T binary); nil when the text is not a size or overflows.
    /// - Parameter text: the size as typed.
    public static func bytes(_ text: String) -> UInt64? {
        let s = text.trimmingCharacters(in: .whitespaces)
        let units: [(String, UInt64)] = [
            ("KiB", 1 << 10), ("MiB", 1 << 20), ("GiB", 1 << 30), ("TiB", 1 << 40),
            ("KB", 1_000), ("MB", 1_000_000), ("GB", 1_000_000_000), ("TB", 1_000_000_000_000),
            ("K", 1 << 10), ("M", 1 << 20), ("G", 1 << 30), ("T", 1 << 40), ("B", 1),
        ]
        var digits = Substring(s)
        var scale: UInt64 = 1
        for (suffix, factor) in units where s.uppercased().hasSuffix(suffix.uppercased()) {
            digits = s.dropLast(suffix.count)
            scale = factor
            break
        }
        digits = Substring(digits.trimmingCharacters(in: .whitespaces))
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let n = UInt64(digits) else { return nil }
        let (v, overflow) = n.multipliedReportingOverflow(by: scale)
        return overflow ? nil : v
    }

    /// "1.5 GiB"-style text for people (integer arithmetic, one decimal).
    /// - Parameter n: a byte count.
    public static func formatBytes(_ n: UInt64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"]
        var unit = 0
        var scale: UInt64 = 1
        while unit < units.count - 1, n >= scale * 1024 {
            scale *= 1024
            unit += 1
        }
        if unit == 0 { return "\(n) B" }
        let tenths = (n % scale) * 10 / scale
        return "\(n / scale)\(tenths > 0 ? ".\(tenths)" : "") \(units[unit])"
    }

    /// Milliseconds from "0", "500ms", "1s", "30m", "1h", "7d", "2w"; a bare number is seconds.
    /// - Parameter text: the duration as typed.
    /// - Returns: milliseconds, or nil when the text is not a duration or overflows.
    public static func milliseconds(_ text: String) -> Int64? {
        let s = text.trimmingCharacters(in: .whitespaces).lowercased()
        let units: [(String, Int64)] = [("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000), ("d", 86_400_000), ("w", 604_800_000)]
        var digits = Substring(s)
        var scale: Int64 = 1000
        for (suffix, factor) in units where s.hasSuffix(suffix) {
            let rest = s.dropLast(suffix.count)
            // "ms" must not be read as "m" + "s".
            if suffix == "s", rest.hasSuffix("m") { continue }
            digits = rest
            scale = factor
            break
        }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int64(digits) else { return nil }
        let (v, overflow) = n.multipliedReportingOverflow(by: scale)
        return overflow ? nil : v
    }
}
