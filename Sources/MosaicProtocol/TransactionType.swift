/// What a transaction does; the raw value is its JSON form, `code` its byte in the signing bytes.
public enum TransactionType: String, Sendable, Codable, CaseIterable {
    /// Moves `value` from the sender to `to_client_id`.
    case transfer
    /// Runs a built-in contract named in `transaction_data`; `to_client_id` is the contract's address.
    case contractCall = "contract_call"

    var code: UInt8 {
        switch self {
        case .transfer: return 0
        case .contractCall: return 1
        }
    }
}
