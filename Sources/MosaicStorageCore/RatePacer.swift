/// Holds a transfer to a rate on average: after `bytes` of it, waits until they are due. A user on
/// a shared link asks for this (`mosaic upload --limit-rate 2MiB/s`); the pipeline then simply
/// waits between batches, and nothing else about the transfer changes.
package struct RatePacer: Sendable {
    package let bytesPerSecond: Int64
    private let start = ContinuousClock.now

    /// - Parameter bytesPerSecond: at least 1.
    package init(bytesPerSecond: Int64) {
        self.bytesPerSecond = max(1, bytesPerSecond)
    }

    /// Waits until `bytes` since the start are due at the rate (at once when they already are).
    package func pace(_ bytes: Int64) async {
        let due = start + .nanoseconds(Int64((Double(bytes) / Double(bytesPerSecond) * 1e9).rounded(.up)))
        if due > .now { try? await Task.sleep(until: due, clock: .continuous) }
    }
}
