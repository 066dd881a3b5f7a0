/// The writes of one contract call, dropped when the call fails.
final class TransactionScratch {
    private let base: BlockState
    private(set) var accounts: [String: AccountState] = [:]
    private(set) var contractValues: [String: [String: [UInt8]?]] = [:]

    init(base: BlockState) { self.base = base }

    func account(_ id: String) throws -> AccountState {
        if let a = accounts[id] { return a }
        return try base.account(id)
    }

    func setAccount(_ id: String, _ state: AccountState) { accounts[id] = state }

    func contractValue(_ contract: String, _ key: String) throws -> [UInt8]? {
        if let c = contractValues[contract], let v = c[key] { return v }
        return try base.contractValue(contract, key)
    }

    func setContractValue(_ contract: String, _ key: String, _ value: [UInt8]?) {
        contractValues[contract, default: [:]][key] = .some(value)
    }

    func scan(_ contract: String, _ range: KeyRange) throws -> [ContractEntry] {
        try base.scan(contract, range, newer: contractValues[contract] ?? [:])
    }
}
