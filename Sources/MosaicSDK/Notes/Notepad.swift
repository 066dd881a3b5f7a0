import Foundation
import MosaicCrypto
import MosaicProtocol

/// The wallet's own notepad on the `notes` contract: signed writes (each waited for until
/// `until`, sealed by default; nil returns once the node accepted it) and reads that open the
/// wallet's private notes. Limits are checked before anything is broadcast, so a note that
/// cannot fit costs no fee; the chain checks them again. `gas` lowers a call's computation limit
/// below the network's (a call that runs out fails, is recorded with its error and pays its fee).
public final class Notepad: Sendable {
    /// Longest title in UTF-8 bytes (of the clear text).
    public static let maxTitleBytes = 256
    /// Longest body in UTF-8 bytes (of the clear text).
    public static let maxBodyBytes = 16 * 1024
    /// Most notes one notepad holds.
    public static let maxNotes = 10_000

    /// The wallet that owns the notepad and signs its writes.
    public let wallet: Wallet
    /// The unsigned reads this notepad uses.
    public let reader: NotesClient
    let cipher: NoteCipher?
    /// Told each stage a write reaches: pending (accepted), finalized (in a block and executed,
    /// its outcome known), sealed — so a user sees the lifecycle, not just a wait.
    let progress: (@Sendable (_ hash: String, _ stage: TransactionStatus, _ view: TransactionView?) -> Void)?

    /// - Parameters:
    ///   - wallet: the owner's wallet.
    ///   - progress: told each stage a write reaches (hash, stage, the transaction once known).
    public init(wallet: Wallet, progress: (@Sendable (_ hash: String, _ stage: TransactionStatus, _ view: TransactionView?) -> Void)? = nil)
    {
        self.wallet = wallet
        reader = NotesClient(client: wallet.client)
        cipher = try? NoteCipher(signingKey: wallet.key)
        self.progress = progress
    }

    /// The owner's client id.
    public var owner: String { wallet.clientID }

    // MARK: writes

    /// Creates this account's notepad; a second one fails ("already has a notepad").
    /// - Parameters:
    ///   - gas: a lower computation limit; nil uses the network's.
    ///   - until: the status to wait for; nil returns once the node accepted it.
    ///   - timeout: the longest wait.
    /// - Returns: the write's hash and transaction.
    /// - Throws: `NotesError.wallet` with the chain's refusal or the node's error.
    @discardableResult
    public func create(gas: UInt64? = nil, until: TransactionStatus? = .sealed, timeout: Duration = .seconds(60)) async throws(NotesError)
        -> NoteWrite
    {
        try await write("create_notepad", [:], gas: gas, until: until, timeout: timeout)
    }

    /// Adds a note and returns its id (from the `NoteAdded` event; nil when not waited for).
    /// `isPrivate` encrypts title and body to this wallet before they leave it.
    /// `createNotepad` makes the notepad in the same transaction when the account has none.
    /// - Parameters:
    ///   - title: the title (1–256 bytes of clear text).
    ///   - body: the body (at most 16 KiB of clear text).
    ///   - isPrivate: encrypt title and body to this wallet.
    ///   - createNotepad: create the notepad first when there is none.
    ///   - gas: a lower computation limit; nil uses the network's.
    ///   - until: the status to wait for; nil returns once the node accepted it.
    ///   - timeout: the longest wait.
    /// - Returns: the write with the new note's id.
    /// - Throws: `NotesError` — `.emptyTitle`, `.titleTooLong`, `.bodyTooLong` before anything is
    ///   signed; `.wallet` with the chain's refusal or the node's error.
    @discardableResult
    public func add(
        title: String, body: String, isPrivate: Bool = false, createNotepad: Bool = false, gas: UInt64? = nil,
        until: TransactionStatus? = .sealed, timeout: Duration = .seconds(60)
    ) async throws(NotesError) -> NoteWrite {
        var args = try fields(title: title, body: body, isPrivate: isPrivate)
        if createNotepad { args["create"] = .bool(true) }
        var w = try await write("add", args, gas: gas, until: until, timeout: timeout)
        w.noteID = w.events.first { $0.name == "NoteAdded" }.flatMap { $0.attributes["id"] }.flatMap { UInt64($0) }
        return w
    }

    /// Replaces note `id`'s title and body.
    /// - Parameters:
    ///   - id: the note.
    ///   - title: the new title.
    ///   - body: the new body.
    ///   - isPrivate: encrypt title and body to this wallet.
    ///   - gas: a lower computation limit; nil uses the network's.
    ///   - until: the status to wait for; nil returns once the node accepted it.
    ///   - timeout: the longest wait.
    /// - Returns: the write.
    /// - Throws: `NotesError` — the same limits as `add`; `.wallet` with the chain's refusal (e.g.
    ///   no such note) or the node's error.
    @discardableResult
    public func edit(
        _ id: UInt64, title: String, body: String, isPrivate: Bool = false, gas: UInt64? = nil,
        until: TransactionStatus? = .sealed, timeout: Duration = .seconds(60)
    ) async throws(NotesError) -> NoteWrite {
        var args = try fields(title: title, body: body, isPrivate: isPrivate)
        args["id"] = .uint(id)
        var w = try await write("edit", args, gas: gas, until: until, timeout: timeout)
        w.noteID = id
        return w
    }

    /// Deletes note `id`; its id is never given to another note.
    /// - Parameters:
    ///   - id: the note.
    ///   - gas: a lower computation limit; nil uses the network's.
    ///   - until: the status to wait for; nil returns once the node accepted it.
    ///   - timeout: the longest wait.
    /// - Returns: the write.
    /// - Throws: `NotesError.wallet` with the chain's refusal or the node's error.
    @discardableResult
    public func delete(_ id: UInt64, gas: UInt64? = nil, until: TransactionStatus? = .sealed, timeout: Duration = .seconds(60))
        async throws(NotesError) -> NoteWrite
    {
        var w = try await write("delete", ["id": .uint(id)], gas: gas, until: until, timeout: timeout)
        w.noteID = id
        return w
    }

    /// Deletes the notepad with all its notes.
    /// - Parameters:
    ///   - gas: a lower computation limit; nil uses the network's.
    ///   - until: the status to wait for; nil returns once the node accepted it.
    ///   - timeout: the longest wait.
    /// - Returns: the write.
    /// - Throws: `NotesError.wallet` with the chain's refusal or the node's error.
    @discardableResult
    public func deleteNotepad(gas: UInt64? = nil, until: TransactionStatus? = .sealed, timeout: Duration = .seconds(60))
        async throws(NotesError) -> NoteWrite
    {
        try await write("delete_notepad", [:], gas: gas, until: until, timeout: timeout)
    }

    /// Checks the limits on the clear text, then encrypts private fields.
    func fields(title: String, body: String, isPrivate: Bool) throws(NotesError) -> [String: JSONValue] {
        let t = title.utf8.count
        let b = body.utf8.count
        guard t > 0 else { throw .emptyTitle }
        guard t <= Notepad.maxTitleBytes else { throw .titleTooLong(bytes: t) }
        guard b <= Notepad.maxBodyBytes else { throw .bodyTooLong(bytes: b) }
        guard isPrivate else { return ["title": .string(title), "body": .string(body)] }
        guard let cipher else { throw .invalidResponse("this wallet's note key is unavailable") }
        do {
            return [
                "title": .string(try cipher.seal(title, field: "title")), "body": .string(try cipher.seal(body, field: "body")),
                "private": .bool(true),
            ]
        } catch {
            throw .invalidResponse("cannot encrypt: \(error)")
        }
    }

    func write(
        _ method: String, _ args: [String: JSONValue], gas: UInt64? = nil, until: TransactionStatus?,
        timeout: Duration
    ) async throws(NotesError) -> NoteWrite {
        do {
            let tx = try await wallet.submitCall(contract: "notes", method: method, args: args, gas: gas)
            progress?(tx.hash, .pending, nil)
            guard let until else { return NoteWrite(noteID: nil, hash: tx.hash, view: nil) }
            if let progress, until == .sealed,
                let v = try? await wallet.client.transaction(tx.hash, wait: .finalized, timeout: min(timeout, .seconds(60))), v.round != nil
            {
                progress(tx.hash, .finalized, v)
            }
            let view = try await wallet.wait(for: tx.hash, until: until, timeout: timeout)
            progress?(tx.hash, until, view)
            return NoteWrite(noteID: nil, hash: tx.hash, view: view)
        } catch {
            throw .wallet(error)
        }
    }

    // MARK: reads

    /// This account's notepad, nil when it has none.
    /// - Parameter round: a past round to read at; nil for the latest sealed one.
    /// - Throws: `NotesError` when the view cannot be read.
    public func info(round: UInt64? = nil) async throws(NotesError) -> NotepadInfo? {
        try await reader.notepad(owner: owner, round: round)
    }

    /// A page of this account's notes with private ones opened.
    /// - Parameters:
    ///   - after: start after this note id (a page's `nextAfter`).
    ///   - limit: notes per page.
    ///   - newestFirst: descending ids.
    ///   - round: a past round to read at; nil for the latest sealed one.
    /// - Returns: the page.
    /// - Throws: `NotesError` when the view cannot be read.
    public func list(after: UInt64? = nil, limit: Int = 100, newestFirst: Bool = false, round: UInt64? = nil) async throws(NotesError)
        -> NotesPage
    {
        var page = try await reader.notes(owner: owner, after: after, limit: limit, newestFirst: newestFirst, round: round)
        page.notes = page.notes.map(open)
        return page
    }

    /// Note `id` with a private one opened when it is this wallet's.
    /// - Parameters:
    ///   - id: the note.
    ///   - round: a past round to read at; nil for the latest sealed one.
    /// - Returns: the note.
    /// - Throws: `NotesError.noteNotFound` when there is no such note; other cases when the view
    ///   cannot be read.
    public func note(_ id: UInt64, round: UInt64? = nil) async throws(NotesError) -> Note {
        guard let n = try await reader.note(id, round: round) else { throw .noteNotFound(id) }
        return open(n)
    }

    /// Opens a private note of this wallet; anything else is returned as it is.
    /// - Parameter note: a note as read.
    /// - Returns: the note with clear text, or `note` unchanged.
    public func open(_ note: Note) -> Note {
        guard note.isPrivate, note.owner == owner, let cipher,
            let title = cipher.open(note.title, field: "title"), let body = cipher.open(note.body, field: "body")
        else { return note }
        var n = note
        n.title = title
        n.body = body
        n.isLocked = false
        return n
    }
}
