import MosaicProtocol

/// A note as the `notes` views return it. For a private note read through `Notepad` (the
/// owner's wallet), `title` and `body` are the clear text and `isLocked` is false; read by anyone
/// else they stay ciphertext and `isLocked` is true.
public struct Note: Sendable, Hashable, Codable {
    public var id: UInt64
    public var owner: String
    public var title: String
    public var body: String
    public var isPrivate: Bool
    public var createdAt: Int64
    public var updatedAt: Int64
    public var createdRound: UInt64
    public var updatedRound: UInt64
    /// A private note this reader could not decrypt.
    public var isLocked: Bool

    enum CodingKeys: String, CodingKey {
        case id, owner, title, body
        case isPrivate = "private"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case createdRound = "created_round"
        case updatedRound = "updated_round"
        case isLocked = "locked"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(UInt64.self, forKey: .id)
        owner = try c.decode(String.self, forKey: .owner)
        title = try c.decode(String.self, forKey: .title)
        body = try c.decode(String.self, forKey: .body)
        isPrivate = try c.decodeIfPresent(Bool.self, forKey: .isPrivate) ?? false
        createdAt = try c.decodeIfPresent(Int64.self, forKey: .createdAt) ?? 0
        updatedAt = try c.decodeIfPresent(Int64.self, forKey: .updatedAt) ?? 0
        createdRound = try c.decodeIfPresent(UInt64.self, forKey: .createdRound) ?? 0
        updatedRound = try c.decodeIfPresent(UInt64.self, forKey: .updatedRound) ?? 0
        isLocked = try c.decodeIfPresent(Bool.self, forKey: .isLocked) ?? isPrivate
    }
}

/// An account's notepad.
public struct NotepadInfo: Sendable, Hashable, Codable {
    public var owner: String
    /// Its place among all notepads created on the chain.
    public var number: UInt64
    public var notes: Int
    public var maxNotes: Int
    public var firstID: UInt64
    public var createdAt: Int64
    public var createdRound: UInt64

    enum CodingKeys: String, CodingKey {
        case owner, number, notes
        case maxNotes = "max_notes"
        case firstID = "first_id"
        case createdAt = "created_at"
        case createdRound = "created_round"
    }
}

/// One page of an account's notes, read at `round` (a sealed round unless asked otherwise).
public struct NotesPage: Sendable, Hashable, Codable {
    public var round: UInt64
    public var owner: String
    /// Nil when the account has no notepad.
    public var notepad: NotepadInfo?
    public var notes: [Note]
    /// Pass as `after` for the next page; nil at the end.
    public var nextAfter: UInt64?

    enum CodingKeys: String, CodingKey {
        case round, owner, notepad, notes
        case nextAfter = "next_after"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        round = try c.decodeIfPresent(UInt64.self, forKey: .round) ?? 0  // the view's result carries it outside
        owner = try c.decode(String.self, forKey: .owner)
        notepad = try c.decodeIfPresent(NotepadInfo.self, forKey: .notepad)
        notes = try c.decode([Note].self, forKey: .notes)
        nextAfter = try c.decodeIfPresent(UInt64.self, forKey: .nextAfter)
    }
}

/// Chain-wide counters of the notes contract.
public struct NotesStats: Sendable, Hashable, Codable {
    public var notepadsCreated: UInt64
    public var notepadsDeleted: UInt64
    public var notepadsLive: UInt64
    public var notesCreated: UInt64

    enum CodingKeys: String, CodingKey {
        case notepadsCreated = "notepads_created"
        case notepadsDeleted = "notepads_deleted"
        case notepadsLive = "notepads_live"
        case notesCreated = "notes_created"
    }
}

/// What a write returned once waited for: the note id it concerns (nil for notepad calls),
/// the transaction and its events (`NoteAdded`, `NoteEdited`, `NoteDeleted`, `NotepadDeleted`).
public struct NoteWrite: Sendable {
    public var noteID: UInt64?
    public var hash: String
    /// Nil when not waited for (`until: nil`).
    public var view: TransactionView?
    public var events: [TransactionEvent] { view?.events ?? [] }
}
