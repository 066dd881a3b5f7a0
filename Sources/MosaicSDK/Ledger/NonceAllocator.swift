/// Hands out the nonces of one sender so that concurrent sends never collide.
///
/// Nonces come from `max(next_nonce from the node, local counter)`; a nonce whose submission was
/// refused (so the node never took it) is handed out again first, so no gap stalls later ones.
/// At most `window` submissions are in flight at once: the node only lets a nonce wait up to
/// `max_nonce_ahead` beyond its next one, so further sends wait here for earlier submissions to be
/// taken instead of failing with `nonce_too_far_ahead`.
actor NonceAllocator {
    private var counter: UInt64 = 0
    private var released: Set<UInt64> = []
    private var floor: UInt64 = 0
    private var inFlight = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var window: Int

    init(window: Int) { self.window = max(1, window) }

    func setWindow(_ w: Int) { window = max(1, w) }

    /// Waits for a free slot, then reserves the next nonce. `next` fetches the node's next nonce
    /// when the allocator has none yet (or after `resync`).
    func reserve(next: @Sendable () async throws -> UInt64) async throws -> UInt64 {
        if inFlight >= window {
            await withCheckedContinuation { waiting.append($0) }
        } else {
            inFlight += 1
        }
        if counter == 0 {
            do {
                let n = try await next()
                counter = max(counter, n)
                floor = max(floor, n)
            } catch {
                releaseSlot()
                throw error
            }
        }
        if let reuse = released.filter({ $0 >= floor }).min() {
            released.remove(reuse)
            return reuse
        }
        let n = counter
        counter += 1
        return n
    }

    /// The submission of `nonce` finished. `taken`: the node holds it (accepted or used);
    /// otherwise it is free again and is handed out before any new one.
    func finish(_ nonce: UInt64, taken: Bool) {
        if !taken && nonce < counter { released.insert(nonce) }
        releaseSlot()
    }

    /// A transaction of this sender expired: the node never used its nonce, and will never take
    /// those signed bytes again, so the nonce is handed out again first. Without this the next
    /// send would wait behind the gap (and, on an old node, let the expired bytes be replayed
    /// into it: a double payment).
    func expired(_ nonce: UInt64) {
        if nonce < counter, nonce >= floor { released.insert(nonce) }
    }

    /// The node said a nonce was stale (another client used this key): forget local state and
    /// fetch the node's next nonce at the next reservation.
    func resync(nodeNext: UInt64) {
        counter = max(counter, nodeNext)
        floor = max(floor, nodeNext)
        released = released.filter { $0 >= nodeNext }
    }

    private func releaseSlot() {
        if waiting.isEmpty {
            inFlight -= 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
