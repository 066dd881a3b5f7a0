/// Commits from this process to one blobber of one allocation go one at a time, so each signs its
/// write marker over the root the previous one left. Racing uploads (the web app runs three at
/// once, each with its own `StorageClient`) otherwise sign over the same root and the later ones
/// are refused; another process's writes are still caught by the stale-root retry in `commit`.
/// The web app keeps one of its own for the folder batches it spools (one per folder at a time).
package final class CommitQueue: Sendable {
    static let shared = CommitQueue()
    private let gate = Gate()

    package init() {}

    package func serially<T>(_ key: String, _ body: () async throws -> T) async throws -> T {
        await gate.acquire(key)
        do {
            let result = try await body()
            await gate.release(key)
            return result
        } catch {
            await gate.release(key)
            throw error
        }
    }

    private actor Gate {
        private var busy: Set<String> = []
        private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]

        func acquire(_ key: String) async {
            guard busy.contains(key) else {
                busy.insert(key)
                return
            }
            await withCheckedContinuation { waiting[key, default: []].append($0) }
        }

        /// Hands the key to the next waiter, if any (it stays busy), or frees it.
        func release(_ key: String) {
            guard var queue = waiting[key], !queue.isEmpty else {
                busy.remove(key)
                return
            }
            let next = queue.removeFirst()
            waiting[key] = queue.isEmpty ? nil : queue
            next.resume()
        }
    }
}
