import Foundation
import MosaicProtocol
import Synchronization

// Several nodes on one database (issue 14 §2). Exactly one, the holder of the store's producer
// lease (`LedgerStore.holdProducerLease`), makes blocks; the others are followers. Every node
// accepts transactions into the shared `pending` table and serves reads. On each tick a follower
// reads the stored head and the pending table and brings what it caches in memory (latest block,
// committed round, account cache, pool, waiters) up to them; the holder does the same to pick up
// the transactions followers accepted. The head guard inside each block's transaction
// (`LedgerStoreError.notOnHead`), not this lease, is what keeps a stalled former holder from
// forking the chain.
extension Ledger {
    /// Whether this ledger held the producer lease when it last asked (on its block timer's ticks
    /// and before each block). A ledger alone on its database (SQLite) always holds it.
    public var isProducer: Bool { state.withLock { $0.holdsLease } }

    /// One tick of the block timer: asks for the lease and catches up with the shared store.
    /// True when this ledger holds the lease and so may make blocks.
    func claimLease() throws(LedgerError) -> Bool {
        let (holds, resumes) = try locked { s, store throws(LedgerError) in
            var out: [(Waiter, TransactionStatus?)] = []
            let holds = try claimLeaseLocked(&s, store, catchUp: true, resumes: &out)
            return (holds, out)
        }
        for (w, status) in resumes {
            w.timeout?.cancel()
            w.continuation.resume(returning: status)
        }
        return holds
    }

    /// Asks for the lease holding `state`. On a shared store, catches up with it when `catchUp`
    /// and always when the lease was just taken over (the former holder's blocks are not in this
    /// ledger's memory); a takeover then adopts the recovery records, which belong to the holder.
    func claimLeaseLocked(
        _ s: inout LedgerState, _ store: any LedgerStore, catchUp: Bool, resumes: inout [(Waiter, TransactionStatus?)]
    ) throws(LedgerError) -> Bool {
        var holds = false
        // A node the genesis does not list never asks: it could not sign a block others accept.
        if mayProduce {
            do { holds = try store.holdProducerLease() } catch { throw .storage("asking for the producer lease: \(error)") }
        }
        let tookOver = holds && !s.holdsLease
        s.holdsLease = holds
        if store.isShared, catchUp || tookOver { try followStore(&s, store, owner: holds, resumes: &resumes) }
        if tookOver, store.isShared { try recoverFromInterruptedBlock(&s, store) }
        return holds
    }

    /// Brings the in-memory state up to the store: the head and what hangs on it (committed round,
    /// last non-empty round, account cache), and the pool, which becomes the shared `pending`
    /// table (rows a block included or expired leave it; rows other nodes accepted join it).
    /// The `owner` (lease holder) also clears rows that can never run, recording them as expired
    /// so their waiters on every node get an answer; a follower leaves the table as it is.
    func followStore(_ s: inout LedgerState, _ store: any LedgerStore, owner: Bool, resumes: inout [(Waiter, TransactionStatus?)])
        throws(LedgerError)
    {
        let head: Block?
        let stored: Set<String>
        let fresh: [(hash: String, round: UInt64, bytes: [UInt8])]
        do {
            // One snapshot: the pending rows are those of exactly this head. Only the hashes of
            // rows the pool already holds are read, the bytes of the others.
            (head, stored, fresh) = try store.readTransaction { [pool = s.pool] in
                let hashes = try store.pendingHashes()
                return (try store.latestBlock(), Set(hashes), try store.pendingTransactions(hashes.filter { !pool.contains($0) }))
            }
        } catch {
            throw .storage("reading the shared chain head and pending pool: \(error)")
        }
        guard let head else { throw .storage("the database holds no blocks") }
        let moved = head.hash != s.latest.hash
        if moved, let fault = head.fault(producers: genesis.producers) {
            // Written by a node the chain does not allow, or changed in the database: not followed.
            throw .storage("the shared database's block \(head.round) is not valid: \(fault); this node stays at block \(s.latest.round)")
        }
        if moved {
            s.latest = head
            committedRound.store(head.round, ordering: .releasing)
            // Balances and nonces changed under the cache.
            s.accountCache.removeAll(keepingCapacity: true)
            do { s.lastNonEmptyRound = try store.lastNonEmptyRound() } catch { throw .storage("\(error)") }
        }
        let gone = s.pool.hashes.keys.filter { !stored.contains($0) }
        for hash in gone { s.pool.remove(hash) }
        var drop: [String] = []
        var expire: [Transaction] = []
        guard !fresh.isEmpty || moved || !gone.isEmpty else { return }
        // Which of the new rows the chain already knows: one lookup for all of them.
        let known: (included: Set<String>, expired: Set<String>)
        do { known = fresh.isEmpty ? ([], []) : try store.knownHashes(fresh.map(\.hash)) } catch {
            throw .storage("reading the shared pending pool: \(error)")
        }
        for row in fresh {
            guard let tx = try? BinaryBatch.decode(Data(row.bytes)).first, tx.hash == row.hash, let checked = try? precheck(tx) else {
                drop.append(row.hash)
                continue
            }
            do throws(LedgerError) {
                try admit(&s, tx, checked, store, restoring: row.round, known: known)
            } catch {
                switch error {
                // Room may come; the row waits for a later tick.
                case .poolFull, .poolBytesFull, .senderPoolFull, .storage, .closed: break
                // Included or expired already: only the row is left over.
                case .duplicate, .alreadyExpired: drop.append(row.hash)
                // Its nonce was taken by another node's transaction, or its balance is spent.
                default: expire.append(tx)
                }
            }
        }
        if owner, !drop.isEmpty || !expire.isEmpty {
            let round = s.latest.round
            do {
                try store.transaction {
                    try store.insertExpired(expire, round: round)
                    try store.removePending(drop + expire.map(\.hash))
                }
            } catch {
                throw .storage("clearing pending transactions that cannot run: \(error)")
            }
        }
        guard moved || !gone.isEmpty, !s.waiters.isEmpty else { return }
        // Waiters on transactions another node's blocks included or expired.
        var included: [String: UInt64] = [:]
        var expired: Set<String> = []
        do {
            for (hash, list) in s.waiters where list.first?.round == nil && !s.pool.contains(hash) {
                if let round = try store.round(of: hash) {
                    included[hash] = round
                } else if try store.isExpired(hash) {
                    expired.insert(hash)
                }
            }
        } catch {
            throw .storage("reading the status of awaited transactions: \(error)")
        }
        collectWaiters(&s, includedRound: { included[$0] }, expired: expired, into: &resumes)
    }
}
