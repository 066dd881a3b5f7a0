import MosaicProtocol

/// The signed methods: every rule is checked before the first write, so a refused call
/// changes nothing (and the ledger drops a failed call's writes anyway).
extension NotesContract {
    static let noNotepad = ContractError.refused(
        .notFound,
        "this account has no notepad; create one first (notes.create_notepad, 'mosaic notes create')")

    func stats(_ context: ContractContext) throws(ContractError) -> NotesStats {
        try NotesContract.decode(try context.get(NotesContract.statsKey), key: NotesContract.statsKey) ?? NotesStats()
    }

    func notepad(_ context: ContractContext, _ owner: String) throws(ContractError) -> NotepadRecord? {
        let key = NotesContract.padKey(owner)
        return try NotepadRecord.load(try context.get(key), key: key)
    }

    func requireNotepad(_ context: ContractContext) throws(ContractError) -> NotepadRecord {
        guard let pad = try notepad(context, context.caller) else { throw NotesContract.noNotepad }
        return pad
    }

    /// The caller's visible note `id`, or a refusal naming it.
    func requireNote(_ context: ContractContext, _ pad: NotepadRecord, _ id: UInt64) throws(ContractError) -> NoteRecord {
        let key = NotesContract.noteKey(context.caller, id)
        guard id >= pad.firstID, let note = try NoteRecord.load(try context.get(key), key: key) else {
            throw .refused(.notFound, "note \(id) is not in this account's notepad")
        }
        return note
    }

    func createNotepad(_ context: ContractContext) throws(ContractError) -> String {
        if try notepad(context, context.caller) != nil {
            throw .refused(
                .alreadyExists,
                "this account already has a notepad; an account owns at most one (delete it first with notes.delete_notepad)")
        }
        let pad = try makeNotepad(context)
        return "notepad #\(pad.number) created"
    }

    private func makeNotepad(_ context: ContractContext) throws(ContractError) -> NotepadRecord {
        var stats = try stats(context)
        stats.notepadsCreated += 1
        let pad = NotepadRecord(
            owner: context.caller, number: stats.notepadsCreated, firstID: stats.nextID, notes: 0,
            createdAt: context.now, createdRound: context.round)
        try context.set(NotesContract.padKey(context.caller), pad.bytes)
        try context.set(NotesContract.statsKey, try NotesContract.encode(stats))
        try context.emit("NotepadCreated", ["owner": context.caller, "number": String(pad.number)])
        return pad
    }

    /// `add {title, body, private?, create?}`: appends a note and returns its id in the output
    /// ("note 7 added") and in the `NoteAdded` event. With `create: true` a missing notepad is
    /// created in the same call.
    func add(_ context: ContractContext, _ a: ContractArgs) throws(ContractError) -> String {
        let title = try a.string("title")
        let body = try a.optionalString("body") ?? ""
        let isPrivate = try a.bool("private")
        try NotesContract.validate(title: title, body: body, isPrivate: isPrivate)
        var pad: NotepadRecord
        if let existing = try notepad(context, context.caller) {
            pad = existing
        } else if try a.bool("create") {
            pad = try makeNotepad(context)
        } else {
            throw NotesContract.noNotepad
        }
        guard pad.notes < noteLimit else {
            throw .refused(.limitExceeded, "notepad is full: it holds \(pad.notes) notes, the most allowed; delete some first")
        }
        var stats = try stats(context)
        let id = stats.nextID
        stats.nextID += 1
        pad.notes += 1
        let note = NoteRecord(
            id: id, owner: context.caller, title: title, body: body, isPrivate: isPrivate, createdAt: context.now,
            updatedAt: context.now, createdRound: context.round, updatedRound: context.round)
        try context.set(NotesContract.noteKey(context.caller, id), note.bytes)
        try context.set(NotesContract.idKey(id), Array(context.caller.utf8))
        try context.set(NotesContract.indexKey(context.caller, id), [1])
        try context.set(NotesContract.padKey(context.caller), pad.bytes)
        try context.set(NotesContract.statsKey, try NotesContract.encode(stats))
        try context.emit("NoteAdded", ["id": String(id), "owner": context.caller, "private": String(isPrivate)])
        return "note \(id) added"
    }

    /// `edit {id, title, body, private?}`: replaces a note's title and body.
    func edit(_ context: ContractContext, _ a: ContractArgs) throws(ContractError) -> String {
        let id = try a.uint64("id")
        let title = try a.string("title")
        let body = try a.optionalString("body") ?? ""
        let isPrivate = try a.bool("private")
        try NotesContract.validate(title: title, body: body, isPrivate: isPrivate)
        let pad = try requireNotepad(context)
        var note = try requireNote(context, pad, id)
        note.title = title
        note.body = body
        note.isPrivate = isPrivate
        note.updatedAt = context.now
        note.updatedRound = context.round
        try context.set(NotesContract.noteKey(context.caller, id), note.bytes)
        try context.emit("NoteEdited", ["id": String(id), "owner": context.caller, "private": String(isPrivate)])
        return "note \(id) edited"
    }

    /// `delete {id}`: removes one note; its id is never given again.
    func delete(_ context: ContractContext, _ a: ContractArgs) throws(ContractError) -> String {
        let id = try a.uint64("id")
        var pad = try requireNotepad(context)
        _ = try requireNote(context, pad, id)
        pad.notes -= 1
        try removeNote(context, owner: context.caller, id)
        try context.set(NotesContract.padKey(context.caller), pad.bytes)
        try context.emit("NoteDeleted", ["id": String(id), "owner": context.caller])
        return "note \(id) deleted"
    }

    /// `delete_notepad`: removes the notepad and its notes. Up to `inlineDeleteLimit` notes go
    /// at once; a fuller notepad's rest is invisible at once and deleted by the end-of-block sweep.
    func deleteNotepad(_ context: ContractContext) throws(ContractError) -> String {
        let pad = try requireNotepad(context)
        let owner = context.caller
        let rows = try context.scan(prefix: NotesContract.indexPrefix(owner), limit: inlineDeleteLimit)
        for row in rows {
            guard let id = NotesContract.id(fromKey: row.key) else { continue }
            try removeNote(context, owner: owner, id)
        }
        if rows.count >= inlineDeleteLimit {
            // Notes from here up to the next id are swept after the block.
            let upTo = try stats(context).nextID
            try context.set(NotesContract.sweepKey(owner), try NotesContract.encode(upTo))
        }
        var stats = try stats(context)
        stats.notepadsDeleted += 1
        try context.set(NotesContract.statsKey, try NotesContract.encode(stats))
        try context.set(NotesContract.padKey(owner), nil)
        try context.emit("NotepadDeleted", ["owner": owner, "number": String(pad.number), "notes": String(pad.notes)])
        return "notepad #\(pad.number) deleted with \(pad.notes) note\(pad.notes == 1 ? "" : "s")"
    }

    /// Deletes a note's three keys (record, id index, owner index).
    func removeNote(_ context: ContractContext, owner: String, _ id: UInt64) throws(ContractError) {
        try context.set(NotesContract.noteKey(owner, id), nil)
        try context.set(NotesContract.idKey(id), nil)
        try context.set(NotesContract.indexKey(owner, id), nil)
    }

    /// Deletes what is left of deleted notepads, at most `sweepPerBlock` notes per block.
    func sweep(_ context: ContractContext) throws(ContractError) {
        var budget = sweepPerBlock
        let pending = try context.scan(prefix: NotesContract.sweepPrefix, limit: 16)
        for entry in pending where budget > 0 {
            let owner = String(entry.key.dropFirst(NotesContract.sweepPrefix.count))
            guard let upTo: UInt64 = try NotesContract.decode(entry.value, key: entry.key) else { continue }
            var done = false
            while budget > 0 && !done {
                let limit = min(budget, 1000)
                let rows = try context.scan(prefix: NotesContract.indexPrefix(owner), limit: limit)
                done = rows.count < limit
                for row in rows {
                    guard let id = NotesContract.id(fromKey: row.key) else { continue }
                    if id >= upTo {
                        done = true
                        break
                    }
                    try removeNote(context, owner: owner, id)
                    budget -= 1
                }
            }
            if done { try context.set(entry.key, nil) }
        }
    }
}
