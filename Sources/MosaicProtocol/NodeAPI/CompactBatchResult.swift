/// The answer to a binary batch: how many were accepted and only the rejected ones (by position),
/// so a large accepted batch costs a few bytes to answer.
public struct CompactBatchResult: Sendable, Hashable, Codable {
    public struct Rejected: Sendable, Hashable, Codable {
        public var index: Int
        public var hash: String
        public var code: String
        public var message: String
        public init(index: Int, hash: String, code: String, message: String) {
            self.index = index
            self.hash = hash
            self.code = code
            self.message = message
        }
    }

    public var accepted: Int
    public var rejected: [Rejected]

    public init(accepted: Int, rejected: [Rejected]) {
        self.accepted = accepted
        self.rejected = rejected
    }
}
