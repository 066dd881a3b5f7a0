import Foundation
import MosaicPostgres
import Synchronization

/// Hears the blocks other nodes commit to a shared PostgreSQL database (`LISTEN mosaic_blocks`;
/// `PostgresLedgerStore.insert(block:)` sends the `NOTIFY` inside the block's transaction, so it
/// arrives only once the block is committed). A follower then catches up at once instead of at
/// its next tick, so a long poll on any node ends about when the block is made (issue 14 §2).
/// Its own thread and connection: waiting for a notification never holds the ledger's lock.
final class BlockListener: Sendable {
    static let channel = "mosaic_blocks"

    private let running = Atomic<Bool>(true)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts listening on `url`; `heard` runs on the listener's thread after each notification.
    /// A lost connection is made again after a second (the block timer's ticks cover the gap).
    init(url: String, heard: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in
            var connection: PostgresConnection?
            while self.running.load(ordering: .acquiring) {
                do {
                    if connection == nil {
                        let c = try PostgresConnection(url: url)
                        try c.execute("LISTEN \(BlockListener.channel)")
                        connection = c
                    }
                    if let c = connection, try !c.notifications(timeout: 200).isEmpty { heard() }
                } catch {
                    connection?.close()
                    connection = nil
                    for _ in 0..<10 where self.running.load(ordering: .acquiring) { usleep(100_000) }
                }
            }
            connection?.close()
            self.finished.signal()
        }
        thread.name = "mosaic-block-listener"
        thread.start()
    }

    /// Stops listening and waits for the thread to close its connection.
    func stop() {
        guard running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        finished.wait()
    }
}
