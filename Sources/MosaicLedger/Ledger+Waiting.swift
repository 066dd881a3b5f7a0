import Foundation
import MosaicProtocol

extension Ledger {
    /// Waits until the transaction reaches `target` (or a later stage, or expires) and returns its
    /// status; after `timeout` returns the current status instead. Returns nil at once for an
    /// unknown hash. Never polls: block commits resume waiters directly.
    public func wait(for hash: String, until target: TransactionStatus, timeout: Duration) async -> TransactionStatus? {
        await withCheckedContinuation { (continuation: CheckedContinuation<TransactionStatus?, Never>) in
            let registered: (id: UInt64, immediate: TransactionStatus??) = lock.withLock {
                guard store != nil, let current = try? statusLocked(hash) else { return (0, .some(nil)) }
                if current.status.satisfies(target) { return (0, .some(current.status)) }
                nextWaiterID += 1
                waiters[hash, default: []].append(Waiter(id: nextWaiterID, target: target, continuation: continuation,
                                                         timeout: nil, round: current.round))
                return (nextWaiterID, nil)
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
            let stillWaiting: Bool = lock.withLock {
                guard let i = waiters[hash]?.firstIndex(where: { $0.id == id }) else { return false }
                waiters[hash]?[i].timeout = task
                return true
            }
            if !stillWaiting { task.cancel() }
        }
    }

    private func timeOut(_ hash: String, _ id: UInt64) {
        let found: (Waiter, TransactionStatus?)? = lock.withLock {
            guard var list = waiters[hash], let i = list.firstIndex(where: { $0.id == id }) else { return nil }
            let w = list.remove(at: i)
            waiters[hash] = list.isEmpty ? nil : list
            return (w, try? statusLocked(hash)?.status)
        }
        if let (w, status) = found { w.continuation.resume(returning: status) }
    }

    /// After a commit: note inclusion rounds and pick the waiters whose target is now reached.
    func collectWaiters(included: Set<String>, expired: Set<String>, round: UInt64, into out: inout [(Waiter, TransactionStatus?)]) {
        guard !waiters.isEmpty else { return }
        for hash in Array(waiters.keys) {
            guard var list = waiters[hash] else { continue }
            if included.contains(hash) { for i in list.indices { list[i].round = round } }
            let status: TransactionStatus?
            if expired.contains(hash) {
                status = .expired
            } else if let r = list.first?.round {
                status = latest.round >= r && latest.round - r >= genesis.confirmations ? .sealed : .finalized
            } else {
                status = nil
            }
            guard let status else { waiters[hash] = list; continue }
            var keep: [Waiter] = []
            for w in list {
                if status.satisfies(w.target) { out.append((w, status)) } else { keep.append(w) }
            }
            waiters[hash] = keep.isEmpty ? nil : keep
        }
    }

    /// Status and inclusion round of a hash; nil when unknown. Caller holds the lock.
    func statusLocked(_ hash: String) throws(LedgerError) -> (status: TransactionStatus, round: UInt64?)? {
        guard let store else { throw .closed }
        if pool.contains(hash) { return (.pending, nil) }
        do {
            if let r = try store.round(of: hash) {
                return (latest.round >= r && latest.round - r >= genesis.confirmations ? .sealed : .finalized, r)
            }
            if try store.expired(hash) != nil { return (.expired, nil) }
        } catch {
            throw .storage("\(error)")
        }
        return nil
    }
}
