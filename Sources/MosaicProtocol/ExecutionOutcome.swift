/// How a transaction's execution ended. A failed transaction is still in its block, its nonce is
/// used and its fee charged; only its other effects are undone.
public enum ExecutionOutcome: String, Sendable, Codable {
    case success
    case failure
}
