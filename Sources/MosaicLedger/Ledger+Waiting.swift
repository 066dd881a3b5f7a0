import Foundation
import MosaicProtocol
import Synchronization

extension Ledger {
    /// Waits until the transaction reaches `target` (or a later stage, or expires) and returns its
    /// status; after `timeout` returns the current status instead. Returns nil at once for an
    /// unknown hash. Never polls: block commits resume waiters directly.
    public func wait(for hash: String, until target: TransactionStatus, timeout: Duration) async -> TransactionStatus? {
        await withCheckedContinuation { (continuation: CheckedContinuation<TransactionStatus?, Never>) in
            let registered: (id: UInt64, immediate: TransactionStatus??) = state.withLock { s in
                guard s.store != nil, let current = try? statusLocked(s, hash) else { return (0, .some(nil)) }
                if current.status.satisfies(target) { return (0, .some(current.status)) }
                s.nextWaiterID += 1
                s.waiters[hash, default: []].append(
                    Waiter(
                        id: s.nextWaiterID, target: target, continuation: continuation,
                        timeout: nil, round: current.round))
                return (s.nextWaiterID, nil)
            }
            if let immediate = registered.immediate {
                continuation.resume(returning: immediate)
                return
            }
            let id = registered.id
            // Holds the ledger until the timeout at most, so a waiter is always resumed.
            let task = Task {
                try? await Task.sleep(for: timeout)
                self.timeOut(hash, id)
            }
            let stillWaiting: Bool = state.withLock { s in
                guard let i = s.waiters[hash]?.firstIndex(where: { $0.id == id }) else { return false }
                s.waiters[hash]?[i].timeout = task
                return true
            }
            if !stillWaiting { task.cancel() }
        }
    }

    private func timeOut(_ hash: String, _ id: UInt64) {
        let found: (Waiter, TransactionStatus?)? = state.withLock { s in
            guard var list = s.waiters[hash], let i = list.firstIndex(where: { $0.id == id }) else { return nil }
            let w = list.remove(at: i)
            s.waiters[hash] = list.isEmpty ? nil : list
            return (w, try? statusLocked(s, hash)?.status)
        }
        if let (w, status) = found { w.continuation.resume(returning: status) }
    }

    /// After a commit (this node's, or one a follower read from the store): note inclusion rounds
    /// (`includedRound` gives the round of a hash the new blocks included) and pick the waiters
    /// whose target is now reached.
    func collectWaiters(
        _ s: inout LedgerState, includedRound: (String) -> UInt64?, expired: Set<String>, into out: inout [(Waiter, TransactionStatus?)]
    ) {
        guard !s.waiters.isEmpty else { return }
        for hash in Array(s.waiters.keys) {
            guard var list = s.waiters[hash] else { continue }
            if let round = includedRound(hash) { for i in list.indices { list[i].round = round } }
            let status: TransactionStatus?
            if expired.contains(hash) {
                status = .expired
            } else if let r = list.first?.round {
                status = s.latest.round >= r && s.latest.round - r >= genesis.confirmations ? .sealed : .finalized
            } else {
                status = nil
            }
            guard let status else {
                s.waiters[hash] = list
                continue
            }
            var keep: [Waiter] = []
            for w in list {
                if status.satisfies(w.target) { out.append((w, status)) } else { keep.append(w) }
            }
            s.waiters[hash] = keep.isEmpty ? nil : keep
        }
    }

    /// Status and inclusion round of a hash; nil when unknown. Holding `state`.
    func statusLocked(_ s: LedgerState, _ hash: String) throws(LedgerError) -> (status: TransactionStatus, round: UInt64?)? {
        guard let store = s.store else { throw .closed }
        if s.pool.contains(hash) { return (.pending, nil) }
        do {
            if let r = try store.round(of: hash) {
                return (s.latest.round >= r && s.latest.round - r >= genesis.confirmations ? .sealed : .finalized, r)
            }
            if try store.expired(hash) != nil { return (.expired, nil) }
        } catch {
            throw .store(error, "reading the transaction")
        }
        return nil
    }
}
