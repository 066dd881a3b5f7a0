import MosaicProtocol

/// One note as stored under `note:{owner}:{id}` (binary, a `ContractRecord`). A private note's title and body are base64
/// AES-256-GCM ciphertext only the owner's wallet can open (docs/NOTES.md §4).
struct NoteRecord: Sendable, ContractRecord {
    var id: UInt64
    var owner: String
    var title: String
    var body: String
    var isPrivate: Bool
    var createdAt: Int64
    var updatedAt: Int64
    var createdRound: UInt64
    var updatedRound: UInt64

    init(
        id: UInt64, owner: String, title: String, body: String, isPrivate: Bool, createdAt: Int64, updatedAt: Int64,
        createdRound: UInt64, updatedRound: UInt64
    ) {
        self.id = id
        self.owner = owner
        self.title = title
        self.body = body
        self.isPrivate = isPrivate
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.createdRound = createdRound
        self.updatedRound = updatedRound
    }

    func write(to w: inout CanonicalWriter) {
        w.append(uint64: id)
        w.append(string: owner)
        w.append(string: title)
        w.append(string: body)
        w.append(bool: isPrivate)
        w.append(int64: createdAt)
        w.append(int64: updatedAt)
        w.append(uint64: createdRound)
        w.append(uint64: updatedRound)
    }

    init(from r: inout CanonicalReader) throws(CanonicalReader.Malformed) {
        id = try r.uint64()
        owner = try r.string()
        title = try r.string()
        body = try r.string()
        isPrivate = try r.bool()
        createdAt = try r.int64()
        updatedAt = try r.int64()
        createdRound = try r.uint64()
        updatedRound = try r.uint64()
    }

    var json: JSONValue {
        .object([
            "id": .integer(Int64(clamping: id)), "owner": .string(owner), "title": .string(title), "body": .string(body),
            "private": .bool(isPrivate), "created_at": .integer(createdAt), "updated_at": .integer(updatedAt),
            "created_round": .integer(Int64(clamping: createdRound)), "updated_round": .integer(Int64(clamping: updatedRound)),
        ])
    }
}
