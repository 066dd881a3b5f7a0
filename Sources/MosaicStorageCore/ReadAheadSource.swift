import Synchronization

/// A fragment source that asks for the next batch as soon as the current one has arrived, so a
/// blobber reads and sends batch N+1 while the client verifies and decodes batch N.
///
/// Without it each source sat idle from the end of its answer until every other source had
/// answered too and the decoder asked again: a download kept the two cores busy only 65–85 % of
/// the time. Requests to one source still go one after the other (the next leaves only once the
/// current one is answered), so a network source's read markers keep their order.
package final class ReadAheadSource: FragmentSource {
    private struct Ahead {
        let range: Range<Int>
        let task: Task<[FragmentBlock], any Error>
    }

    private let source: any FragmentSource
    /// The first block index past what the download wants: nothing at or beyond it is read ahead.
    private let limit: Int
    private let ahead = Mutex<Ahead?>(nil)

    package init(_ source: any FragmentSource, limit: Int) {
        self.source = source
        self.limit = limit
    }

    package func blocks(_ range: Range<Int>) async throws -> [FragmentBlock] {
        let source = self.source
        let current: Task<[FragmentBlock], any Error> = ahead.withLock { a in
            defer { a = nil }
            if let a, a.range == range { return a.task }
            a?.task.cancel()
            return Task { try await source.blocks(range) }
        }
        let next = range.upperBound..<min(limit, range.upperBound + range.count)
        if !next.isEmpty {
            let task = Task<[FragmentBlock], any Error> {
                _ = try? await current.value
                try Task.checkCancellation()
                return try await source.blocks(next)
            }
            ahead.withLock { $0 = Ahead(range: next, task: task) }
        }
        return try await withTaskCancellationHandler {
            try await current.value
        } onCancel: {
            // The decoder gave this source up (slow): stop its request and the one queued behind it.
            current.cancel()
            self.stop()
        }
    }

    /// Cancels the read-ahead, if any (the download is over or went elsewhere).
    package func stop() {
        ahead.withLock { a in
            a?.task.cancel()
            a = nil
        }
    }
}
