/// Durations typed on the command line: "0", "500ms", "1s", "2s", "30m", "1h", "7d".
/// A bare number means seconds. Integers only, so "1.5s" is written "1500ms".
enum DurationText {
    /// Milliseconds; nil when the text is not a duration.
    static func milliseconds(_ text: String) -> Int64? {
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

    /// A flag value as a Duration, or a usage error naming the flag and the accepted forms.
    static func parse(_ text: String, flag: String) throws -> Duration {
        guard let ms = milliseconds(text) else {
            throw CLIError.usage("--\(flag) \(text): give a duration such as 0, 500ms, 1s or 2s")
        }
        return .milliseconds(ms)
    }

    /// "1s", "500ms", "0" for printing.
    static func format(milliseconds ms: Int64) -> String {
        if ms == 0 { return "0" }
        if ms % 86_400_000 == 0 { return "\(ms / 86_400_000)d" }
        if ms % 3_600_000 == 0 { return "\(ms / 3_600_000)h" }
        if ms % 60_000 == 0 { return "\(ms / 60_000)m" }
        if ms % 1000 == 0 { return "\(ms / 1000)s" }
        return "\(ms)ms"
    }
}
