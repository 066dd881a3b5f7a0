import Foundation
import MosaicProtocol

// Defence in depth against a transaction that kills the process while it executes (a contract
// bug that traps): the node must not die again on every start. See `RecoveryState`.
extension Ledger {
    static let executingKey = "executing"
    static let recoveryKey = "recovery"
    /// "<round> <contract>" while that contract's end-of-block hook runs.
    static let executingHookKey = "executing_hook"
    /// The failed receipt's error of a transaction set aside after a crash.
    public static let setAsideReason = "the node stopped while executing this transaction; it was set aside"
    /// Rounds an end-of-block hook that stopped the process is skipped for.
    static let hookSkipRounds: UInt64 = 1000

    /// The transactions of the next block. While recovering: set-aside transactions alone (as
    /// failed), else the next suspect group; otherwise the ready pool. A suspect whose nonce is
    /// no longer next is left in the pool; a set-aside one that cannot be included is dropped
    /// (recorded as expired) so it never runs.
    func planBlock(_ s: inout LedgerState, _ store: any LedgerStore) -> (
        setAside: [Transaction], run: [Transaction], bisecting: Bool, dropped: [TransactionPool.Entry]
    ) {
        var nonces: [String: UInt64] = [:]
        func runnable(_ tx: Transaction) -> Bool {
            let current = nonces[tx.clientID] ?? ((try? committedAccount(&s, tx.clientID, store).nonce) ?? 0)
            guard current < UInt64.max, tx.nonce == current + 1 else { return false }
            nonces[tx.clientID] = tx.nonce
            return true
        }
        if !s.recovery.setAside.isEmpty {
            var include: [Transaction] = []
            var dropped: [TransactionPool.Entry] = []
            for h in s.recovery.setAside {
                guard let e = s.pool.entry(h) else { continue }
                if runnable(e.tx) { include.append(e.tx) } else { dropped.append(e) }
            }
            return (include, [], false, dropped)
        }
        if let group = s.recovery.groups.first {
            return ([], group.compactMap { s.pool.entry($0)?.tx }.filter(runnable), true, [])
        }
        let pool = s.pool  // read while the nonce lookups fill the cache
        let ready = pool.ready(stateNonce: { (try? committedAccount(&s, $0, store).nonce) ?? 0 }, limit: genesis.maxBlockTransactions)
        return ([], ready, false, [])
    }

    /// Commits `record` on its own, so it survives the process dying right after.
    func writeExecutionRecord(_ record: ExecutionRecord, _ store: any LedgerStore) throws(LedgerError) {
        do { try store.setMeta(Ledger.executingKey, try Ledger.json(record)) } catch {
            throw .storage("recording block \(record.round) before executing it: \(error)")
        }
    }

    static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// At open, after the pool is restored: an execution record still present means the process
    /// died inside that block. Its transactions become suspects (halved), a lone suspect is set
    /// aside, a hook is skipped for a while; the outcome is committed before anything runs.
    func recoverFromInterruptedBlock(_ s: inout LedgerState, _ store: any LedgerStore) throws(LedgerError) {
        do {
            if let text = try store.meta(Ledger.recoveryKey) {
                s.recovery = (try? JSONDecoder().decode(RecoveryState.self, from: Data(text.utf8))) ?? RecoveryState()
            }
            guard let text = try store.meta(Ledger.executingKey) else { return }
            guard var record = try? JSONDecoder().decode(ExecutionRecord.self, from: Data(text.utf8)) else {
                try store.deleteMeta(Ledger.executingKey)
                try store.deleteMeta(Ledger.executingHookKey)
                return
            }
            if let hook = try store.meta(Ledger.executingHookKey) {
                let parts = hook.split(separator: " ", maxSplits: 1).map(String.init)
                if parts.count == 2, UInt64(parts[0]) == record.round {
                    record.phase = .hook
                    record.hook = parts[1]
                }
            }
            var next = s.recovery
            if record.bisecting, next.groups.first == record.hashes { next.groups.removeFirst() }
            var dropped: [TransactionPool.Entry] = []
            switch record.phase {
            case .transactions where record.hashes.count == 1:
                next.setAside.append(record.hashes[0])
                log(
                    "block \(record.round): the process stopped while executing transaction \(record.hashes[0]) alone; it is set aside and will be included as failed (\"\(Ledger.setAsideReason)\")"
                )
            case .transactions where record.hashes.count > 1:
                let half = record.hashes.count / 2
                next.groups.insert(contentsOf: [Array(record.hashes[..<half]), Array(record.hashes[half...])], at: 0)
                log(
                    "block \(record.round): the process stopped while executing its \(record.hashes.count) transactions; they run again in halves (\(half) and \(record.hashes.count - half)), each in its own block, to find the one at fault"
                )
            case .transactions:
                break
            case .setAside:
                // Not even its fee could be taken: it leaves the pool and never runs.
                for h in record.hashes { if let e = s.pool.entry(h) { dropped.append(e) } }
                next.setAside.removeAll { record.hashes.contains($0) }
                log(
                    "block \(record.round): the process stopped while including set-aside transactions as failed; \(dropped.count) dropped from the pool (recorded as expired)"
                )
            case .hook:
                // The transactions ran to the end: not at fault. A bisected group runs again as it was.
                if record.bisecting, !record.hashes.isEmpty { next.groups.insert(record.hashes, at: 0) }
                if let name = record.hook {
                    let (until, overflow) = record.round.addingReportingOverflow(Ledger.hookSkipRounds)
                    next.skippedHooks[name] = overflow ? .max : until
                    log(
                        "block \(record.round): the process stopped in the end-of-block hook of contract \(name); the hook is skipped up to round \(next.skippedHooks[name] ?? 0)"
                    )
                }
            }
            let round = s.latest.round
            try store.transaction {
                try store.insertExpired(dropped.map(\.tx), round: round)
                try store.removePending(dropped.map(\.tx.hash))
                try store.setMeta(Ledger.recoveryKey, try Ledger.json(next))
                try store.deleteMeta(Ledger.executingKey)
                try store.deleteMeta(Ledger.executingHookKey)
            }
            for e in dropped { s.pool.remove(e.tx.hash) }
            s.recovery = next
        } catch let e as LedgerError {
            throw e
        } catch {
            throw .storage("recovering from an interrupted block: \(error)")
        }
    }
}
