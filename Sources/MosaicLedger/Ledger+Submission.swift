import Foundation
import MosaicCrypto
import MosaicProtocol

extension Ledger {
    /// Accepts a signed transaction into the pool or says why not; a rejection changes nothing.
    public func submit(_ tx: Transaction) throws(LedgerError) {
        let cost = try precheck(tx)
        try locked { store throws(LedgerError) in try admit(tx, cost: cost, store) }
        producer.notify()
    }

    /// Submits many transactions with one lock acquisition, verifying signatures on all cores.
    /// Returns, per transaction in order, nil when accepted or the rejection.
    public func submit(_ txs: [Transaction]) -> [LedgerError?] {
        guard !txs.isEmpty else { return [] }
        var checks = [Result<UInt64, LedgerError>](repeating: .failure(.closed), count: txs.count)
        checks.withUnsafeMutableBufferPointer { out in
            let slots = DisjointSlots(base: out)
            let chunk = max(64, (txs.count + 1) / 2)
            let workers = (txs.count + chunk - 1) / chunk
            DispatchQueue.concurrentPerform(iterations: workers) { w in
                for i in (w * chunk)..<min(txs.count, (w + 1) * chunk) {
                    do throws(LedgerError) { slots.base[i] = .success(try precheck(txs[i])) } catch { slots.base[i] = .failure(error) }
                }
            }
        }
        var results = [LedgerError?](repeating: nil, count: txs.count)
        lock.lock()
        if let store {
            // One SQLite commit for the whole batch's pending rows.
            do {
                try store.db.transaction {
                    for (i, check) in checks.enumerated() {
                        switch check {
                        case .success(let cost):
                            do throws(LedgerError) { try admit(txs[i], cost: cost, store) } catch { results[i] = error }
                        case .failure(let e): results[i] = e
                        }
                    }
                }
            } catch {
                // The commit failed: nothing of the batch is durable, so none of it stays accepted.
                for (i, tx) in txs.enumerated() where results[i] == nil {
                    pool.remove(tx.hash)
                    results[i] = .storage("could not record the transaction: \(error)")
                }
            }
        } else {
            results = txs.map { _ in .closed }
        }
        lock.unlock()
        producer.notify()
        return results
    }

    /// Checks that need no state: shape, chain, hash, signature, contract name, fee. Returns value + fee.
    func precheck(_ tx: Transaction) throws(LedgerError) -> UInt64 {
        guard tx.chainID == genesis.chainID else { throw .wrongChain(expected: genesis.chainID, got: tx.chainID) }
        try tx.verify()
        var minimumFee = genesis.minimumFee
        switch tx.transactionType {
        case .transfer:
            guard tx.value > 0 else { throw .malformed("transfer value must be greater than zero") }
            guard !contractAddresses.contains(tx.toClientID) else {
                throw .malformed("to_client_id is a contract address; use a contract_call")
            }
        case .contractCall:
            let call = try ContractCall.parse(tx.transactionData)
            guard let contract = contracts[call.contract] else { throw .unknownContract("no contract named \"\(call.contract)\"") }
            guard contract.methods.contains(call.method) else {
                throw .unknownContract("contract \(call.contract) has no method \"\(call.method)\" (methods: \(contract.methods.joined(separator: ", ")))")
            }
            guard tx.toClientID == ContractCall.address(of: call.contract) else {
                throw .malformed("to_client_id of a call to \(call.contract) must be its address \(ContractCall.address(of: call.contract))")
            }
            // A new account has nothing to pay a fee with, so faucet pours are fee-exempt.
            if call.contract == "faucet" && call.method == "pour" { minimumFee = 0 }
        }
        guard tx.fee >= minimumFee else { throw .feeTooLow(minimum: minimumFee, got: tx.fee) }
        let (cost, overflow) = tx.value.addingReportingOverflow(tx.fee)
        guard !overflow else { throw .malformed("value + fee exceeds the largest amount") }
        return cost
    }

    /// Stateful checks and pool insertion. Caller holds the lock.
    /// Admits `tx` into the pool and its `pending` row. `restoring` re-admits a row read at start
    /// (keeping the round it was first accepted at, writing nothing).
    func admit(_ tx: Transaction, cost: UInt64, _ store: LedgerStore, restoring round: UInt64? = nil) throws(LedgerError) {
        guard pool.count < genesis.poolCapacity else { throw .poolFull(capacity: genesis.poolCapacity) }
        if pool.contains(tx.hash) { throw .duplicate(hash: tx.hash) }
        do {
            if try store.transactionExists(tx.hash) { throw LedgerError.duplicate(hash: tx.hash) }
        } catch let e as LedgerError { throw e } catch { throw .storage("\(error)") }
        let account = try committedAccount(tx.clientID, store)
        let next = pool.nextNonce(sender: tx.clientID, stateNonce: account.nonce)
        if tx.nonce <= account.nonce || pool.has(sender: tx.clientID, nonce: tx.nonce) {
            throw .staleNonce(nonce: tx.nonce, next: next)
        }
        if tx.nonce > next + genesis.maxNonceAhead {
            throw .nonceTooFarAhead(nonce: tx.nonce, next: next, maxAhead: genesis.maxNonceAhead)
        }
        let reserved = pool.reserved(by: tx.clientID)
        let available = account.balance > reserved ? account.balance - reserved : 0
        guard cost <= available else { throw .insufficientBalance(needed: cost, available: available) }
        let seq = pool.insert(tx, cost: cost, round: round ?? latest.round)
        guard round == nil else { return }
        do { try store.insertPending(tx, seq: seq, round: latest.round) } catch {
            pool.remove(tx.hash)
            throw .storage("could not record the transaction: \(error)")
        }
    }

    /// Puts back the transactions accepted before a restart; those that can no longer run
    /// (nonce used meanwhile, balance gone, signature no longer valid for this chain) are dropped.
    func restorePool(_ store: LedgerStore) throws(LedgerError) {
        let rows: [(hash: String, round: UInt64, bytes: [UInt8])]
        do { rows = try store.pendingTransactions() } catch { throw .storage("reading the pending pool: \(error)") }
        for row in rows {
            var kept = false
            if let tx = try? BinaryBatch.decode(Data(row.bytes)).first, tx.hash == row.hash, let cost = try? precheck(tx) {
                kept = (try? admit(tx, cost: cost, store, restoring: row.round)) != nil
            }
            if !kept { try? store.removePending(row.hash) }
        }
    }

    /// The nonce the sender's next transaction should carry (after its pending ones).
    public func nextNonce(for clientID: String) throws(LedgerError) -> UInt64 {
        try locked { store throws(LedgerError) in
            pool.nextNonce(sender: clientID, stateNonce: try committedAccount(clientID, store).nonce)
        }
    }
}

/// Result slots shared by the verification workers; each worker writes only its own index range
/// and the buffer outlives `concurrentPerform`, so the sharing is race-free.
private struct DisjointSlots<T>: @unchecked Sendable {
    let base: UnsafeMutableBufferPointer<T>
}
