import Foundation
import MosaicCrypto
import MosaicParallel
import MosaicProtocol
import Synchronization

extension Ledger {
    /// Accepts a signed transaction into the pool or says why not; a rejection changes nothing.
    public func submit(_ tx: Transaction) throws(LedgerError) {
        let checked = try precheck(tx)
        try locked { s, store throws(LedgerError) in _ = try admit(&s, tx, checked, store) }
        producer.notify()
    }

    /// Submits many transactions with one lock acquisition, verifying signatures on all cores.
    /// Returns, per transaction in order, nil when accepted or the rejection.
    public func submit(_ txs: [Transaction]) -> [LedgerError?] {
        guard !txs.isEmpty else { return [] }
        let chunk = max(64, (txs.count + 1) / 2)
        let checks = parallelMap((txs.count + chunk - 1) / chunk) { w in
            ((w * chunk)..<min(txs.count, (w + 1) * chunk)).map { i in
                Result { () throws(LedgerError) in try precheck(txs[i]) }
            }
        }.flatMap { $0 }
        let results: [LedgerError?] = state.withLock { s in
            guard let store = s.store else { return txs.map { _ in .closed } }
            var results = [LedgerError?](repeating: nil, count: txs.count)
            // Indices this batch put in the pool (a failed commit takes out these, and only these:
            // an equal hash accepted earlier stays).
            var admitted: [Int] = []
            // One database commit for the whole batch's pending rows, written together after
            // one lookup of which hashes the chain already knows (a few statements, not a few
            // per transaction, which on a networked database is most of the cost).
            do {
                try store.transaction {
                    let candidates = checks.indices.compactMap { i -> String? in
                        if case .success = checks[i] { return txs[i].hash } else { return nil }
                    }
                    let known = try store.knownHashes(candidates)
                    var rows: [(tx: Transaction, seq: UInt64, round: UInt64)] = []
                    for (i, check) in checks.enumerated() {
                        switch check {
                        case .success(let checked):
                            do throws(LedgerError) {
                                if let seq = try admit(&s, txs[i], checked, store, known: known, record: false) {
                                    rows.append((txs[i], seq, s.latest.round))
                                    admitted.append(i)
                                }
                            } catch { results[i] = error }
                        case .failure(let e): results[i] = e
                        }
                    }
                    try store.insertPending(rows)
                }
            } catch {
                // The commit failed: nothing of the batch is durable, so none of it stays accepted.
                for i in admitted { s.pool.remove(txs[i].hash) }
                for i in txs.indices where results[i] == nil {
                    results[i] = .store(error, "could not record the transaction")
                }
            }
            return results
        }
        producer.notify()
        return results
    }

    /// What the stateless checks learned about a transaction, for admission.
    struct Prechecked: Sendable {
        /// value + fee, reserved from the balance while pending.
        let cost: UInt64
        /// Wire bytes, counted against the pool's byte limits.
        let bytes: Int
        /// Fee-exempt (its contract says so, e.g. a faucet pour), so held to the free-transaction limits.
        let free: Bool
    }

    /// Whether `tx` would be fee-exempt: a call of a method its contract declares `.exempt` (a
    /// faucet pour, so a new account can start). The node's submit routes use it to rate-limit
    /// free transactions per source address.
    public func isFeeExempt(_ tx: Transaction) -> Bool {
        guard tx.transactionType == .contractCall, let call = try? ContractCall.parse(tx.transactionData),
            tx.toClientID == ContractCall.address(of: call.contract)
        else { return false }
        return feePolicy(call) == .exempt
    }

    /// The fee policy of a call's method; `.standard` for a contract or method that does not exist.
    func feePolicy(_ call: ContractCall) -> FeePolicy {
        guard let contract = contracts[call.contract], contract.methods.contains(call.method) else { return .standard }
        return contract.feePolicy(method: call.method)
    }

    /// Checks that need no state: shape, chain, hash, signature, contract name, fee, data size per kind.
    func precheck(_ tx: Transaction) throws(LedgerError) -> Prechecked {
        guard tx.chainID == genesis.chainID else { throw .wrongChain(expected: genesis.chainID, got: tx.chainID) }
        try tx.verify()
        var minimumFee = genesis.minimumFee
        var free = false
        let dataBytes = tx.transactionData.utf8.count
        switch tx.transactionType {
        case .transfer:
            guard tx.value > 0 else { throw .malformed("transfer value must be greater than zero") }
            guard !contractAddresses.contains(tx.toClientID) else {
                throw .malformed("to_client_id is a contract address; use a contract_call")
            }
            guard dataBytes <= genesis.maxTransferDataBytes else {
                throw .dataTooLarge(kind: "transfer (its description)", bytes: dataBytes, limit: genesis.maxTransferDataBytes)
            }
        case .contractCall:
            let call = try ContractCall.parse(tx.transactionData)
            guard let contract = contracts[call.contract] else { throw .unknownContract("no contract named \"\(call.contract)\"") }
            guard contract.methods.contains(call.method) else {
                throw .unknownContract(
                    "contract \(call.contract) has no method \"\(call.method)\" (methods: \(contract.methods.joined(separator: ", ")))")
            }
            guard tx.toClientID == ContractCall.address(of: call.contract) else {
                throw .malformed(
                    "to_client_id of a call to \(call.contract) must be its address \(ContractCall.address(of: call.contract))")
            }
            // A method its contract declares free (a faucet pour: a new account has nothing to pay
            // a fee with) pays none and, being free, carries only the little data such a call needs.
            if contract.feePolicy(method: call.method) == .exempt {
                minimumFee = 0
                free = true
            }
            let limit = genesis.maxDataBytes(type: .contractCall, feeExempt: free)
            guard dataBytes <= limit else {
                throw .dataTooLarge(
                    kind: free ? "fee-exempt call (\(call.contract) \(call.method))" : "contract call", bytes: dataBytes, limit: limit)
            }
        }
        guard tx.fee >= minimumFee else { throw .feeTooLow(minimum: minimumFee, got: tx.fee) }
        let (cost, overflow) = tx.value.addingReportingOverflow(tx.fee)
        guard !overflow else { throw .malformed("value + fee exceeds the largest amount") }
        return Prechecked(cost: cost, bytes: tx.wireSize, free: free)
    }

    /// Stateful checks and pool insertion, holding `state`.
    /// Admits `tx` into the pool and its `pending` row. `restoring` re-admits a row read at start
    /// (keeping the round it was first accepted at, writing nothing; its `creation_date` was
    /// judged when it was first accepted). `known` answers the included/expired lookups for a
    /// batch (read once for all of it); with `record` false the caller writes the pending row
    /// (the returned pool sequence number) itself, in the same transaction.
    @discardableResult
    func admit(
        _ s: inout LedgerState, _ tx: Transaction, _ checked: Prechecked, _ store: any LedgerStore,
        restoring round: UInt64? = nil, known: (included: Set<String>, expired: Set<String>)? = nil, record: Bool = true
    ) throws(LedgerError) -> UInt64? {
        guard s.pool.count < genesis.poolCapacity else { throw .poolFull(capacity: genesis.poolCapacity) }
        let (poolBytes, bytesOverflow) = s.pool.totalBytes.addingReportingOverflow(checked.bytes)
        guard !bytesOverflow, poolBytes <= limits.poolBytes else { throw .poolBytesFull(limitBytes: limits.poolBytes) }
        if s.pool.contains(tx.hash) { throw .duplicate(hash: tx.hash) }
        do {
            if try known.map({ $0.included.contains(tx.hash) }) ?? store.transactionExists(tx.hash) {
                throw LedgerError.duplicate(hash: tx.hash)
            }
            // Expired once, never again: its nonce may have been used meanwhile by a payment
            // that replaced it (docs/PROTOCOL.md §2.3).
            if try known.map({ $0.expired.contains(tx.hash) }) ?? store.isExpired(tx.hash) {
                throw LedgerError.alreadyExpired(hash: tx.hash)
            }
        } catch { throw .store(error, "checking the transaction") }
        if round == nil {
            // Ledger time never goes back (block timestamps never decrease), so a hash whose
            // expired record was pruned after the window also stays out.
            let now = max(clock.now, s.latest.timestamp)
            let (earliest, o1) = now.subtractingReportingOverflow(genesis.creationDateMaxAgeSeconds)
            let (latestAllowed, o2) = now.addingReportingOverflow(genesis.creationDateMaxAheadSeconds)
            guard o1 || tx.creationDate >= earliest, o2 || tx.creationDate <= latestAllowed else {
                throw .creationDateOutOfWindow(
                    creationDate: tx.creationDate, now: now, maxAgeSeconds: genesis.creationDateMaxAgeSeconds,
                    maxAheadSeconds: genesis.creationDateMaxAheadSeconds)
            }
        }
        let account = try committedAccount(&s, tx.clientID, store)
        let next = s.pool.nextNonce(sender: tx.clientID, stateNonce: account.nonce)
        if tx.nonce <= account.nonce || s.pool.has(sender: tx.clientID, nonce: tx.nonce) {
            throw .staleNonce(nonce: tx.nonce, next: next)
        }
        // tx.nonce >= next here: every nonce between the account's and `next` is pending.
        if tx.nonce > next, tx.nonce - next > genesis.maxNonceAhead {
            throw .nonceTooFarAhead(nonce: tx.nonce, next: next, maxAhead: genesis.maxNonceAhead)
        }
        let mine = s.pool.sender(tx.clientID)
        let pendingCount = mine?.byNonce.count ?? 0
        let pendingBytes = mine?.bytes ?? 0
        let (senderBytes, senderOverflow) = pendingBytes.addingReportingOverflow(checked.bytes)
        guard pendingCount < limits.senderPendingCount, !senderOverflow, senderBytes <= limits.senderPendingBytes else {
            throw .senderPoolFull(
                pending: pendingCount, pendingBytes: pendingBytes, maxCount: limits.senderPendingCount,
                maxBytes: limits.senderPendingBytes)
        }
        if checked.free {
            guard (mine?.free ?? 0) < limits.freePendingPerSender else {
                throw .freeLimited(
                    "this account already has \(mine?.free ?? 0) fee-exempt transaction(s) waiting (at most \(limits.freePendingPerSender)); wait until they are included"
                )
            }
            // Free transactions never wait on a gap: a gapped one would expire and cost nothing.
            guard tx.nonce == next else {
                throw .freeLimited("a fee-exempt transaction must carry the next nonce \(next), not \(tx.nonce)")
            }
        }
        let reserved = s.pool.reserved(by: tx.clientID)
        let available = account.balance > reserved ? account.balance - reserved : 0
        guard checked.cost <= available else { throw .insufficientBalance(needed: checked.cost, available: available) }
        guard let seq = s.pool.insert(tx, cost: checked.cost, round: round ?? s.latest.round, bytes: checked.bytes, free: checked.free)
        else {
            throw .storage("the pool's totals for \(tx.clientID) would overflow")
        }
        guard round == nil, record else { return seq }
        do { try store.insertPending(tx, seq: seq, round: s.latest.round) } catch {
            s.pool.remove(tx.hash)
            throw .store(error, "could not record the transaction")
        }
        return seq
    }

    /// Puts back the transactions accepted before a restart; those that can no longer run
    /// (nonce used meanwhile, balance gone, signature no longer valid for this chain) are dropped.
    /// Nothing here runs contract code (only the stateless checks and admission), so a
    /// transaction that stopped the process while executing cannot stop it again at start.
    /// Only the `owner` (the producer lease holder) deletes the rows it drops: on a shared
    /// database a follower's view of a row (through its own pool limits) is not the chain's.
    func restorePool(_ s: inout LedgerState, _ store: any LedgerStore, owner: Bool) throws(LedgerError) {
        let rows: [(hash: String, round: UInt64, bytes: [UInt8])]
        do { rows = try store.pendingTransactions() } catch { throw .store(error, "reading the pending pool") }
        for row in rows {
            var kept = false
            if let tx = try? BinaryBatch.decode(Data(row.bytes)).first, tx.hash == row.hash, let checked = try? precheck(tx) {
                kept = (try? admit(&s, tx, checked, store, restoring: row.round)) != nil
            }
            if !kept, owner { try? store.removePending(row.hash) }
        }
    }

    /// The nonce the sender's next transaction should carry (after its pending ones).
    public func nextNonce(for clientID: String) throws(LedgerError) -> UInt64 {
        try locked { s, store throws(LedgerError) in
            s.pool.nextNonce(sender: clientID, stateNonce: try committedAccount(&s, clientID, store).nonce)
        }
    }
}
