import MosaicProtocol

/// An account's notepad, stored under `pad:{owner}` (binary, a `ContractRecord`).
struct NotepadRecord: Sendable, ContractRecord {
    var owner: String
    /// Its place among all notepads ever created on the chain (1 for the first).
    var number: UInt64
    /// Notes with a smaller id belong to an earlier, deleted notepad of the same owner.
    var firstID: UInt64
    /// Notes it holds now.
    var notes: Int
    var createdAt: Int64
    var createdRound: UInt64

    init(owner: String, number: UInt64, firstID: UInt64, notes: Int, createdAt: Int64, createdRound: UInt64) {
        self.owner = owner
        self.number = number
        self.firstID = firstID
        self.notes = notes
        self.createdAt = createdAt
        self.createdRound = createdRound
    }

    func write(to w: inout CanonicalWriter) {
        w.append(string: owner)
        w.append(uint64: number)
        w.append(uint64: firstID)
        w.append(uint64: UInt64(max(0, notes)))
        w.append(int64: createdAt)
        w.append(uint64: createdRound)
    }

    init(from r: inout CanonicalReader) throws(CanonicalReader.Malformed) {
        owner = try r.string()
        number = try r.uint64()
        firstID = try r.uint64()
        notes = Int(clamping: try r.uint64())
        createdAt = try r.int64()
        createdRound = try r.uint64()
    }

    func json(maxNotes: Int) -> JSONValue {
        .object([
            "owner": .string(owner), "number": .integer(Int64(clamping: number)), "first_id": .integer(Int64(clamping: firstID)),
            "notes": .integer(Int64(notes)), "max_notes": .integer(Int64(maxNotes)),
            "created_at": .integer(createdAt), "created_round": .integer(Int64(clamping: createdRound)),
        ])
    }
}

/// Chain-wide counters, stored under `stats`.
struct NotesStats: Codable, Sendable {
    var notepadsCreated: UInt64 = 0
    var notepadsDeleted: UInt64 = 0
    /// The id the next note gets; ids start at 1 and are never reused.
    var nextID: UInt64 = 1

    enum CodingKeys: String, CodingKey {
        case notepadsCreated = "notepads_created"
        case notepadsDeleted = "notepads_deleted"
        case nextID = "next_id"
    }

    var json: JSONValue {
        .object([
            "notepads_created": .integer(Int64(clamping: notepadsCreated)),
            "notepads_deleted": .integer(Int64(clamping: notepadsDeleted)),
            "notepads_live": .integer(Int64(clamping: notepadsCreated &- notepadsDeleted)),
            "notes_created": .integer(Int64(clamping: nextID &- 1)),
        ])
    }
}
