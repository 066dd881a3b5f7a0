public enum ChallengeStatus: String, Sendable, Hashable, Codable {
    case open, passed, failed
}
