import MosaicProtocol

/// The changes a block makes, layered over committed state. Nothing reaches SQLite or the
/// ledger's cache until the whole block commits, so a failed commit leaves no trace.
final class BlockState {
    private let loadAccount: (String) throws -> AccountState
    private let loadContract: (String, String) throws -> [UInt8]?
    private let scanContract: (String, KeyRange, Int) throws -> [ContractEntry]
    private(set) var accounts: [String: AccountState] = [:]
    /// Keyed by contract, then key; nil values are deletions.
    private(set) var contractValues: [String: [String: [UInt8]?]] = [:]

    init(
        loadAccount: @escaping (String) throws -> AccountState, loadContract: @escaping (String, String) throws -> [UInt8]?,
        scanContract: @escaping (String, KeyRange, Int) throws -> [ContractEntry]
    ) {
        self.loadAccount = loadAccount
        self.loadContract = loadContract
        self.scanContract = scanContract
    }

    /// Over `store`'s committed state, with committed accounts read through `cache` first (the
    /// ledger's cache as of now: a block's reads of committed accounts need no lock of their own).
    convenience init(committed store: any LedgerStore, cache: [String: AccountState]) {
        self.init(
            loadAccount: { id in try cache[id] ?? store.account(id) ?? AccountState() },
            loadContract: { c, k in try store.contractValue(c, k) },
            scanContract: { c, range, limit in try store.scan(c, range, limit: limit) })
    }

    func account(_ id: String) throws -> AccountState {
        if let a = accounts[id] { return a }
        return try loadAccount(id)
    }

    func setAccount(_ id: String, _ state: AccountState) { accounts[id] = state }

    func contractValue(_ contract: String, _ key: String) throws -> [UInt8]? {
        if let c = contractValues[contract], let v = c[key] { return v }
        return try loadContract(contract, key)
    }

    func setContractValue(_ contract: String, _ key: String, _ value: [UInt8]?) {
        contractValues[contract, default: [:]][key] = .some(value)
    }

    /// `range` over committed state with this block's writes and then `newer` on top.
    func scan(_ contract: String, _ range: KeyRange, newer: [String: [UInt8]?]) throws -> [ContractEntry] {
        var overlay: [String: [UInt8]?] = [:]
        for (k, v) in contractValues[contract] ?? [:] where range.contains(k) { overlay[k] = .some(v) }
        for (k, v) in newer where range.contains(k) { overlay[k] = .some(v) }
        let base = try scanContract(contract, range, range.limit + overlay.count)
        return range.merge(base: base, overlay: overlay)
    }

    /// Keeps the changes of one successful contract call.
    func merge(_ scratch: TransactionScratch) {
        for (id, a) in scratch.accounts { accounts[id] = a }
        for (contract, values) in scratch.contractValues {
            for (k, v) in values { contractValues[contract, default: [:]][k] = .some(v) }
        }
    }
}
