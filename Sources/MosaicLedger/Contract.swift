import MosaicProtocol

/// A built-in contract: Swift code reached through `contract_call` transactions. It sees only
/// its own key-value store and the balances through `ContractContext`, and every access costs gas,
/// so one call's work is bounded.
public protocol Contract: Sendable {
    /// The name used in `transaction_data` ("faucet").
    var name: String { get }
    var methods: [String] { get }
    /// Runs `method`. Throwing undoes everything the call did except the fee and nonce.
    /// Returns a short human output for the receipt.
    func execute(_ context: ContractContext, method: String, args: [String: JSONValue]) throws(ContractError) -> String
}
