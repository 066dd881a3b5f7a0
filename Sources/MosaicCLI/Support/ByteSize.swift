/// Sizes typed on the command line: "1024", "64KiB", "10MiB", "1GiB", "2TiB" (also KB/MB/GB as
/// powers of 1000, and K/M/G/T as binary). Integers only.
enum ByteSize {
    static func bytes(_ text: String) -> UInt64? {
        let s = text.trimmingCharacters(in: .whitespaces)
        let units: [(String, UInt64)] = [("KiB", 1 << 10), ("MiB", 1 << 20), ("GiB", 1 << 30), ("TiB", 1 << 40),
                                         ("KB", 1_000), ("MB", 1_000_000), ("GB", 1_000_000_000), ("TB", 1_000_000_000_000),
                                         ("K", 1 << 10), ("M", 1 << 20), ("G", 1 << 30), ("T", 1 << 40), ("B", 1)]
        var digits = Substring(s)
        var scale: UInt64 = 1
        for (suffix, factor) in units where s.uppercased().hasSuffix(suffix.uppercased()) {
            digits = s.dropLast(suffix.count)
            scale = factor
            break
        }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let n = UInt64(digits) else { return nil }
        let (v, overflow) = n.multipliedReportingOverflow(by: scale)
        return overflow ? nil : v
    }

    static func parse(_ text: String, flag: String) throws -> UInt64 {
        guard let v = bytes(text) else { throw CLIError.usage("--\(flag) \(text): give a size such as 1048576, 64KiB, 10MiB or 1GiB") }
        return v
    }

    /// "1.5 GiB"-style text for people (integer arithmetic, one decimal).
    static func format(_ n: UInt64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"]
        var unit = 0
        var scale: UInt64 = 1
        while unit < units.count - 1, n >= scale * 1024 { scale *= 1024; unit += 1 }
        if unit == 0 { return "\(n) B" }
        let tenths = (n % scale) * 10 / scale
        return "\(n / scale)\(tenths > 0 ? ".\(tenths)" : "") \(units[unit])"
    }
}
