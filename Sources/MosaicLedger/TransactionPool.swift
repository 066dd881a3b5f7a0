import MosaicProtocol

/// Accepted transactions waiting for a block, per sender by nonce. The ledger mirrors every entry
/// in its `pending` table, so a restarted node still holds what it accepted. It also keeps the
/// totals its flood limits are judged by: bytes overall, and count, bytes and fee-exempt entries
/// per sender. Every sum here is bounded by what admission allowed (costs by the balance, sizes
/// by `LedgerLimits`), and still checked: a violated invariant must not trap a node.
struct TransactionPool {
    struct Entry {
        let tx: Transaction
        /// Arrival order, for fairness between senders.
        let seq: UInt64
        /// Latest round when accepted; the entry expires `expiryBlocks` rounds later.
        let submittedRound: UInt64
        /// value + fee, reserved from the sender's balance while pending.
        let cost: UInt64
        /// Wire size (`Transaction.wireSize`), counted against the pool's byte limits.
        let bytes: Int
        /// Fee-exempt (a faucet pour).
        let free: Bool
    }

    struct Sender {
        var byNonce: [UInt64: Entry] = [:]
        var reserved: UInt64 = 0
        var bytes = 0
        var free = 0
    }

    private(set) var senders: [String: Sender] = [:]
    private(set) var hashes: [String: (sender: String, nonce: UInt64)] = [:]
    private(set) var totalBytes = 0
    private var nextSeq: UInt64 = 0

    var count: Int { hashes.count }
    var isEmpty: Bool { hashes.isEmpty }

    func contains(_ hash: String) -> Bool { hashes[hash] != nil }

    func entry(_ hash: String) -> Entry? {
        guard let (s, n) = hashes[hash] else { return nil }
        return senders[s]?.byNonce[n]
    }

    func reserved(by sender: String) -> UInt64 { senders[sender]?.reserved ?? 0 }

    func sender(_ id: String) -> Sender? { senders[id] }

    func has(sender: String, nonce: UInt64) -> Bool { senders[sender]?.byNonce[nonce] != nil }

    /// First nonce after `stateNonce` that no pending transaction of `sender` holds. Nonces are
    /// at most Int64.max, so the top of UInt64 is never reached; it saturates all the same.
    func nextNonce(sender: String, stateNonce: UInt64) -> UInt64 {
        guard stateNonce < UInt64.max else { return stateNonce }
        var n = stateNonce + 1
        guard let s = senders[sender] else { return n }
        while s.byNonce[n] != nil, n < UInt64.max { n += 1 }
        return n
    }

    func pending(of sender: String) -> [Transaction] {
        (senders[sender]?.byNonce.values.map(\.tx) ?? []).sorted { $0.nonce < $1.nonce }
    }

    /// Inserts and returns the entry's arrival number; nil (and nothing inserted) when a total
    /// would overflow, which admission's limits rule out.
    @discardableResult
    mutating func insert(_ tx: Transaction, cost: UInt64, round: UInt64, bytes: Int, free: Bool) -> UInt64? {
        var s = senders[tx.clientID] ?? Sender()
        let (reserved, o1) = s.reserved.addingReportingOverflow(cost)
        let (senderBytes, o2) = s.bytes.addingReportingOverflow(bytes)
        let (total, o3) = totalBytes.addingReportingOverflow(bytes)
        let (seq, o4) = nextSeq.addingReportingOverflow(1)
        guard !(o1 || o2 || o3 || o4), s.byNonce[tx.nonce] == nil, hashes[tx.hash] == nil else { return nil }
        nextSeq = seq
        s.byNonce[tx.nonce] = Entry(tx: tx, seq: seq, submittedRound: round, cost: cost, bytes: bytes, free: free)
        s.reserved = reserved
        s.bytes = senderBytes
        if free { s.free += 1 }
        senders[tx.clientID] = s
        totalBytes = total
        hashes[tx.hash] = (tx.clientID, tx.nonce)
        return seq
    }

    @discardableResult
    mutating func remove(_ hash: String) -> Entry? {
        guard let (s, n) = hashes.removeValue(forKey: hash), var sender = senders[s],
            let e = sender.byNonce.removeValue(forKey: n)
        else { return nil }
        // Totals are sums of the entries, so these never go below zero; saturate all the same.
        sender.reserved = sender.reserved >= e.cost ? sender.reserved - e.cost : 0
        sender.bytes = max(0, sender.bytes - e.bytes)
        if e.free { sender.free = max(0, sender.free - 1) }
        totalBytes = max(0, totalBytes - e.bytes)
        senders[s] = sender.byNonce.isEmpty ? nil : sender
        return e
    }

    /// Transactions that can run now, in execution order: per sender the unbroken nonce run after
    /// its state nonce; across senders by arrival, where a transaction never runs before an
    /// earlier nonce of its sender (its key is raised to its predecessor's). `excluded` hashes
    /// (suspects of a crashed block, being bisected) never run here, nor anything after them.
    func ready(stateNonce: (String) -> UInt64, limit: Int, excluded: Set<String> = []) -> [Transaction] {
        var keyed: [(key: UInt64, nonce: UInt64, tx: Transaction)] = []
        for (id, sender) in senders {
            var n = stateNonce(id) &+ 1
            var key: UInt64 = 0
            while n != 0, let e = sender.byNonce[n], !excluded.contains(e.tx.hash) {
                key = max(key, e.seq)
                keyed.append((key, n, e.tx))
                n &+= 1
            }
        }
        keyed.sort { $0.key != $1.key ? $0.key < $1.key : $0.nonce < $1.nonce }
        return keyed.prefix(max(0, limit)).map(\.tx)
    }

    /// Entries accepted at or before `round - expiryBlocks`, i.e. waited too long; `excluded`
    /// hashes (suspects being bisected) do not age out meanwhile.
    func expired(atRound round: UInt64, expiryBlocks: UInt64, excluded: Set<String> = []) -> [Entry] {
        var out: [Entry] = []
        for s in senders.values {
            for e in s.byNonce.values
            where round >= e.submittedRound && round - e.submittedRound >= expiryBlocks
                && !excluded.contains(e.tx.hash)
            {
                out.append(e)
            }
        }
        return out
    }
}
