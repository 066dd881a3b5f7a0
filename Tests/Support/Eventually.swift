/// Asks `condition` every `interval` until it gives a value; nil after `bound` (a bound on hangs,
/// not a speed target). An error `condition` throws ends the wait.
package func eventually<T>(
    within bound: Duration = .seconds(90), every interval: Duration = .milliseconds(50), _ condition: () throws -> T?
) async throws -> T? {
    let deadline = ContinuousClock.now + bound
    while ContinuousClock.now < deadline {
        if let value = try condition() { return value }
        try await Task.sleep(for: interval)
    }
    return nil
}

/// Asks `condition` every `interval` until it holds; false after `bound`.
package func eventually(
    within bound: Duration = .seconds(90), every interval: Duration = .milliseconds(50), _ condition: () throws -> Bool
) async throws -> Bool {
    try await eventually(within: bound, every: interval) { try condition() ? true : nil } ?? false
}
