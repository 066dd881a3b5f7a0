/// UTC timestamps as text without a formatter object (days-to-civil arithmetic): what contract
/// messages quote, and how clients and the explorer print a ledger time.
public enum UTCTime {
    /// Seconds of 0000-01-01T00:00:00Z and 9999-12-31T23:59:59Z: outside, the value is named as
    /// "unix time N" (it comes from an argument, and the arithmetic below must not overflow).
    public static let range: ClosedRange<Int64> = -62_167_219_200...253_402_300_799

    /// "2026-11-30T05:00:00Z".
    /// - Parameter unixSeconds: seconds since 1970.
    public static func iso8601(_ unixSeconds: Int64) -> String {
        guard let (date, time) = parts(unixSeconds) else { return "unix time \(unixSeconds)" }
        return "\(date)T\(time)Z"
    }

    /// "2026-11-30 05:00:00", for tables and pages that say UTC once.
    /// - Parameter unixSeconds: seconds since 1970.
    public static func dateTime(_ unixSeconds: Int64) -> String {
        guard let (date, time) = parts(unixSeconds) else { return "unix time \(unixSeconds)" }
        return "\(date) \(time)"
    }

    /// "2026-11-30" and "05:00:00", or nil outside `range`.
    private static func parts(_ unixSeconds: Int64) -> (String, String)? {
        guard range.contains(unixSeconds) else { return nil }
        let days = unixSeconds >= 0 ? unixSeconds / 86_400 : (unixSeconds - 86_399) / 86_400
        let secs = unixSeconds - days * 86_400
        // Shift the epoch to 0000-03-01 so leap days fall at the end of each 400-year era.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return ("\(year)-\(two(month))-\(two(day))", "\(two(secs / 3600)):\(two(secs / 60 % 60)):\(two(secs % 60))")
    }
}
