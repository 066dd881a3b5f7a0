/// Life of an allocation: `active` until the owner cancels it or anyone finalizes it after expiry.
public enum AllocationStatus: String, Sendable, Hashable, Codable {
    case active, canceled, finalized
}
