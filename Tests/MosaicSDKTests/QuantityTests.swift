import Testing

@testable import MosaicSDK

/// Sizes read the same in the CLI, on the server's share pages and in the web app (format.js
/// fmtBytes follows this rule; Tests/browser/test_journeys.py pins the same table).
@Suite struct QuantityTests {
    static let sizes: [(UInt64, String)] = [
        (0, "0 B"), (1023, "1023 B"), (1024, "1 KiB"), (1056, "1 KiB"), (1126, "1 KiB"), (1127, "1.1 KiB"), (1536, "1.5 KiB"),
        (1_048_575, "1023.9 KiB"), (1 << 20, "1 MiB"), (64 << 20, "64 MiB"), (1 << 30, "1 GiB"), ((1 << 30) * 3 / 2, "1.5 GiB"),
        (1 << 40, "1 TiB"), (1 << 50, "1 PiB"), (1 << 60, "1024 PiB"),
    ]

    @Test func formatBytesCutsToOneDecimalInBinaryUnits() {
        for (n, text) in Self.sizes { #expect(Quantity.formatBytes(n) == text, "\(n)") }
    }

    @Test func bytesParsesWhatPeopleType() {
        #expect(Quantity.bytes("1GiB") == 1 << 30)
        #expect(Quantity.bytes("500MiB") == 500 << 20)
        #expect(Quantity.bytes("64KiB") == 64 << 10)
        #expect(Quantity.bytes("1024") == 1024)
        #expect(Quantity.bytes("lots") == nil)
        #expect(Quantity.bytes("99999999999TiB") == nil)
    }
}
