import Foundation
import MosaicCrypto
import MosaicProtocol
import Synchronization

/// The ledger engine: accepts signed transactions into a pool, produces blocks that execute them,
/// and answers reads, all over one database: SQLite (WAL) in `directory` by default, or
/// PostgreSQL (`LedgerDatabase`); either way behind the `LedgerStore` interface.
///
/// Thread safety: all mutable state is one `LedgerState` behind the `state` mutex; signature
/// checks and JSON parsing run before taking it, so submissions verify in parallel. Each block
/// commits in one database transaction: a crash leaves either the previous block or this one,
/// never half. Accepted transactions are also written to the `pending` table, so a restart
/// resumes with the pool it had.
package final class Ledger: Sendable {
    public let genesis: Genesis
    public let directory: String
    /// Where the state lives (`directory` holds genesis.json either way).
    package let database: LedgerDatabase
    public let clock: LedgerClock
    /// This node's flood limits (pool bytes, per-sender caps, cache size).
    public let limits: LedgerLimits
    /// Where the ledger reports what an operator must know (a transaction set aside after a crash).
    let log: @Sendable (String) -> Void
    /// The contracts the genesis names, built by the registry given at open.
    let contracts: [String: any Contract]
    /// `contracts` in name order: the order end-of-block hooks run in.
    let contractOrder: [(name: String, contract: any Contract)]
    /// Addresses of all contracts, which plain transfers may not target.
    let contractAddresses: Set<String>
    let producer = BlockProducer()
    /// On a shared database while the block timer runs: wakes it when another node commits a block.
    let listener = Mutex<BlockListener?>(nil)
    let readers = ReaderPool()
    /// `latest.round`, readable without `state` (held for a whole block production), so views and
    /// their round checks never wait for a block to be made.
    let committedRound = Atomic<UInt64>(0)
    /// Everything that changes: the writer connection, the pool, the latest block, waiters.
    let state: Mutex<LedgerState>
    /// This node's key: it signs the blocks this ledger makes (`node.key` in `directory` unless given).
    let signingKey: Ed25519.SigningKey
    /// Whether the genesis lets this node's key make blocks; a node it does not list only follows.
    public let mayProduce: Bool

    /// Opens the ledger in `directory` (created if needed), resuming at its last committed block.
    /// A new directory starts from `genesis`, or `directory/genesis.json` if present, or devnet
    /// defaults; the genesis used is written to `directory/genesis.json`. Reopening with a
    /// genesis of another chain id fails. The contracts are those the genesis names, built by
    /// `registry` (a name it cannot build fails the open); tests register contracts with test
    /// rules, or test-only ones, in it.
    /// `log` receives the few lines an operator must see (by default on standard error).
    /// `database` picks the store: `ledger.sqlite` in `directory` (the default) or PostgreSQL.
    /// `key` signs the blocks this node makes; by default it is `node.key` in `directory`,
    /// created on first start. A new chain whose genesis lists no producers lists this key.
    public init(
        directory: String, database: LedgerDatabase = .sqlite, genesis given: Genesis? = nil, clock: LedgerClock = LedgerClock(),
        registry: ContractRegistry = .standard, limits: LedgerLimits = LedgerLimits(), key: Ed25519.SigningKey? = nil,
        log: @escaping @Sendable (String) -> Void = Ledger.standardErrorLog
    ) throws(LedgerError) {
        self.directory = directory
        self.database = database
        self.clock = clock
        self.limits = limits
        self.log = log
        let genesisPath = (directory as NSString).appendingPathComponent("genesis.json")
        let store: any LedgerStore
        let signingKey: Ed25519.SigningKey
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw .storage("cannot create the ledger directory \(directory): \(error)")
        }
        if let key {
            signingKey = key
        } else {
            do throws(KeyFileError) { signingKey = try Ledger.nodeKey(directory: directory) } catch {
                throw .storage("cannot load this node's key: \(error.description)")
            }
        }
        do {
            store = try database.open(directory: directory, reader: false)
        } catch {
            throw .storage("cannot open ledger in \(directory) (\(database)): \(error)")
        }
        var genesis: Genesis
        let all: [String: any Contract]
        let latestBlock: Block
        let lastNonEmpty: UInt64?
        do {
            if let text = try store.meta("genesis") {
                genesis = try JSONDecoder().decode(Genesis.self, from: Data(text.utf8))
                if let given, given.chainID != genesis.chainID {
                    throw LedgerError.malformed("\(directory) holds chain \"\(genesis.chainID)\", not \"\(given.chainID)\"")
                }
                all = try registry.build(for: genesis)
            } else {
                if let given {
                    genesis = given
                } else if FileManager.default.fileExists(atPath: genesisPath) {
                    genesis = try Genesis.load(from: genesisPath)
                } else {
                    genesis = Genesis()
                }
                if genesis.producers.isEmpty { genesis.producers = [signingKey.publicKey.hex] }
                try genesis.validate()
                // Before the genesis is written: a chain this node cannot run is not started.
                all = try registry.build(for: genesis)
                try Ledger.createGenesis(genesis, in: store)
                try genesis.write(to: genesisPath)
            }
            if !FileManager.default.fileExists(atPath: genesisPath) { try genesis.write(to: genesisPath) }
            if let offset = try store.meta("clock_offset").flatMap(Int64.init), LedgerClock.validOffsets.contains(offset) {
                clock.offsetSeconds = offset
            }
            guard let block = try store.latestBlock() else { throw LedgerError.storage("no genesis block in \(directory)") }
            latestBlock = block
            committedRound.store(block.round, ordering: .releasing)
            if try store.meta("state_history_from") == nil { try store.setMeta("state_history_from", String(block.round)) }
            lastNonEmpty = try store.lastNonEmptyRound()
        } catch let e as LedgerError {
            store.close()
            throw e
        } catch {
            store.close()
            throw .storage("cannot open ledger in \(directory): \(error)")
        }
        self.genesis = genesis
        self.signingKey = signingKey
        mayProduce = Ledger.allows(genesis, signingKey)
        state = Mutex(LedgerState(store: store, latest: latestBlock, lastNonEmptyRound: lastNonEmpty))
        contracts = all
        contractOrder = all.keys.sorted().compactMap { name in all[name].map { (name, $0) } }
        contractAddresses = Set(all.keys.map { ContractCall.address(of: $0) })
        do {
            try state.withLock { s throws(LedgerError) in
                guard let store = s.store else { throw .closed }
                // On a shared database another node may be the producer: then this one follows,
                // and the pending rows it cannot admit and the recovery records are not its own.
                s.holdsLease = mayProduce ? try Ledger.askLeaseAtOpen(store) : false
                try restorePool(&s, store, owner: s.holdsLease)
                if s.holdsLease { try recoverFromInterruptedBlock(&s, store) }
            }
        } catch {
            state.withLock { $0.store?.close() }
            throw error
        }
    }

    /// The lease at open. A holder that just closed frees it a moment after (its server session
    /// ends after the client left), so a ledger reopened at once on a shared database asks a few
    /// times before it settles for following; the block timer keeps asking either way.
    private static func askLeaseAtOpen(_ store: any LedgerStore) throws(LedgerError) -> Bool {
        do {
            for _ in 0..<(store.isShared ? 49 : 0) {
                if try store.holdProducerLease() { return true }
                usleep(20_000)
            }
            return try store.holdProducerLease()
        } catch {
            throw .storage("asking for the producer lease: \(error)")
        }
    }

    /// This node's key in a ledger `directory` (`node.key`), created on first use.
    package static func nodeKey(directory: String) throws(KeyFileError) -> Ed25519.SigningKey {
        try KeyFile.signingKey(at: (directory as NSString).appendingPathComponent("node.key"))
    }

    /// Whether `genesis` lets `key` make blocks: a chain made before blocks were signed lists no
    /// producers and lets any node make them.
    static func allows(_ genesis: Genesis, _ key: Ed25519.SigningKey) -> Bool {
        genesis.producers.isEmpty || genesis.producers.contains(key.publicKey.hex)
    }

    /// The default `log`: one line on standard error.
    public static let standardErrorLog: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data("mosaic ledger: \(line)\n".utf8))
    }

    private static func createGenesis(_ g: Genesis, in store: any LedgerStore) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(g), as: UTF8.self)
        // `validate` checked that the starting balances fit 64 bits.
        guard let accounts = g.initialBalances else { throw LedgerError.malformed("genesis starting balances overflow 64 bits") }
        let zero = String(repeating: "0", count: 64)
        var root = CanonicalWriter(domain: "mosaic-state-v1")
        root.append(string: zero)
        for id in accounts.keys.sorted() {
            root.append(string: id)
            root.append(uint64: accounts[id] ?? 0)
            root.append(uint64: 0)
        }
        let block = Block(
            round: 0, previousHash: zero, timestamp: g.genesisTime, transactionRoot: Block.merkleRoot([]),
            stateRoot: Hex.encode(SHA256.hash(root.bytes)), transactionCount: 0, minerID: g.nodeID)
        try store.transaction {
            try store.setMeta("genesis", json)
            try store.setMeta("chain_id", g.chainID)
            for (id, balance) in accounts { try store.upsert(account: id, AccountState(balance: balance, nonce: 0)) }
            try store.insert(block: block)
        }
    }

    deinit { producer.stop() }

    /// Stops the block timer, wakes every waiter with its current status and closes the database.
    public func close() {
        producer.stop()
        stopListening()
        let resumes: [(Waiter, TransactionStatus?)] = state.withLock { s in
            var out: [(Waiter, TransactionStatus?)] = []
            for (hash, list) in s.waiters {
                let status = try? statusLocked(s, hash)?.status
                for w in list { out.append((w, status)) }
            }
            s.waiters.removeAll()
            s.store?.close()
            s.store = nil
            return out
        }
        readers.close()
        for (w, s) in resumes {
            w.timeout?.cancel()
            w.continuation.resume(returning: s)
        }
    }

    /// Runs `body` holding `state`, with the open store.
    func locked<R>(_ body: (inout LedgerState, any LedgerStore) throws(LedgerError) -> sending R) throws(LedgerError) -> sending R {
        try state.withLock { s throws(LedgerError) -> sending R in
            guard let store = s.store else { throw .closed }
            return try body(&s, store)
        }
    }

    /// Committed state of an account (zero if it never existed), through the cache.
    func committedAccount(_ s: inout LedgerState, _ id: String, _ store: any LedgerStore) throws(LedgerError) -> AccountState {
        if let a = s.accountCache[id] { return a }
        do {
            let a = try store.account(id) ?? AccountState()
            cacheAccount(&s, id, a)
            return a
        } catch {
            throw .storage("\(error)")
        }
    }

    /// Keeps a committed account in memory. The cache only mirrors the database (it is written after a
    /// block commits, never before), so when it reaches `limits.accountCacheEntries` it simply
    /// starts over: memory stays bounded however many accounts a flood touches, and every answer
    /// stays correct (a miss reads the database).
    func cacheAccount(_ s: inout LedgerState, _ id: String, _ a: AccountState) {
        if s.accountCache[id] == nil, s.accountCache.count >= max(1, limits.accountCacheEntries) {
            s.accountCache.removeAll(keepingCapacity: true)
        }
        s.accountCache[id] = a
    }

    /// The crash-recovery state (tests inspect it).
    var recovery: RecoveryState { state.withLock { $0.recovery } }

    /// Rounds between prunings (`Ledger.historyPruneEvery`; tests lower it).
    var pruneEvery: UInt64 {
        get { state.withLock { $0.pruneEvery } }
        set { state.withLock { $0.pruneEvery = newValue } }
    }

    // MARK: Clock

    /// Moves the ledger clock forward (or back) by `seconds` and persists the new offset, so
    /// windows and rate limits can be tested without waiting.
    /// The offset stays within `LedgerClock.validOffsets` (±100 years): a larger step is refused.
    public func advanceClock(by seconds: Int64) throws(LedgerError) {
        try locked { _, store throws(LedgerError) in
            let (offset, overflow) = clock.offsetSeconds.addingReportingOverflow(seconds)
            guard !overflow, LedgerClock.validOffsets.contains(offset) else {
                throw .invalidRequest(
                    "the ledger clock may be moved at most \(LedgerClock.validOffsets.upperBound) seconds from the system clock in total; moving by \(seconds) s from an offset of \(clock.offsetSeconds) s is out of range"
                )
            }
            do { try store.setMeta("clock_offset", String(offset)) } catch { throw .storage("\(error)") }
            clock.offsetSeconds = offset
        }
    }
}
