/// One step sent to several blobbers (sinks, connections) at once.
package enum Fanout {
    /// Runs `body` on every item concurrently and waits for all of them.
    /// - Parameters:
    ///   - items: each item with the index it is reported under (a fragment or blobber index).
    ///   - body: the step for one item.
    /// - Returns: the indices whose step threw, each with its error; empty when every step succeeded.
    package static func failures<Item: Sendable>(
        _ items: [(index: Int, item: Item)], _ body: @escaping @Sendable (Item) async throws -> Void
    ) async -> [Int: any Error] {
        await withTaskGroup(of: (Int, (any Error)?).self) { group in
            for (index, item) in items {
                group.addTask {
                    do {
                        try await body(item)
                        return (index, nil)
                    } catch { return (index, error) }
                }
            }
            var out: [Int: any Error] = [:]
            for await (index, error) in group { if let error { out[index] = error } }
            return out
        }
    }
}
