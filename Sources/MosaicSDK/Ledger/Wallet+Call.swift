import Foundation
import MosaicProtocol

/// Signed calls of any contract: `submitCall` returns once the node accepted the transaction
/// (pending); `call` also waits until `until` (sealed by default) and turns an execution the
/// chain refused into `WalletError.failed` with the chain's message, expiry into `.expired`, a
/// wait past `timeout` into `.timedOut` — never a wait without an end.
extension Wallet {
    /// Signs and submits `contract.method(args)` with the network's minimum fee. `gas` lowers the
    /// call's computation limit below the network's (it is signed with the call).
    /// - Parameters:
    ///   - contract: the contract's name.
    ///   - method: the method to call.
    ///   - args: its arguments.
    ///   - value: base units sent with the call (a lock or stake).
    ///   - gas: a lower computation limit; nil uses the network's.
    /// - Returns: the signed transaction, pending.
    /// - Throws: `WalletError.node` when the node refuses or cannot be reached.
    public func submitCall(
        contract: String, method: String, args: [String: JSONValue] = [:], value: UInt64 = 0,
        gas: UInt64? = nil
    ) async throws(WalletError) -> Transaction {
        let fee = try await networkInfo().minimumFee
        var call = ContractCall(contract: contract, method: method, args: args)
        call.gas = gas
        return try await submit(to: ContractCall.address(of: contract), value: value, fee: fee, type: .contractCall, data: call.json)
    }

    /// `submitCall`, then waits until the transaction is `until`.
    /// - Parameters:
    ///   - contract: the contract's name.
    ///   - method: the method to call.
    ///   - args: its arguments.
    ///   - value: base units sent with the call.
    ///   - gas: a lower computation limit; nil uses the network's.
    ///   - until: the status to wait for.
    ///   - timeout: the longest wait.
    /// - Returns: the transaction with its outcome and events.
    /// - Throws: `WalletError.failed` when the contract refused it, `.expired`, `.timedOut`, or
    ///   `.node` when the node refuses or cannot be reached.
    public func call(
        contract: String, method: String, args: [String: JSONValue] = [:], value: UInt64 = 0, gas: UInt64? = nil,
        until: TransactionStatus = .sealed, timeout: Duration = .seconds(60)
    ) async throws(WalletError) -> TransactionView {
        let tx = try await submitCall(contract: contract, method: method, args: args, value: value, gas: gas)
        return try await wait(for: tx.hash, until: until, timeout: timeout)
    }
}
