import Testing

@testable import MosaicStorageCore

@Suite struct RatePacerTests {
    /// The pacer never lets bytes through before they are due: 3 MiB at 10 MiB/s take at least 0.3 s.
    @Test func bytesWaitUntilTheyAreDue() async {
        let pacer = RatePacer(bytesPerSecond: 10 << 20)
        let clock = ContinuousClock()
        let start = clock.now
        for mib in 0...3 { await pacer.pace(Int64(mib) << 20) }
        #expect(clock.now - start >= .milliseconds(295))
        // Bytes already due do not wait.
        let later = clock.now
        await pacer.pace(1 << 20)
        #expect(clock.now - later < .milliseconds(100))
    }
}
