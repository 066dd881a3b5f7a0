/// The answer to one submitted transaction: accepted (`status` pending) or rejected with the
/// ledger's code and message. The batch endpoint answers one per transaction, in order.
public struct SubmissionResult: Sendable, Hashable, Codable {
    public struct Rejection: Sendable, Hashable, Codable {
        public var code: String
        public var message: String
        public init(code: String, message: String) {
            self.code = code
            self.message = message
        }
    }

    public var hash: String
    /// `pending` when accepted; nil when rejected.
    public var status: TransactionStatus?
    public var error: Rejection?

    public init(hash: String, status: TransactionStatus? = .pending, error: Rejection? = nil) {
        self.hash = hash
        self.status = status
        self.error = error
    }
}
