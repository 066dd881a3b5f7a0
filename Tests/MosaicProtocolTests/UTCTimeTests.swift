import Foundation
import MosaicProtocol
import Testing

@Suite struct UTCTimeTests {
    /// What the CLI's tables and the explorer printed with a DateFormatter, now without one.
    @Test func dateTimeAndISO8601MatchFoundationsFormatters() {
        let plain = DateFormatter()
        plain.locale = Locale(identifier: "en_US_POSIX")
        plain.timeZone = TimeZone(identifier: "UTC")
        plain.dateFormat = "yyyy-MM-dd HH:mm:ss"
        let iso = ISO8601DateFormatter()
        for t: Int64 in [0, 59, 86_399, 951_782_400, 1_700_000_000, 1_900_003_600, 4_102_444_799, 253_402_300_799] {
            let date = Date(timeIntervalSince1970: TimeInterval(t))
            #expect(UTCTime.dateTime(t) == plain.string(from: date))
            #expect(UTCTime.iso8601(t) == iso.string(from: date))
        }
        #expect(UTCTime.dateTime(1_900_003_600) == "2030-03-17 18:46:40")
    }

    @Test func timesOutsideTheCalendarAreNamedAsUnixTime() {
        #expect(UTCTime.dateTime(.max) == "unix time \(Int64.max)")
        #expect(UTCTime.iso8601(UTCTime.range.lowerBound - 1) == "unix time \(UTCTime.range.lowerBound - 1)")
    }
}
