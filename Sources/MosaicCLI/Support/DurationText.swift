import MosaicSDK

/// Durations typed on the command line: "0", "500ms", "1s", "2s", "30m", "1h", "7d".
/// A bare number means seconds. Integers only, so "1.5s" is written "1500ms".
enum DurationText {
    /// Milliseconds; nil when the text is not a duration.
    static func milliseconds(_ text: String) -> Int64? { Quantity.milliseconds(text) }

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
