/// What a contract method's call pays, as the contract declares it (`Contract.feePolicy`).
package enum FeePolicy: Sendable, Hashable {
    /// At least the genesis `minimum_fee`, with up to `max_call_data_bytes` of data.
    case standard
    /// No fee, so an account with nothing can make the call (`faucet.pour`). Being free, such
    /// calls are held to the free-transaction limits: `max_free_data_bytes` of data, the ledger's
    /// `freePendingPerSender` and next-nonce rule, and the node's per-source rate limit.
    case exempt
}
