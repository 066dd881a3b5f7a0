import MosaicProtocol

/// An account's notepad, stored under `pad:{owner}`.
struct NotepadRecord: Codable, Sendable {
    var owner: String
    /// Its place among all notepads ever created on the chain (1 for the first).
    var number: UInt64
    /// Notes with a smaller id belong to an earlier, deleted notepad of the same owner.
    var firstID: UInt64
    /// Notes it holds now.
    var notes: Int
    var createdAt: Int64
    var createdRound: UInt64

    enum CodingKeys: String, CodingKey {
        case owner, number, notes
        case firstID = "first_id", createdAt = "created_at", createdRound = "created_round"
    }

    func json(maxNotes: Int) -> JSONValue {
        .object(["owner": .string(owner), "number": .integer(Int64(clamping: number)), "first_id": .integer(Int64(clamping: firstID)),
                 "notes": .integer(Int64(notes)), "max_notes": .integer(Int64(maxNotes)),
                 "created_at": .integer(createdAt), "created_round": .integer(Int64(clamping: createdRound))])
    }
}

/// Chain-wide counters, stored under `stats`.
struct NotesStats: Codable, Sendable {
    var notepadsCreated: UInt64 = 0
    var notepadsDeleted: UInt64 = 0
    /// The id the next note gets; ids start at 1 and are never reused.
    var nextID: UInt64 = 1

    enum CodingKeys: String, CodingKey {
        case notepadsCreated = "notepads_created", notepadsDeleted = "notepads_deleted", nextID = "next_id"
    }

    var json: JSONValue {
        .object(["notepads_created": .integer(Int64(clamping: notepadsCreated)),
                 "notepads_deleted": .integer(Int64(clamping: notepadsDeleted)),
                 "notepads_live": .integer(Int64(clamping: notepadsCreated &- notepadsDeleted)),
                 "notes_created": .integer(Int64(clamping: nextID &- 1))])
    }
}
