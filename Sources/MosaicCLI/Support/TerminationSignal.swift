import Dispatch
import Foundation
import Synchronization

/// Waits for SIGINT or SIGTERM through DispatchSource handlers (not C signal handlers, which may
/// call almost nothing), so long-running commands can stop their servers cleanly.
final class TerminationSignal: Sendable {
    private let state = Mutex<(sources: [any DispatchSourceSignal], continuation: CheckedContinuation<Int32, Never>?, received: Int32?)>(
        ([], nil, nil))

    /// Installs the handlers now, before anything starts, so an early Ctrl-C is not lost.
    init() {
        var sources: [any DispatchSourceSignal] = []
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { [weak self] in self?.fire(sig) }
            source.resume()
            sources.append(source)
        }
        state.withLock { $0.sources = sources }
    }

    private func fire(_ sig: Int32) {
        let waiting: CheckedContinuation<Int32, Never>? = state.withLock { s in
            if s.received == nil { s.received = sig }
            let c = s.continuation
            s.continuation = nil
            return c
        }
        waiting?.resume(returning: sig)
    }

    /// Returns the signal number once SIGINT or SIGTERM arrives.
    func wait() async -> Int32 {
        await withCheckedContinuation { (c: CheckedContinuation<Int32, Never>) in
            let already: Int32? = state.withLock { s in
                if let r = s.received { return r }
                s.continuation = c
                return nil
            }
            if let already { c.resume(returning: already) }
        }
    }

    /// Puts the default actions back (a second Ctrl-C then kills at once).
    func restoreDefaults() {
        state.withLock { s in
            for source in s.sources { source.cancel() }
            s.sources = []
        }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }

    /// What a server command does when it is told to stop: waits for the signal, puts the
    /// defaults back, says on standard error that `what` is stopping, runs `stop`, then prints
    /// `stopped()`.
    func serve(_ what: String, stop: () async -> Void, stopped: () -> String) async -> CommandOutput {
        let sig = await wait()
        restoreDefaults()
        Console.err("received \(TerminationSignal.name(sig)), stopping the \(what)…\n")
        await stop()
        Console.err(stopped() + "\n")
        return .printed
    }

    static func name(_ sig: Int32) -> String { sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "signal \(sig)" }
}
