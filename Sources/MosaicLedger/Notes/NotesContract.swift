import Foundation
import MosaicProtocol

/// `notes.*`: one notepad per account, holding at most `maxNotes` notes (docs/NOTES.md).
///
/// State (notepads and notes as binary `ContractRecord`s; keys in byte order so one
/// prefix scan lists an account's notes by id):
/// - `stats` — `NotesStats`: notepads ever created and the next note id (ids are never reused)
/// - `pad:{owner}` — `NotepadRecord`
/// - `note:{owner}:{id, 20 digits}` — `NoteRecord`
/// - `id:{id, 20 digits}` — the owner of note `id` (so a note is found by id alone)
/// - `idx:{owner}:{id, 20 digits}` — one byte per note: the owner's ids, scanned to delete a
///   notepad without paying gas for reading every note's body
/// - `sweep:{owner}` — notes below this id are what is left of a deleted notepad; `endBlock`
///   deletes them in batches (a full notepad is more than one call's gas can delete)
///
/// A note with an id below its notepad's `first_id` belongs to a deleted notepad: invisible to
/// every method and view from the moment of deletion, whether or not it was swept yet.
package struct NotesContract: Contract {
    public static let maxTitleBytes = 256
    public static let maxBodyBytes = 16 * 1024
    public static let maxNotes = 10_000
    /// Bytes AES-256-GCM adds to a private field (12-byte nonce, 16-byte tag).
    public static let privateOverhead = 28
    /// Notes one notepad may hold (`maxNotes` unless a test lowers it).
    public let noteLimit: Int
    /// Notes `delete_notepad` removes at once; the rest go to the end-of-block sweep.
    let inlineDeleteLimit: Int
    /// Old notes the end-of-block sweep deletes per block, over all accounts.
    let sweepPerBlock: Int
    /// Gas every call pays before its own reads and writes.
    static let baseGas: UInt64 = 500

    public var name: String { "notes" }
    public var methods: [String] { ["create_notepad", "add", "edit", "delete", "delete_notepad"] }
    public var views: [String] { ["notes", "note", "notepad", "stats"] }

    public init() { self.init(noteLimit: NotesContract.maxNotes) }

    /// A contract with other limits, for tests (register it in the ledger's `ContractRegistry`, replacing the built-in one).
    public init(noteLimit: Int, inlineDeleteLimit: Int = 200, sweepPerBlock: Int = 2000) {
        self.noteLimit = noteLimit
        self.inlineDeleteLimit = inlineDeleteLimit
        self.sweepPerBlock = sweepPerBlock
    }

    public func execute(_ context: ContractContext, method: String, args: [String: JSONValue]) throws(ContractError) -> String {
        try context.consumeGas(NotesContract.baseGas)
        let a = ContractArgs(args)
        try refuseValue(context, method: method)
        switch method {
        case "create_notepad": return try createNotepad(context)
        case "add": return try add(context, a)
        case "edit": return try edit(context, a)
        case "delete": return try delete(context, a)
        case "delete_notepad": return try deleteNotepad(context)
        default: throw .unknownMethod(contract: name, method: method)
        }
    }

    public func endBlock(_ context: ContractContext, seed: String) throws(ContractError) {
        try sweep(context)
    }

    // MARK: keys

    static let statsKey = "stats"
    static func padKey(_ owner: String) -> String { "pad:" + owner }
    static func notePrefix(_ owner: String) -> String { "note:" + owner + ":" }
    static func noteKey(_ owner: String, _ id: UInt64) -> String { notePrefix(owner) + padded(id) }
    static func idKey(_ id: UInt64) -> String { "id:" + padded(id) }
    static func indexPrefix(_ owner: String) -> String { "idx:" + owner + ":" }
    static func indexKey(_ owner: String, _ id: UInt64) -> String { indexPrefix(owner) + padded(id) }
    static let sweepPrefix = "sweep:"
    static func sweepKey(_ owner: String) -> String { sweepPrefix + owner }

    /// An id as 20 decimal digits, so byte order is numeric order.
    static func padded(_ id: UInt64) -> String {
        let s = String(id)
        return String(repeating: "0", count: 20 - s.count) + s
    }

    /// The id at the end of a note key, nil if the key is not one.
    static func id(fromKey key: String) -> UInt64? {
        guard let colon = key.lastIndex(of: ":") else { return nil }
        return UInt64(key[key.index(after: colon)...])
    }

    // MARK: records

    static func encode<T: Encodable>(_ value: T) throws(ContractError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        do { return Array(try encoder.encode(value)) } catch { throw .refused(.stateUnavailable, "cannot encode \(T.self): \(error)") }
    }

    static func decode<T: Decodable>(_ bytes: [UInt8]?, key: String) throws(ContractError) -> T? {
        guard let bytes else { return nil }
        do { return try JSONDecoder().decode(T.self, from: Data(bytes)) } catch {
            throw .refused(.stateUnavailable, "notes record \(key) is unreadable: \(error)")
        }
    }

    // MARK: field rules

    /// Checks a title and a body against the limits; private fields are checked as the
    /// ciphertext of a field within the limits. Messages say what to change.
    static func validate(title: String, body: String, isPrivate: Bool) throws(ContractError) {
        if isPrivate {
            try validatePrivate(title, field: "title", min: 1, max: maxTitleBytes)
            try validatePrivate(body, field: "body", min: 0, max: maxBodyBytes)
            return
        }
        let t = title.utf8.count
        let b = body.utf8.count
        guard t >= 1 else { throw .invalidArguments("title is empty; give a title of 1 to \(maxTitleBytes) bytes") }
        guard t <= maxTitleBytes else { throw .invalidArguments("title is \(t) bytes; at most \(maxTitleBytes) bytes (UTF-8) allowed") }
        guard b <= maxBodyBytes else {
            throw .invalidArguments("body is \(b) bytes; at most \(maxBodyBytes) bytes (16 KiB, UTF-8) allowed")
        }
    }

    private static func validatePrivate(_ field: String, field name: String, min: Int, max: Int) throws(ContractError) {
        guard let bytes = Data(base64Encoded: field) else {
            throw .invalidArguments("private \(name) must be base64 ciphertext (nonce ‖ ciphertext ‖ tag)")
        }
        let plain = bytes.count - privateOverhead
        guard plain >= min else {
            throw .invalidArguments(
                min > 0
                    ? "private \(name) is empty; give a \(name) of \(min) to \(max) bytes"
                    : "private \(name) is shorter than its nonce and tag")
        }
        guard plain <= max else { throw .invalidArguments("private \(name) holds \(plain) bytes; at most \(max) bytes allowed") }
    }
}
