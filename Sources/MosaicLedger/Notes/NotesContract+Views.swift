import MosaicProtocol

/// The free reads ("scripts"), answered from committed state as of a round:
/// - `notes {owner, after?, limit?, order?}` — `{"owner","notepad","notes":[…],"next_after"}`; `notepad`
///   is null when the account has none. Pages of `limit` (default 100, at most 500) notes by id,
///   ascending (`order: "desc"` for newest first); `next_after` continues, null at the end.
/// - `note {id}` — the note with its owner, or null when no visible note has that id.
/// - `notepad {owner}` — the notepad's record or null.
/// - `stats {}` — `{"notepads_created","notepads_deleted","notepads_live","notes_created"}`.
extension NotesContract {
    static let defaultPage = 100
    static let maxPage = 500

    public func view(_ state: ContractView, name: String, args: [String: JSONValue]) throws(ContractError) -> JSONValue {
        let a = ContractArgs(args)
        switch name {
        case "notes": return try notesView(state, a)
        case "note": return try noteView(state, a)
        case "notepad":
            return try notepad(state, try a.clientID("owner"))?.json(maxNotes: noteLimit) ?? .null
        case "stats":
            let s: NotesStats = try NotesContract.decode(try state.get(NotesContract.statsKey), key: NotesContract.statsKey) ?? NotesStats()
            return s.json
        default: throw .unknownView(contract: self.name, view: name)
        }
    }

    func notepad(_ state: ContractView, _ owner: String) throws(ContractError) -> NotepadRecord? {
        let key = NotesContract.padKey(owner)
        return try NotepadRecord.load(try state.get(key), key: key)
    }

    private func notesView(_ state: ContractView, _ a: ContractArgs) throws(ContractError) -> JSONValue {
        let owner = try a.clientID("owner")
        let asked = try a.optionalUInt64("limit") ?? UInt64(NotesContract.defaultPage)
        guard asked >= 1, asked <= UInt64(NotesContract.maxPage) else {
            throw .invalidArguments("\"limit\" must be 1 to \(NotesContract.maxPage)")
        }
        let limit = Int(asked)
        let order = try a.optionalString("order") ?? "asc"
        guard order == "asc" || order == "desc" else { throw .invalidArguments("\"order\" must be asc or desc") }
        let after = try a.optionalUInt64("after")
        guard let pad = try notepad(state, owner) else {
            return .object(["owner": .string(owner), "notepad": .null, "notes": .array([]), "next_after": .null])
        }
        let prefix = NotesContract.notePrefix(owner)
        let reverse = order == "desc"
        var cursor: String? = after.map { NotesContract.noteKey(owner, $0) }
        if !reverse, pad.firstID > 0, (after ?? 0) < pad.firstID {
            // Skip what is left of an earlier notepad (ids below first_id).
            cursor = pad.firstID > 1 ? NotesContract.noteKey(owner, pad.firstID - 1) : nil
        }
        var notes: [JSONValue] = []
        var last: UInt64?
        var more = false
        let rows = try state.scan(prefix: prefix, after: cursor, limit: limit + 1, reverse: reverse)
        for row in rows {
            guard let id = NotesContract.id(fromKey: row.key), id >= pad.firstID else { break }
            if notes.count == limit {
                more = true
                break
            }
            guard let note = try NoteRecord.load(row.value, key: row.key) else { continue }
            notes.append(note.json)
            last = id
        }
        return .object([
            "owner": .string(owner), "notepad": pad.json(maxNotes: noteLimit), "notes": .array(notes),
            "next_after": more ? last.map { .integer(Int64(clamping: $0)) } ?? .null : .null,
        ])
    }

    private func noteView(_ state: ContractView, _ a: ContractArgs) throws(ContractError) -> JSONValue {
        let id = try a.uint64("id")
        guard let ownerBytes = try state.get(NotesContract.idKey(id)) else { return .null }
        let owner = String(decoding: ownerBytes, as: UTF8.self)
        guard let pad = try notepad(state, owner), id >= pad.firstID else { return .null }
        let key = NotesContract.noteKey(owner, id)
        guard let note = try NoteRecord.load(try state.get(key), key: key) else { return .null }
        return note.json
    }
}
