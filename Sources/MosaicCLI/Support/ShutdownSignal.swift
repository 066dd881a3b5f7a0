import Dispatch
import Foundation

/// Waits for Ctrl-C or SIGTERM so long-running commands (node, app, devnet) can stop cleanly.
enum ShutdownSignal {
    static func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let once = OnceFlag()
            var sources: [DispatchSourceSignal] = []
            for sig in [SIGINT, SIGTERM] {
                signal(sig, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: sig, queue: .main)
                source.setEventHandler {
                    if once.claim() { continuation.resume() }
                }
                source.resume()
                sources.append(source)
            }
            Retained.sources = sources
        }
    }

    /// Keeps the signal sources alive for the life of the process.
    private enum Retained {
        nonisolated(unsafe) static var sources: [DispatchSourceSignal] = []
    }
}

/// A flag that can be claimed once, from any thread.
final class OnceFlag: @unchecked Sendable {
    // Guarded by `lock`.
    private var claimed = false
    private let lock = NSLock()

    func claim() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if claimed { return false }
        claimed = true
        return true
    }
}
