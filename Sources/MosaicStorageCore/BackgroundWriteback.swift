import Foundation
import Synchronization

/// Starts writing a file that is being written to disk in the background, every `step` bytes, so
/// the fsync that ends it (before a rename makes it visible) waits for the tail only. Durability
/// is unchanged: the owner still fsyncs at the end. The flush runs `fdatasync` on a `dup` of the
/// descriptor, so the owner closing its own meanwhile cannot hand the number to another file.
package final class BackgroundWriteback: Sendable {
    private struct State {
        var running = false
        var started: Int64 = 0
    }

    private let step: Int64
    private let state = Mutex(State())
    /// One queue for every file: writeback is bounded by the disk, not by parallelism.
    private static let queue = DispatchQueue(label: "mosaic.writeback", qos: .utility)

    package init(step: Int64 = 8 << 20) {
        self.step = step
    }

    /// Call after writes: starts a flush of `fd` when `length` bytes are `step` past the last start
    /// and none is running.
    package func wrote(_ length: Int64, fd: Int32) {
        let due = state.withLock { s -> Bool in
            guard !s.running, length - s.started >= step else { return false }
            s.running = true
            s.started = length
            return true
        }
        guard due else { return }
        let copy = dup(fd)
        guard copy >= 0 else {
            state.withLock { $0.running = false }
            return  // no descriptor to spare: the final fsync does all the work
        }
        Self.queue.async { [self] in
            _ = fdatasync(copy)
            close(copy)
            state.withLock { $0.running = false }
        }
    }
}
