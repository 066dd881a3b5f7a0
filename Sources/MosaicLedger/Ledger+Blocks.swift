import Foundation
import MosaicCrypto
import MosaicProtocol
import Synchronization

extension Ledger {
    /// Produces one block from the ready pool transactions (possibly none) and commits it
    /// atomically; waiters whose status is reached are resumed.
    @discardableResult
    public func produceBlock() throws(LedgerError) -> Block {
        let (block, resumes, failure) = try locked { s, store throws(LedgerError) in
            var out: [(Waiter, TransactionStatus?)] = []
            do throws(LedgerError) {
                // Only the lease holder makes blocks; taking the lease over catches up first.
                guard try claimLeaseLocked(&s, store, catchUp: false, resumes: &out) else { throw .notProducer }
                return (Optional(try produceLocked(&s, store, resumes: &out)), out, LedgerError?.none)
            } catch {
                // Waiters a takeover already woke are resumed even when the block then fails.
                return (nil, out, error)
            }
        }
        for (w, s) in resumes {
            w.timeout?.cancel()
            w.continuation.resume(returning: s)
        }
        if let failure { throw failure }
        guard let block else { throw .storage("no block was made") }
        return block
    }

    /// Starts the block timer. Every `blockTime` (default: the genesis block time) a block is made
    /// if there is work: pool transactions, or finalized transactions still short of sealing (so
    /// confirmations advance; an idle ledger makes no blocks). When more transactions are ready
    /// than one block holds, further full blocks follow at once, so throughput is not capped at
    /// `max_block_transactions` per interval. `blockTime` zero makes blocks as soon as
    /// transactions arrive, then the confirmation blocks right after.
    public func start(blockTime: Duration? = nil) {
        let interval = blockTime ?? .milliseconds(genesis.blockTimeMillis)
        // A paused holder's session ends after this, and with it the lease; the holder itself asks
        // on every tick, so it is never idle that long while it runs. With block time 0 there is no
        // tick while nothing arrives, so no timeout either: such a producer keeps the lease while
        // paused (block time 0 is for tests and demos, not for several nodes).
        if interval > .zero {
            let leaseTimeout = max(Ledger.minimumLeaseTimeout, interval * 3)
            state.withLock { s in
                do { try s.store?.setLeaseTimeout(leaseTimeout) } catch {
                    s.productionError = .storage("setting the lease timeout: \(error)")
                }
            }
        }
        _ = producer.start(interval: interval) { [weak self] immediate in
            guard let self else { return }
            do throws(LedgerError) {
                // A follower only catches up with the blocks the lease holder made.
                guard try self.claimLease() else { return }
                if immediate {
                    var rounds = 0
                    while rounds < 10_000, self.needsBlock(includeWaiting: false) {
                        try self.produceBlock()
                        rounds += 1
                    }
                } else if self.needsBlock(includeWaiting: true) {
                    try self.produceBlock()
                    var extra = 0
                    while extra < 64, self.hasReadyTransactions() {
                        try self.produceBlock()
                        extra += 1
                    }
                }
            } catch {
                self.state.withLock { $0.productionError = error }
            }
        }
        producer.notify()  // a pool restored at open has work already
        if case .postgres(let url) = database {
            // Only a follower needs the news: the holder made the block itself.
            let heard: @Sendable () -> Void = { [weak self] in
                guard let self, !self.isProducer else { return }
                self.producer.wake()
            }
            listener.withLock { l in
                if l == nil { l = BlockListener(url: url, heard: heard) }
            }
        }
    }

    /// The shortest lease timeout (`LedgerStore.setLeaseTimeout`): long enough that a loaded
    /// machine's late tick does not cost a running producer its session.
    static let minimumLeaseTimeout = Duration.seconds(10)

    /// Stops the block timer (blocks can still be produced by hand).
    public func stop() {
        producer.stop()
        stopListening()
    }

    func stopListening() {
        let l = listener.withLock { l in
            defer { l = nil }
            return l
        }
        l?.stop()
    }

    /// The last error the block timer hit, if any (for the node's health output).
    public var lastProductionError: LedgerError? { state.withLock { $0.productionError } }

    /// True when a block would do something: include transactions, advance an unsealed
    /// transaction towards sealing, or (with `includeWaiting`) age waiting ones towards expiry.
    func needsBlock(includeWaiting: Bool) -> Bool {
        state.withLock { s in
            guard let store = s.store else { return false }
            if s.recovery.isRecovering { return true }
            if let last = s.lastNonEmptyRound, s.latest.round >= last, s.latest.round - last < genesis.confirmations { return true }
            if includeWaiting, contractsWantBlocks(s, store) { return true }
            if s.pool.isEmpty { return false }
            return includeWaiting || readyLocked(&s, store)
        }
    }

    /// Whether some contract's end-of-block hook has work even without transactions
    /// (`Contract.wantsBlocks`, asked about the latest committed state), holding `state`.
    private func contractsWantBlocks(_ s: LedgerState, _ store: any LedgerStore) -> Bool {
        for (name, contract) in contractOrder {
            let view = ContractView(contract: name, round: s.latest.round, now: s.latest.timestamp, store: store, isLatest: true)
            if (try? contract.wantsBlocks(view)) == true { return true }
        }
        return false
    }

    func hasReadyTransactions() -> Bool {
        state.withLock { s in
            guard let store = s.store else { return false }
            return s.recovery.isRecovering || readyLocked(&s, store)
        }
    }

    private func readyLocked(_ s: inout LedgerState, _ store: any LedgerStore) -> Bool {
        for (id, sender) in s.pool.senders {
            let nonce = (try? committedAccount(&s, id, store).nonce) ?? 0
            if nonce < UInt64.max, sender.byNonce[nonce + 1] != nil { return true }
        }
        return false
    }

    private struct Executed {
        let tx: Transaction
        let outcome: ExecutionOutcome
        let error: ExecutionError?
        let output: String
        let events: [TransactionEvent]
    }

    /// Makes the next block from the pool, or with `replaying`, re-executes another node's block:
    /// its transactions in its order at its time, kept with its producer and signature
    /// (`Ledger+Replay.swift`).
    func produceLocked(
        _ s: inout LedgerState, _ store: any LedgerStore, resumes: inout [(Waiter, TransactionStatus?)], replaying: Replay? = nil
    ) throws(LedgerError) -> Block {
        let (round, lastRound) = s.latest.round.addingReportingOverflow(1)
        guard !lastRound else { throw .storage("the ledger has reached the last round a 64-bit counter holds") }
        let now = replaying?.block.timestamp ?? max(clock.now, s.latest.timestamp)
        let plan =
            replaying.map { r in
                (
                    setAside: r.transactions.filter { r.setAside.contains($0.hash) },
                    run: r.transactions.filter { !r.setAside.contains($0.hash) },
                    bisecting: false, dropped: [TransactionPool.Entry]()
                )
            } ?? planBlock(&s, store)
        let ready = plan.setAside + plan.run
        let state = BlockState(committed: store, cache: s.accountCache)

        // Durable before anything runs: if the process dies in this block, the next start knows
        // which transactions were running (Ledger+Recovery.swift).
        let record = ExecutionRecord(
            round: round, hashes: ready.map(\.hash), bisecting: plan.bisecting,
            phase: plan.setAside.isEmpty ? .transactions : .setAside, hook: nil)
        try writeExecutionRecord(record, store)

        var executed: [Executed] = []
        executed.reserveCapacity(ready.count)
        do {
            for tx in plan.setAside { executed.append(try setAsideExecution(tx, state: state)) }
            for tx in plan.run { executed.append(try execute(tx, state: state, round: round, now: now)) }
            try runEndBlockHooks(state: state, round: round, now: now, seed: s.latest.hash, skipped: s.recovery.skippedHooks, store)
        } catch {
            throw .storage("executing block \(round): \(error)")
        }

        var nextRecovery = s.recovery
        if plan.bisecting, !nextRecovery.groups.isEmpty { nextRecovery.groups.removeFirst() }
        if !plan.setAside.isEmpty { nextRecovery.setAside = [] }
        nextRecovery.skippedHooks = nextRecovery.skippedHooks.filter { $0.value > round }
        let included = Set(ready.map(\.hash))
        let expired =
            s.pool.expired(atRound: round, expiryBlocks: genesis.expiryBlocks, excluded: nextRecovery.suspects)
            .filter { !included.contains($0.tx.hash) } + plan.dropped
        let stateRoot = Ledger.stateRoot(previous: s.latest.stateRoot, state: state)
        var block = Block(
            round: round, previousHash: s.latest.hash, timestamp: now, transactionRoot: Block.merkleRoot(ready.map(\.hash)),
            stateRoot: stateRoot, transactionCount: ready.count, minerID: genesis.nodeID, producer: replaying?.block.producer ?? ""
        )
        if let replaying {
            block.signature = replaying.block.signature
        } else {
            block = block.signed(by: signingKey)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        do {
            try store.transaction {
                try store.insert(block: block)
                let stored = try executed.enumerated().map { i, e in
                    let receipt = Ledger.receipt(
                        e.tx, block: block, index: i, outcome: e.outcome, error: e.error, output: e.output, events: e.events)
                    let events = e.events.isEmpty ? nil : String(decoding: try encoder.encode(e.events), as: UTF8.self)
                    return StoredTransaction(tx: e.tx, receipt: receipt, eventsJSON: events)
                }
                replaying?.receipts = stored.map(\.receipt)
                try store.insert(transactions: stored)
                try store.upsert(accounts: state.accounts.map { ($0.key, $0.value) })
                try store.write(
                    contractChanges: state.contractValues.flatMap { contract, values in
                        values.map { ContractChange(contract: contract, key: $0.key, value: $0.value) }
                    }, round: round)
                if round % max(1, s.pruneEvery) == 0 {
                    if round > Ledger.historyRounds {
                        try store.pruneUndo(through: round - Ledger.historyRounds, contracts: Array(contracts.keys))
                    }
                    // Expired hashes whose creation_date admission refuses by now.
                    let (cutoff, o) = now.subtractingReportingOverflow(genesis.creationDateMaxAgeSeconds)
                    if !o { try store.pruneExpired(createdBefore: cutoff) }
                }
                try store.insertExpired(expired.map(\.tx), round: round)
                try store.removePending(expired.map(\.tx.hash) + Array(included))
                if nextRecovery != s.recovery { try store.setMeta(Ledger.recoveryKey, try Ledger.json(nextRecovery)) }
                try store.deleteMeta(Ledger.executingKey)
                try store.deleteMeta(Ledger.executingHookKey)
            }
        } catch {
            throw .storage("committing block \(round): \(error)")
        }

        // Committed: now the in-memory view follows.
        for (id, a) in state.accounts { cacheAccount(&s, id, a) }
        for h in included { s.pool.remove(h) }
        for e in expired { s.pool.remove(e.tx.hash) }
        s.recovery = nextRecovery
        s.latest = block
        committedRound.store(block.round, ordering: .releasing)
        if !ready.isEmpty { s.lastNonEmptyRound = round }
        collectWaiters(&s, includedRound: { included.contains($0) ? round : nil }, expired: Set(expired.map(\.tx.hash)), into: &resumes)
        return block
    }

    /// Takes the fee and the nonce, as every included transaction does. A fee the producer's
    /// balance cannot hold (impossible while the supply, which fits 64 bits, is conserved) is not
    /// charged rather than trapping; the producer paying itself changes nothing.
    private func chargeFeeAndNonce(_ tx: Transaction, state: BlockState) throws {
        var sender = try state.account(tx.clientID)
        sender.nonce = tx.nonce
        let fee = min(tx.fee, sender.balance)
        if fee > 0, tx.clientID != genesis.nodeID {
            var node = try state.account(genesis.nodeID)
            let (credited, overflow) = node.balance.addingReportingOverflow(fee)
            if !overflow {
                sender.balance -= fee
                node.balance = credited
                state.setAccount(genesis.nodeID, node)
            }
        }
        state.setAccount(tx.clientID, sender)
    }

    /// A transaction found at fault after a crash: included as failed, fee and nonce taken like
    /// any failed transaction, nothing of it run.
    private func setAsideExecution(_ tx: Transaction, state: BlockState) throws -> Executed {
        try chargeFeeAndNonce(tx, state: state)
        return Executed(tx: tx, outcome: .failure, error: ExecutionError(.setAside, Ledger.setAsideReason), output: "", events: [])
    }

    /// Runs one transaction against the block state. Fee and nonce are always taken; a failed
    /// transfer or contract call leaves everything else as it was.
    private func execute(_ tx: Transaction, state: BlockState, round: UInt64, now: Int64) throws -> Executed {
        try chargeFeeAndNonce(tx, state: state)
        func failed(_ code: ExecutionError.Code, _ why: String) -> Executed {
            Executed(tx: tx, outcome: .failure, error: ExecutionError(code, why), output: "", events: [])
        }
        switch tx.transactionType {
        case .transfer:
            var from = try state.account(tx.clientID)
            guard from.balance >= tx.value else {
                return failed(
                    .insufficientBalance,
                    "insufficient balance: has \(TokenAmount(baseUnits: from.balance)), needs \(TokenAmount(baseUnits: tx.value))")
            }
            // To oneself it moves nothing (reading `to` before writing `from` would mint it).
            if tx.toClientID != tx.clientID {
                var to = try state.account(tx.toClientID)
                let (credited, overflow) = to.balance.addingReportingOverflow(tx.value)
                guard !overflow else {
                    return failed(.overflow, "the recipient's balance cannot hold \(TokenAmount(baseUnits: tx.value)) more")
                }
                from.balance -= tx.value
                state.setAccount(tx.clientID, from)
                to.balance = credited
                state.setAccount(tx.toClientID, to)
            }
            return Executed(tx: tx, outcome: .success, error: nil, output: "transferred \(TokenAmount(baseUnits: tx.value))", events: [])
        case .contractCall:
            let call: ContractCall
            do { call = try ContractCall.parse(tx.transactionData) } catch { return failed(.invalidArgument, error.description) }
            guard let contract = contracts[call.contract] else { return failed(.unknownContract, "no contract named \"\(call.contract)\"") }
            let scratch = TransactionScratch(base: state)
            if tx.value > 0, tx.toClientID != tx.clientID {
                var from = try scratch.account(tx.clientID)
                guard from.balance >= tx.value else { return failed(.insufficientBalance, "insufficient balance for the call's value") }
                var to = try scratch.account(tx.toClientID)
                let (credited, overflow) = to.balance.addingReportingOverflow(tx.value)
                guard !overflow else { return failed(.overflow, "the contract's balance cannot hold the call's value") }
                from.balance -= tx.value
                scratch.setAccount(tx.clientID, from)
                to.balance = credited
                scratch.setAccount(tx.toClientID, to)
            }
            let context = ContractContext(
                caller: tx.clientID, callerPublicKey: tx.publicKey, transactionHash: tx.hash, value: tx.value, now: now, round: round,
                contractName: call.contract, gasLimit: min(call.gas ?? genesis.contractGasLimit, genesis.contractGasLimit),
                scratch: scratch)
            do {
                let output = try contract.execute(context, method: call.method, args: call.args)
                state.merge(scratch)
                return Executed(tx: tx, outcome: .success, error: nil, output: output, events: context.events)
            } catch {
                return Executed(tx: tx, outcome: .failure, error: error.executionError, output: "", events: [])
            }
        }
    }

    /// Gives every contract (in name order) its end-of-block turn, each in its own scratch layer,
    /// each recorded first so that a hook which stops the process is skipped a while instead.
    private func runEndBlockHooks(
        state: BlockState, round: UInt64, now: Int64, seed: String, skipped: [String: UInt64],
        _ store: any LedgerStore
    ) throws(LedgerError) {
        for (name, contract) in contractOrder {
            if let until = skipped[name], round <= until { continue }
            // A few bytes (not the whole record again): which hook is running in which round.
            do { try store.setMeta(Ledger.executingHookKey, "\(round) \(name)") } catch {
                throw .storage("recording the end-of-block hook of \(name): \(error)")
            }
            let scratch = TransactionScratch(base: state)
            let context = ContractContext(
                caller: "", transactionHash: seed, value: 0, now: now, round: round,
                contractName: name, gasLimit: Ledger.endBlockGasLimit, scratch: scratch)
            do {
                try contract.endBlock(context, seed: seed)
                state.merge(scratch)
            } catch {
                // The hook's changes are dropped for this block; the next block retries.
            }
        }
    }

    /// Rounds of contract-state history kept for views as of an earlier round (about a day of 1 s blocks).
    static let historyRounds: UInt64 = 100_000
    /// How often (in rounds) history older than `historyRounds` is dropped, and expired records
    /// past the `creation_date` window (`pruneEvery` holds it; tests lower it).
    static let historyPruneEvery: UInt64 = 1_000

    /// Gas for one contract's end-of-block hook (it may touch every open challenge).
    static let endBlockGasLimit: UInt64 = 5_000_000

    /// SHA-256 over the previous state root and every row this block changed, in sorted order.
    static func stateRoot(previous: String, state: BlockState) -> String {
        var w = CanonicalWriter(domain: "mosaic-state-v1")
        w.append(string: previous)
        for id in state.accounts.keys.sorted() {
            let a = state.accounts[id] ?? AccountState()
            w.append(string: id)
            w.append(uint64: a.balance)
            w.append(uint64: a.nonce)
        }
        for contract in state.contractValues.keys.sorted() {
            let values = state.contractValues[contract] ?? [:]
            for key in values.keys.sorted() {
                w.append(string: contract)
                w.append(string: key)
                if case .some(.some(let v)) = values[key] {
                    w.append(uint8: 1)
                    w.append(bytes: v)
                } else {
                    w.append(uint8: 0)
                }
            }
        }
        return Hex.encode(SHA256.hash(w.bytes))
    }

    static func receipt(
        _ tx: Transaction, block: Block, index: Int, outcome: ExecutionOutcome, error: ExecutionError?,
        output: String, events: [TransactionEvent]
    ) -> TransactionReceipt {
        TransactionReceipt(
            transactionHash: tx.hash, blockHash: block.hash, round: block.round, index: index, outcome: outcome,
            error: error, output: output, outputHash: outputHash(tx.hash, outcome, error, output), events: events)
    }

    /// SHA-256 of "mosaic-output-v2" ‖ tx hash ‖ outcome byte (0 success, 1 failure) ‖ error code ‖
    /// error message ‖ output (docs/PROTOCOL.md §2.6). Receipts stored with v1 keep their hash.
    public static func outputHash(_ txHash: String, _ outcome: ExecutionOutcome, _ error: ExecutionError?, _ output: String) -> String {
        var w = CanonicalWriter(domain: "mosaic-output-v2")
        w.append(string: txHash)
        w.append(uint8: outcome == .success ? 0 : 1)
        w.append(string: error?.code ?? "")
        w.append(string: error?.message ?? "")
        w.append(string: output)
        return Hex.encode(SHA256.hash(w.bytes))
    }
}
