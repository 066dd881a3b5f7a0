import Foundation

/// The block timer: a dedicated thread (so block production never blocks Swift's cooperative
/// pool) that sleeps on a condition until the next tick, or, with interval 0, until a
/// submission signals it. No polling: an idle ledger makes no blocks and uses no CPU.
final class BlockProducer: @unchecked Sendable {
    // `running`, `signaled`, `woken` and `thread` are guarded by `condition`.
    private let condition = NSCondition()
    private var running = false
    private var signaled = false
    /// A tick asked for now, in either mode (`wake`): another node committed a block.
    private var woken = false
    private var thread: Thread?
    private let finished = DispatchSemaphore(value: 0)

    /// Starts the loop; `tick(immediate)` is called each interval, or after each signal when the
    /// interval is zero. Returns false when already running.
    func start(interval: Duration, tick: @escaping @Sendable (_ immediate: Bool) -> Void) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !running else { return false }
        running = true
        signaled = false
        let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
        let t = Thread { [self] in
            run(seconds: seconds, tick: tick)
            finished.signal()
        }
        t.name = "mosaic-block-producer"
        thread = t
        t.start()
        return true
    }

    private func run(seconds: Double, tick: @Sendable (Bool) -> Void) {
        var deadline = Date().addingTimeInterval(seconds)
        while true {
            condition.lock()
            if seconds <= 0 {
                while running && !signaled && !woken { condition.wait() }
            } else {
                while running && !woken && Date() < deadline { _ = condition.wait(until: deadline) }
            }
            let keepGoing = running
            // A wake before the deadline is an extra tick: the schedule stays as it was.
            let early = woken && seconds > 0 && Date() < deadline
            signaled = false
            woken = false
            condition.unlock()
            guard keepGoing else { return }
            tick(seconds <= 0)
            if seconds > 0, !early {
                deadline = deadline.addingTimeInterval(seconds)
                if deadline < Date() { deadline = Date().addingTimeInterval(seconds) }
            }
        }
    }

    /// Wakes an immediate-mode producer (new transactions arrived).
    func notify() {
        condition.lock()
        signaled = true
        condition.signal()
        condition.unlock()
    }

    /// Ticks now, in either mode, without moving the interval's schedule.
    func wake() {
        condition.lock()
        woken = true
        condition.signal()
        condition.unlock()
    }

    /// Stops the loop and waits for the thread to finish its current block (unless called from
    /// that thread itself, e.g. when the ledger's last reference is dropped during a tick).
    func stop() {
        condition.lock()
        let wasRunning = running
        let onProducerThread = thread.map { $0 === Thread.current } ?? false
        running = false
        thread = nil
        condition.broadcast()
        condition.unlock()
        if wasRunning && !onProducerThread { finished.wait() }
    }
}
