import MosaicProtocol

/// Accepted transactions waiting for a block, per sender by nonce. The ledger mirrors every entry
/// in its `pending` table, so a restarted node still holds what it accepted.
struct TransactionPool {
    struct Entry {
        let tx: Transaction
        /// Arrival order, for fairness between senders.
        let seq: UInt64
        /// Latest round when accepted; the entry expires `expiryBlocks` rounds later.
        let submittedRound: UInt64
        /// value + fee, reserved from the sender's balance while pending.
        let cost: UInt64
    }

    struct Sender {
        var byNonce: [UInt64: Entry] = [:]
        var reserved: UInt64 = 0
    }

    private(set) var senders: [String: Sender] = [:]
    private(set) var hashes: [String: (sender: String, nonce: UInt64)] = [:]
    private var nextSeq: UInt64 = 0

    var count: Int { hashes.count }
    var isEmpty: Bool { hashes.isEmpty }

    func contains(_ hash: String) -> Bool { hashes[hash] != nil }

    func entry(_ hash: String) -> Entry? {
        guard let (s, n) = hashes[hash] else { return nil }
        return senders[s]?.byNonce[n]
    }

    func reserved(by sender: String) -> UInt64 { senders[sender]?.reserved ?? 0 }

    func has(sender: String, nonce: UInt64) -> Bool { senders[sender]?.byNonce[nonce] != nil }

    /// First nonce after `stateNonce` that no pending transaction of `sender` holds.
    func nextNonce(sender: String, stateNonce: UInt64) -> UInt64 {
        var n = stateNonce + 1
        guard let s = senders[sender] else { return n }
        while s.byNonce[n] != nil { n += 1 }
        return n
    }

    func pending(of sender: String) -> [Transaction] {
        (senders[sender]?.byNonce.values.map(\.tx) ?? []).sorted { $0.nonce < $1.nonce }
    }

    /// Inserts and returns the entry's arrival number.
    @discardableResult
    mutating func insert(_ tx: Transaction, cost: UInt64, round: UInt64) -> UInt64 {
        nextSeq += 1
        senders[tx.clientID, default: Sender()].byNonce[tx.nonce] = Entry(tx: tx, seq: nextSeq, submittedRound: round, cost: cost)
        senders[tx.clientID, default: Sender()].reserved += cost
        hashes[tx.hash] = (tx.clientID, tx.nonce)
        return nextSeq
    }

    @discardableResult
    mutating func remove(_ hash: String) -> Entry? {
        guard let (s, n) = hashes.removeValue(forKey: hash), var sender = senders[s],
              let e = sender.byNonce.removeValue(forKey: n) else { return nil }
        sender.reserved -= e.cost
        senders[s] = sender.byNonce.isEmpty ? nil : sender
        return e
    }

    /// Transactions that can run now, in execution order: per sender the unbroken nonce run after
    /// its state nonce; across senders by arrival, where a transaction never runs before an
    /// earlier nonce of its sender (its key is raised to its predecessor's).
    func ready(stateNonce: (String) -> UInt64, limit: Int) -> [Transaction] {
        var keyed: [(key: UInt64, nonce: UInt64, tx: Transaction)] = []
        for (id, sender) in senders {
            var n = stateNonce(id) + 1
            var key: UInt64 = 0
            while let e = sender.byNonce[n] {
                key = max(key, e.seq)
                keyed.append((key, n, e.tx))
                n += 1
            }
        }
        keyed.sort { $0.key != $1.key ? $0.key < $1.key : $0.nonce < $1.nonce }
        return keyed.prefix(limit).map(\.tx)
    }

    /// Hashes accepted at or before `round - expiryBlocks`, i.e. waited too long.
    func expired(atRound round: UInt64, expiryBlocks: UInt64) -> [Entry] {
        guard round >= expiryBlocks else { return [] }
        var out: [Entry] = []
        for s in senders.values {
            for e in s.byNonce.values where e.submittedRound + expiryBlocks <= round { out.append(e) }
        }
        return out
    }
}
