/// The answer to a batch: one result per transaction, in order.
public struct BatchSubmissionResult: Sendable, Hashable, Codable {
    public var results: [SubmissionResult]
    public var accepted: Int
    public init(results: [SubmissionResult]) {
        self.results = results
        accepted = results.filter { $0.error == nil }.count
    }
}
