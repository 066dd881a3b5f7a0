import Foundation
import MosaicProtocol
import Synchronization

extension Ledger {
    /// Runs the free, unsigned view `name` of `contract` against the state at the end of `round`
    /// (default: the latest sealed round). Views run on their own read connections, so they
    /// neither wait for nor delay block production.
    public func view(contract: String, name: String, args: [String: JSONValue] = [:], round: UInt64? = nil) throws(LedgerError)
        -> ContractViewResult
    {
        guard let c = contracts[contract] else {
            throw .notFound("no contract named \"\(contract)\"; contracts: \(contracts.keys.sorted().joined(separator: ", "))")
        }
        guard c.views.contains(name) else {
            let list = c.views.isEmpty ? "it has none" : "its views: \(c.views.joined(separator: ", "))"
            throw .notFound("contract \(contract) has no view \"\(name)\"; \(list)")
        }
        let latestRound = committedRound.load(ordering: .acquiring)
        let sealed = latestRound >= genesis.confirmations ? latestRound - genesis.confirmations : 0
        let target = round ?? sealed
        guard target <= latestRound else {
            throw .notFound("round \(target) does not exist yet; the latest round is \(latestRound) (sealed: \(sealed))")
        }
        let reader = try readers.take(self)
        defer { readers.put(reader) }
        do {
            return try reader.readTransaction { () throws -> ContractViewResult in
                let from = try reader.meta("state_history_from").flatMap(UInt64.init) ?? 0
                guard target >= from else {
                    throw LedgerError.notFound("this node keeps contract state from round \(from) on; round \(target) is older")
                }
                guard let block = try reader.block(round: target) else { throw LedgerError.notFound("round \(target) not found") }
                let state = ContractView(contract: contract, round: target, now: block.timestamp, store: reader)
                do {
                    return ContractViewResult(round: target, result: try c.view(state, name: name, args: args))
                } catch let e as ContractError {
                    switch e {
                    case .unknownView: throw LedgerError.notFound(e.description)
                    // A rule's refusal keeps the contract's code, as a receipt does.
                    case .refused: throw LedgerError.viewRefused(e.executionError)
                    default: throw LedgerError.invalidRead(e.description)
                    }
                }
            }
        } catch let e as LedgerError {
            throw e
        } catch {
            throw .store(error, "view \(contract).\(name)")
        }
    }

    /// Runs a typed view of contract `name` (registered as a `C`) against its committed state at
    /// the latest round, on a read connection: the node's contract-specific routes (`/v1/storage/…`)
    /// answer with it. Such a read has no row budget: it answers whole lists, as those routes do.
    /// A contract error (an unreadable record) is a storage error.
    public func read<C: Contract, R>(
        _ name: String, as type: C.Type,
        _ body: (C, ContractView) throws(ContractError) -> R
    ) throws(LedgerError) -> R {
        guard let contract = contracts[name] as? C else {
            throw .notFound(
                "no contract named \"\(name)\" of type \(C.self); contracts: \(contracts.keys.sorted().joined(separator: ", "))")
        }
        let reader = try readers.take(self)
        defer { readers.put(reader) }
        do {
            return try reader.readTransaction { () throws -> R in
                guard let block = try reader.latestBlock() else { throw LedgerError.storage("the ledger has no blocks") }
                let state = ContractView(
                    contract: name, round: block.round, now: block.timestamp, store: reader, budget: .max, isLatest: true)
                do { return try body(contract, state) } catch { throw LedgerError.store(error, "reading \(name)") }
            }
        } catch let e as LedgerError {
            throw e
        } catch {
            throw .store(error, "reading \(name)")
        }
    }

    /// The latest round `confirmations` blocks deep: what views read by default.
    public var sealedRound: UInt64 {
        let r = committedRound.load(ordering: .acquiring)
        return r >= genesis.confirmations ? r - genesis.confirmations : 0
    }
}

/// Read-only connections for views, reused across calls; at most `capacity` exist, and a caller
/// beyond that waits for one to be returned.
final class ReaderPool: @unchecked Sendable {
    private let condition = NSCondition()
    private var idle: [any LedgerStore] = []
    private var open = 0
    private var closed = false
    let capacity: Int

    init(capacity: Int = 4) { self.capacity = capacity }

    func take(_ ledger: Ledger) throws(LedgerError) -> any LedgerStore {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if closed { throw .closed }
            if let s = idle.popLast() { return s }
            if open < capacity {
                do {
                    let s = try ledger.database.open(directory: ledger.directory, reader: true)
                    open += 1
                    return s
                } catch { throw .store(error, "cannot open a read connection") }
            }
            condition.wait()
        }
    }

    func put(_ store: any LedgerStore) {
        condition.lock()
        defer { condition.unlock() }
        if closed {
            store.close()
            open -= 1
            return
        }
        idle.append(store)
        condition.signal()
    }

    func close() {
        condition.lock()
        defer { condition.unlock() }
        closed = true
        for s in idle { s.close() }
        open -= idle.count
        idle.removeAll()
        condition.broadcast()
    }
}
