import Testing

@testable import MosaicStorageCore

@Suite struct RatePacerTests {
    /// The pacer never lets bytes through before they are due: four MiBs at 10 MiB/s, the last
    /// reserved no sooner than 0.3 s in, also when two transfers share the pacer.
    @Test func bytesWaitUntilTheyAreDue() async {
        let pacer = RatePacer(bytesPerSecond: 10 << 20)
        let clock = ContinuousClock()
        var start = clock.now
        for _ in 0..<4 { await pacer.take(1 << 20) }
        #expect(clock.now - start >= .milliseconds(295))
        // Two transfers at once share the budget: eight MiBs, 0.7 s at least.
        try? await Task.sleep(for: .milliseconds(150))
        start = clock.now
        async let a: Void = { for _ in 0..<4 { await pacer.take(1 << 20) } }()
        async let b: Void = { for _ in 0..<4 { await pacer.take(1 << 20) } }()
        _ = await (a, b)
        #expect(clock.now - start >= .milliseconds(695))
    }

    /// Time spent idle earns no burst: after a pause the next MiB waits no longer than its own
    /// share requires of the one before, and the first after the pause goes at once.
    @Test func idleTimeEarnsNoBurst() async {
        let pacer = RatePacer(bytesPerSecond: 10 << 20)
        await pacer.take(1 << 20)
        try? await Task.sleep(for: .milliseconds(400))
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<3 { await pacer.take(1 << 20) }
        #expect(clock.now - start >= .milliseconds(195))
    }
}
