import MosaicProtocol

/// A built-in contract: Swift code reached through `contract_call` transactions. It sees only
/// its own key-value store and the balances through `ContractContext`, and every access costs gas,
/// so one call's work is bounded.
///
/// The engine knows contracts only through this protocol: genesis names the contracts a chain
/// runs and a `ContractRegistry` builds them, so adding one touches neither the engine nor its
/// fee, block or read paths.
package protocol Contract: Sendable {
    /// The name used in `transaction_data` ("faucet").
    var name: String { get }
    var methods: [String] { get }
    /// Runs `method`. Throwing undoes everything the call did except the fee and nonce.
    /// Returns a short human output for the receipt.
    func execute(_ context: ContractContext, method: String, args: [String: JSONValue]) throws(ContractError) -> String
    /// What a call of `method` pays (only asked for methods in `methods`). Default: `.standard`.
    func feePolicy(method: String) -> FeePolicy
    /// Runs after the transactions of every block, before the block's state root is computed (the
    /// storage contract issues and expires challenges here). `seed` is the hex hash of the previous
    /// block: known to nobody before that block was made, the same on every node. The context's
    /// caller is empty and its value 0. Throwing drops this hook's changes for the block.
    func endBlock(_ context: ContractContext, seed: String) throws(ContractError)
    /// Whether the committed state `state` (the latest round) needs blocks even when no transaction
    /// waits, because `endBlock` has work to do (the storage contract: pairs to challenge, open
    /// challenges to expire). Asked on every idle tick of the block timer, so it must be a few key
    /// reads at most; throwing counts as no. Default: false.
    func wantsBlocks(_ state: ContractView) throws(ContractError) -> Bool
    /// Names of the read-only views anyone may run for free (`Ledger.view`).
    var views: [String] { get }
    /// Runs view `name` against the state `state` exposes. Views never change state.
    func view(_ state: ContractView, name: String, args: [String: JSONValue]) throws(ContractError) -> JSONValue
    /// Fills this contract's fields of `GET /v1/network` (the faucet: its address and pour
    /// amount), so the engine names no contract. Default: nothing.
    func contribute(to info: inout NetworkInfo)
    /// Fills this contract's fields of the supply check from its own account's committed
    /// `balance` (the faucet: what it still holds). Default: nothing.
    func contribute(to report: inout SupplyReport, balance: UInt64)
}

extension Contract {
    /// Refuses tokens sent with a call of `method` unless it is one of `takingValue`: they would
    /// sit in the contract with no record saying whose they are. `note` ends the message (which
    /// methods do take a value).
    func refuseValue(_ context: ContractContext, method: String, takingValue: Set<String> = [], note: String = "") throws(ContractError) {
        guard context.value > 0, methods.contains(method), !takingValue.contains(method) else { return }
        throw .invalidArguments("\(name).\(method) takes no tokens; send it with value 0" + note)
    }

    public func feePolicy(method: String) -> FeePolicy { .standard }
    public func endBlock(_ context: ContractContext, seed: String) throws(ContractError) {}
    public func wantsBlocks(_ state: ContractView) throws(ContractError) -> Bool { false }
    public var views: [String] { [] }
    public func view(_ state: ContractView, name: String, args: [String: JSONValue]) throws(ContractError) -> JSONValue {
        throw .unknownView(contract: self.name, view: name)
    }
    public func contribute(to info: inout NetworkInfo) {}
    public func contribute(to report: inout SupplyReport, balance: UInt64) {}
}
