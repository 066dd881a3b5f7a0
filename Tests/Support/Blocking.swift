import Foundation

/// Runs `body` on a thread of its own and awaits it. Tests that wait on child processes must not
/// block Swift's cooperative pool: it has one thread per core (two here), and a few tests blocked
/// in `waitUntilExit` starve every other test of the run until their time limits expire.
public func blocking<T>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    let box: Unchecked<Result<T, any Error>> = try await withCheckedThrowingContinuation { cont in
        Thread.detachNewThread {
            cont.resume(returning: Unchecked(Result { try body() }))
        }
    }
    return try box.value.get()
}

/// A value handed from the helper thread to the awaiting task exactly once.
struct Unchecked<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
