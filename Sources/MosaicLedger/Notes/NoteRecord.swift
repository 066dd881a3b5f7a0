import MosaicProtocol

/// One note as stored under `note:{owner}:{id}`. A private note's title and body are base64
/// AES-256-GCM ciphertext only the owner's wallet can open (docs/NOTES.md §4).
struct NoteRecord: Codable, Sendable {
    var id: UInt64
    var owner: String
    var title: String
    var body: String
    var isPrivate: Bool
    var createdAt: Int64
    var updatedAt: Int64
    var createdRound: UInt64
    var updatedRound: UInt64

    enum CodingKeys: String, CodingKey {
        case id, owner, title, body
        case isPrivate = "private"
        case createdAt = "created_at", updatedAt = "updated_at", createdRound = "created_round", updatedRound = "updated_round"
    }

    var json: JSONValue {
        .object(["id": .integer(Int64(clamping: id)), "owner": .string(owner), "title": .string(title), "body": .string(body),
                 "private": .bool(isPrivate), "created_at": .integer(createdAt), "updated_at": .integer(updatedAt),
                 "created_round": .integer(Int64(clamping: createdRound)), "updated_round": .integer(Int64(clamping: updatedRound))])
    }
}
