import Foundation
import MosaicProtocol

/// Free, unsigned reads of the notes contract through its views (docs/NOTES.md §3): answered
/// from the latest sealed round unless `round` is given. Anyone can read anyone's notes;
/// private ones stay ciphertext (`Note.isLocked`) unless read through the owner's `Notepad`.
public struct NotesClient: Sendable {
    /// The node the views are read from.
    public let client: LedgerClient

    /// - Parameter client: the node to read from.
    public init(client: LedgerClient) { self.client = client }

    /// One page of `owner`'s notes by id (ascending, or newest first with `newestFirst`).
    /// - Parameters:
    ///   - owner: the account's client id.
    ///   - after: start after this note id (a page's `nextAfter`).
    ///   - limit: notes per page.
    ///   - newestFirst: descending ids.
    ///   - round: a past round to read at; nil for the latest sealed one.
    /// - Returns: the page.
    /// - Throws: `NotesError.invalidOwner` when `owner` is not a client id; `.wallet` or
    ///   `.invalidResponse` when the view cannot be read.
    public func notes(
        owner: String, after: UInt64? = nil, limit: Int = 100, newestFirst: Bool = false,
        round: UInt64? = nil
    ) async throws(NotesError) -> NotesPage {
        guard Transaction.isHexID(owner) else { throw .invalidOwner(owner) }
        var args: [String: JSONValue] = ["owner": .string(owner), "limit": .integer(Int64(limit))]
        if let after { args["after"] = .uint(after) }
        if newestFirst { args["order"] = .string("desc") }
        let r = try await view("notes", args, round: round)
        var page: NotesPage = try NotesClient.decode(r.result, as: NotesPage.self)
        page.round = r.round
        return page
    }

    /// Every note of `owner` (all pages).
    /// - Parameters:
    ///   - owner: the account's client id.
    ///   - round: the round to read at; nil for the latest sealed one (all pages read at that one).
    /// - Returns: one page with every note.
    /// - Throws: as `notes(owner:after:limit:newestFirst:round:)`.
    public func allNotes(owner: String, round: UInt64? = nil) async throws(NotesError) -> NotesPage {
        var page = try await notes(owner: owner, limit: 500, round: round)
        var next = page.nextAfter
        while let after = next {
            let more = try await notes(owner: owner, after: after, limit: 500, round: page.round)
            page.notes += more.notes
            next = more.nextAfter
        }
        page.nextAfter = nil
        return page
    }

    /// Note `id` (any owner), or nil when no such note exists at that round.
    /// - Parameters:
    ///   - id: the note.
    ///   - round: a past round to read at; nil for the latest sealed one.
    /// - Throws: `NotesError` when the view cannot be read.
    public func note(_ id: UInt64, round: UInt64? = nil) async throws(NotesError) -> Note? {
        let r = try await view("note", ["id": .uint(id)], round: round)
        if r.result == .null { return nil }
        return try NotesClient.decode(r.result, as: Note.self)
    }

    /// `owner`'s notepad, nil when it has none.
    /// - Parameters:
    ///   - owner: the account's client id.
    ///   - round: a past round to read at; nil for the latest sealed one.
    /// - Throws: `NotesError.invalidOwner` when `owner` is not a client id, other cases when the view
    ///   cannot be read.
    public func notepad(owner: String, round: UInt64? = nil) async throws(NotesError) -> NotepadInfo? {
        guard Transaction.isHexID(owner) else { throw .invalidOwner(owner) }
        let r = try await view("notepad", ["owner": .string(owner)], round: round)
        if r.result == .null { return nil }
        return try NotesClient.decode(r.result, as: NotepadInfo.self)
    }

    /// Chain-wide counts (notepads created, deleted, live; notes created).
    /// - Parameter round: a past round to read at; nil for the latest sealed one.
    /// - Throws: `NotesError` when the view cannot be read.
    public func stats(round: UInt64? = nil) async throws(NotesError) -> NotesStats {
        try NotesClient.decode(try await view("stats", [:], round: round).result, as: NotesStats.self)
    }

    func view(_ name: String, _ args: [String: JSONValue], round: UInt64?) async throws(NotesError) -> ContractViewResult {
        do { return try await client.view(contract: "notes", name: name, args: args, round: round) } catch { throw .wallet(.node(error)) }
    }

    static func decode<T: Decodable>(_ value: JSONValue, as type: T.Type) throws(NotesError) -> T {
        do { return try JSONDecoder().decode(T.self, from: JSONEncoder().encode(value)) } catch {
            throw .invalidResponse("\(T.self): \(error)")
        }
    }
}
