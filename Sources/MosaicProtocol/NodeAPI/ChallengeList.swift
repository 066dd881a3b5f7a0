/// `GET /v1/storage/blobbers/{id}/challenges`: a blobber's open challenges.
public struct ChallengeList: Sendable, Codable {
    public var challenges: [Challenge]
    public init(challenges: [Challenge]) { self.challenges = challenges }
}
