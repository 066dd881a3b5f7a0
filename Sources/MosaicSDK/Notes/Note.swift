import MosaicProtocol

/// A note as the `notes` views return it. For a private note read through `Notepad` (the
/// owner's wallet), `title` and `body` are the clear text and `isLocked` is false; read by anyone
/// else they stay ciphertext and `isLocked` is true.
public struct Note: Sendable, Hashable, Codable {
    /// The note's id, unique on the chain and never reused.
    public var id: UInt64
    /// The client id of the account whose notepad holds it.
    public var owner: String
    /// The title: clear text, or ciphertext while `isLocked`.
    public var title: String
    /// The body: clear text, or ciphertext while `isLocked`.
    public var body: String
    /// Whether title and body are encrypted to the owner on the chain.
    public var isPrivate: Bool
    /// Ledger time (unix seconds) of the `add`.
    public var createdAt: Int64
    /// Ledger time of the latest `edit` (or the `add`).
    public var updatedAt: Int64
    /// The round the note was added in.
    public var createdRound: UInt64
    /// The round of its latest change.
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

    /// Decodes the view's snake_case JSON; `isLocked` starts as `isPrivate`.
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
    /// The account the notepad belongs to.
    public var owner: String
    /// Its place among all notepads created on the chain.
    public var number: UInt64
    /// Notes it holds now.
    public var notes: Int
    /// The most it may hold.
    public var maxNotes: Int
    /// The id of its first note.
    public var firstID: UInt64
    /// Ledger time it was created.
    public var createdAt: Int64
    /// The round it was created in.
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
    /// The round the page was read at (pass it on to read the next page at the same state).
    public var round: UInt64
    /// The account the notes belong to.
    public var owner: String
    /// Nil when the account has no notepad.
    public var notepad: NotepadInfo?
    /// The notes of this page, in the order asked.
    public var notes: [Note]
    /// Pass as `after` for the next page; nil at the end.
    public var nextAfter: UInt64?

    enum CodingKeys: String, CodingKey {
        case round, owner, notepad, notes
        case nextAfter = "next_after"
    }

    /// Decodes the view's snake_case JSON.
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
    /// Notepads ever created.
    public var notepadsCreated: UInt64
    /// Notepads deleted.
    public var notepadsDeleted: UInt64
    /// Notepads that exist now.
    public var notepadsLive: UInt64
    /// Notes ever added.
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
    /// The note the write concerns; nil for notepad calls or when not waited for.
    public var noteID: UInt64?
    /// The transaction's hash.
    public var hash: String
    /// Nil when not waited for (`until: nil`).
    public var view: TransactionView?
    /// The transaction's events; empty when not waited for.
    public var events: [TransactionEvent] { view?.events ?? [] }
}
