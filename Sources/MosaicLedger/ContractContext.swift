import MosaicProtocol

/// What a contract call may see and touch. Writes go to a scratch layer that the ledger keeps
/// only if the call returns normally.
package final class ContractContext {
    public let caller: String
    /// Hex Ed25519 public key of the caller (from the transaction; empty in `endBlock`).
    public let callerPublicKey: String
    public let transactionHash: String
    /// Tokens sent with the call (already moved to the contract's account).
    public let value: UInt64
    /// Ledger clock, unix seconds.
    public let now: Int64
    public let round: UInt64
    /// The contract's own account (its balance is what it can pay out).
    public let address: String
    public let gasLimit: UInt64
    public private(set) var gasUsed: UInt64 = 0
    private let scratch: TransactionScratch
    private let contractName: String
    private(set) var events: [TransactionEvent] = []

    init(
        caller: String, callerPublicKey: String = "", transactionHash: String, value: UInt64, now: Int64, round: UInt64,
        contractName: String,
        gasLimit: UInt64, scratch: TransactionScratch
    ) {
        self.caller = caller
        self.callerPublicKey = callerPublicKey
        self.transactionHash = transactionHash
        self.value = value
        self.now = now
        self.round = round
        self.contractName = contractName
        self.address = ContractCall.address(of: contractName)
        self.gasLimit = gasLimit
        self.scratch = scratch
    }

    /// Charges `amount` gas; throws once the budget is spent.
    public func consumeGas(_ amount: UInt64) throws(ContractError) {
        let (sum, overflow) = gasUsed.addingReportingOverflow(amount)
        guard !overflow, sum <= gasLimit else {
            gasUsed = gasLimit
            throw .outOfGas(limit: gasLimit)
        }
        gasUsed = sum
    }

    /// Reads a value from this contract's store (10 gas).
    public func get(_ key: String) throws(ContractError) -> [UInt8]? {
        try consumeGas(10)
        do { return try scratch.contractValue(contractName, key) } catch {
            throw .refused(.stateUnavailable, "state unavailable: \(error)")
        }
    }

    /// Writes (or with nil deletes) a value in this contract's store (50 gas + 1 per byte).
    public func set(_ key: String, _ value: [UInt8]?) throws(ContractError) {
        try consumeGas(50 + UInt64(key.utf8.count + (value?.count ?? 0)))
        scratch.setContractValue(contractName, key, value)
    }

    /// Keys of this contract's store starting with `prefix`, in UTF-8 byte order (descending when
    /// `reverse`), strictly after `after` (before it when `reverse`), at most `limit` (1…1000).
    /// Sees this block's earlier writes. 20 gas + 5 per row + 1 per byte read.
    public func scan(prefix: String, after: String? = nil, limit: Int, reverse: Bool = false) throws(ContractError) -> [ContractEntry] {
        guard (1...1000).contains(limit) else { throw .invalidArguments("a scan returns 1 to 1000 rows; asked for \(limit)") }
        try consumeGas(20)
        let rows: [ContractEntry]
        do { rows = try scratch.scan(contractName, KeyRange(prefix: prefix, after: after, limit: limit, reverse: reverse)) } catch {
            throw .refused(.stateUnavailable, "state unavailable: \(error)")
        }
        for r in rows { try consumeGas(5 + UInt64(r.key.utf8.count + r.value.count)) }
        return rows
    }

    /// Balance of any account (10 gas).
    public func balance(of clientID: String) throws(ContractError) -> UInt64 {
        try consumeGas(10)
        do { return try scratch.account(clientID).balance } catch { throw .refused(.stateUnavailable, "state unavailable: \(error)") }
    }

    /// Pays `amount` from the contract's account to `clientID` (50 gas).
    public func pay(_ amount: UInt64, to clientID: String) throws(ContractError) {
        try consumeGas(50)
        do {
            var from = try scratch.account(address)
            guard from.balance >= amount else { throw ContractError.insufficientFunds(needed: amount, available: from.balance) }
            from.balance -= amount
            scratch.setAccount(address, from)
            var to = try scratch.account(clientID)
            // Supply is conserved, so this cannot overflow on a sound ledger; refuse rather than trap.
            let (sum, overflow) = to.balance.addingReportingOverflow(amount)
            guard !overflow else { throw ContractError.refused(.overflow, "paying \(amount) would overflow the balance of \(clientID)") }
            to.balance = sum
            scratch.setAccount(clientID, to)
        } catch let e as ContractError {
            throw e
        } catch {
            throw .refused(.stateUnavailable, "state unavailable: \(error)")
        }
    }

    /// Records an event in the receipt (10 gas).
    public func emit(_ name: String, _ attributes: [String: String]) throws(ContractError) {
        try consumeGas(10)
        events.append(TransactionEvent(name: name, attributes: attributes))
    }
}
