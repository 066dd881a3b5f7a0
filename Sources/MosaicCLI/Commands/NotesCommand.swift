import Foundation
import MosaicProtocol
import MosaicSDK

/// `mosaic notes …`: the notepad dApp on the ledger's `notes` contract (docs/NOTES.md). Writes
/// are signed by the wallet and wait until sealed unless `--no-wait`; reads are free views of
/// the latest sealed round (or `--round`).
enum NotesCommand {
    static let command = Command(
        name: "notes", summary: "a notepad on the ledger: one per account, notes by id",
        discussion:
            "Writes cost the network's minimum fee and wait until sealed (--no-wait returns once the node accepted them). Reads are free and need no passphrase. Notes are public unless --private, which encrypts title and body to your wallet.",
        examples: [
            "mosaic notes create", "mosaic notes add --title Groceries --body 'milk, eggs'",
            "mosaic notes add --title Diary --body '…' --private", "mosaic notes list", "mosaic notes show 7",
            "mosaic notes edit 7 --title Groceries --body 'milk, eggs, bread'", "mosaic notes rm 7", "mosaic notes drop",
        ],
        subcommands: [create, add, edit, rm, drop, list, show, stats])

    /// What every write takes: waiting, and a gas limit.
    struct WriteOptions: CommandOptions {
        var wait = WaitOptions()
        @Option("gas", "N", help: "computation limit for this call, below the network's (default: the network's limit)") var gas: GasLimit?

        var until: TransactionStatus? { wait.noWait ? nil : .sealed }
    }

    /// A note's content, for `add` and `edit`.
    struct NoteFields: CommandOptions {
        @Option("title", "TEXT", help: "the note's title, 1 to 256 bytes") var title: String
        @Option("body", "TEXT", help: "the note's text, up to 16 KiB") var body = ""
        @Flag("private", help: "encrypt title and body so only this wallet can read them") var isPrivate: Bool
    }

    struct AddOptions: CommandOptions {
        var note = NoteFields()
        @Flag("create", help: "no longer needed: a wallet without a notepad gets one with its first note") var create: Bool
        var write = WriteOptions()
    }

    struct EditOptions: CommandOptions {
        var note = NoteFields()
        var write = WriteOptions()
    }

    /// How a read sees the notes: at which round, and whether to open private ones.
    struct ReadOptions: CommandOptions {
        @Option("round", "N", help: "read as of this round (default: the latest sealed one)") var round: WholeNumber?
        @Flag("decrypt", help: "unlock the wallet to show its private notes in clear") var decrypt: Bool
    }

    struct ListOptions: CommandOptions {
        @Option("owner", "CLIENT_ID", help: "whose notes (default: this wallet's)") var owner: String?
        @Option("limit", "N", help: "how many (default 100, at most 500)") var limit = NotesLimit(value: 100)
        @Option("after", "ID", help: "start after this note id") var after: WholeNumber?
        @Flag("newest", help: "newest first") var newest: Bool
        var read = ReadOptions()
    }

    static let create = Command(
        name: "create", summary: "create this wallet's notepad (one per account)",
        examples: ["mosaic notes create", "mosaic notes create --no-wait --json"], options: WriteOptions.self,
        action: { o, inv in
            let (ctx, pad) = try notepad(inv)
            let w = try await pad.create(gas: o.gas?.value, until: o.until, timeout: o.wait.duration)
            let number = w.events.first { $0.name == "NotepadCreated" }?.attributes["number"]
            return try output(ctx, w, headline: number.map { "notepad #\($0) created" } ?? "notepad creation submitted")
        })

    static let add = Command(
        name: "add", summary: "add a note; prints its id",
        examples: [
            "mosaic notes add --title Groceries --body 'milk, eggs'", "mosaic notes add --title Secret --body '…' --private --json",
        ],
        options: AddOptions.self,
        action: { o, inv in
            let (ctx, pad) = try notepad(inv)
            let w = try await pad.add(
                title: o.note.title, body: o.note.body, isPrivate: o.note.isPrivate,
                createNotepad: true, gas: o.write.gas?.value, until: o.write.until, timeout: o.write.wait.duration)
            return try output(
                ctx, w, headline: w.noteID.map { "note \($0) added" + (o.note.isPrivate ? " (private)" : "") } ?? "note submitted")
        })

    static let edit = Command(
        name: "edit", summary: "replace a note's title and body",
        usage: "ID", examples: ["mosaic notes edit 7 --title Groceries --body 'milk, eggs, bread'"],
        options: EditOptions.self, arguments: ["ID"], minArguments: 1, maxArguments: 1,
        action: { o, inv in
            let id = try noteID(inv)
            let (ctx, pad) = try notepad(inv)
            let w = try await pad.edit(
                id, title: o.note.title, body: o.note.body, isPrivate: o.note.isPrivate,
                gas: o.write.gas?.value, until: o.write.until, timeout: o.write.wait.duration)
            return try output(ctx, w, headline: "note \(id) edited")
        })

    static let rm = Command(
        name: "rm", summary: "delete a note", usage: "ID", examples: ["mosaic notes rm 7"],
        options: WriteOptions.self, arguments: ["ID"], minArguments: 1, maxArguments: 1,
        action: { o, inv in
            let id = try noteID(inv)
            let (ctx, pad) = try notepad(inv)
            let w = try await pad.delete(id, gas: o.gas?.value, until: o.until, timeout: o.wait.duration)
            return try output(ctx, w, headline: "note \(id) deleted")
        })

    static let drop = Command(
        name: "drop", summary: "delete this wallet's notepad with all its notes",
        examples: ["mosaic notes drop"], options: WriteOptions.self,
        action: { o, inv in
            let (ctx, pad) = try notepad(inv)
            let w = try await pad.deleteNotepad(gas: o.gas?.value, until: o.until, timeout: o.wait.duration)
            let n = w.events.first { $0.name == "NotepadDeleted" }?.attributes["notes"]
            return try output(
                ctx, w, headline: n.map { "notepad deleted with \($0) note\($0 == "1" ? "" : "s")" } ?? "notepad deletion submitted")
        })

    static let list = Command(
        name: "list", summary: "list an account's notes (default: this wallet's)",
        examples: ["mosaic notes list", "mosaic notes list --owner 3c2580b8…7801 --json", "mosaic notes list --limit 20 --after 40"],
        options: ListOptions.self,
        action: { o, inv in
            let limit = o.limit.value
            let after = o.after?.value
            let round = o.read.round?.value
            let owner = o.owner?.lowercased()
            let ctx = try LedgerContext(inv, needsWallet: owner == nil)
            let who = owner ?? ctx.stored?.clientID ?? ""
            guard Transaction.isHexID(who) else { throw NotesError.invalidOwner(who) }
            var page = try await NotesClient(client: ctx.client).notes(
                owner: who, after: after, limit: limit, newestFirst: o.newest, round: round)
            if let opener = try opener(inv, ctx, decrypt: o.read.decrypt, owner: who, notes: page.notes) {
                page.notes = page.notes.map(opener.open)
            }
            return CommandOutput(text: listText(page, mine: owner == nil), json: try pageJSON(page))
        })

    static let show = Command(
        name: "show", summary: "show one note by id", usage: "ID",
        examples: ["mosaic notes show 7", "mosaic notes show 7 --json"],
        options: ReadOptions.self, arguments: ["ID"], minArguments: 1, maxArguments: 1,
        action: { o, inv in
            let id = try noteID(inv)
            let round = o.round?.value
            let ctx = try LedgerContext(inv, needsWallet: false)
            guard var note = try await NotesClient(client: ctx.client).note(id, round: round) else { throw NotesError.noteNotFound(id) }
            if let opener = try opener(inv, ctx, decrypt: o.decrypt, owner: note.owner, notes: [note]) { note = opener.open(note) }
            var rows: [(String, String)] = [("id", String(note.id)), ("owner", note.owner), ("title", note.title)]
            if note.isPrivate {
                rows.append(
                    ("private", note.isLocked ? "yes (encrypted to its owner; shown as stored)" : "yes (decrypted with your wallet)"))
            }
            rows += [
                ("created", UTCTime.dateTime(note.createdAt) + " UTC (block #\(note.createdRound))"),
                ("updated", UTCTime.dateTime(note.updatedAt) + " UTC (block #\(note.updatedRound))"),
            ]
            let width = rows.map(\.0.count).max() ?? 0
            let head = rows.map { $0.0 + ":" + String(repeating: " ", count: width - $0.0.count + 2) + $0.1 }.joined(separator: "\n")
            return CommandOutput(text: head + "\n\n" + note.body, json: try noteJSON(note))
        })

    static let stats = Command(
        name: "stats", summary: "chain-wide notepad counts",
        examples: ["mosaic notes stats --json"],
        action: { inv in
            let ctx = try LedgerContext(inv, needsWallet: false)
            let s = try await NotesClient(client: ctx.client).stats()
            return CommandOutput(
                text:
                    "notepads created: \(s.notepadsCreated) (live \(s.notepadsLive), deleted \(s.notepadsDeleted))\nnotes created: \(s.notesCreated)",
                json: try .output(s))
        })

    // MARK: helpers

    static func notepad(_ inv: Invocation) throws -> (LedgerContext, Notepad) {
        let ctx = try LedgerContext(inv)
        let quiet = inv.json
        return (
            ctx,
            Notepad(wallet: try ctx.unlockedWallet()) { hash, stage, view in
                guard !quiet else { return }
                // The lifecycle on standard error: pending → finalized (executed) → sealed.
                switch stage {
                case .pending: Console.err("pending:   \(hash) accepted by the node\n")
                case .finalized:
                    let round = view?.round.map { "block #\($0)" } ?? "a block"
                    Console.err("finalized: executed in \(round) (\(view?.outcome?.rawValue ?? "?")); waiting until it is sealed…\n")
                case .sealed: Console.err("sealed:    \(view?.confirmations ?? 0) blocks after it\n")
                case .expired: break
                }
            }
        )
    }

    static func noteID(_ inv: Invocation) throws -> UInt64 {
        guard let id = UInt64(inv.arguments[0]), id > 0 else {
            throw CLIError.usage("'\(inv.arguments[0])' is not a note id (a whole number; see 'mosaic notes list')")
        }
        return id
    }

    /// The wallet's notepad to open private notes with, when they are this wallet's and a
    /// passphrase is at hand (`--decrypt`, `--passphrase-file` or MOSAIC_PASSPHRASE).
    static func opener(_ inv: Invocation, _ ctx: LedgerContext, decrypt: Bool, owner: String, notes: [Note]) throws -> Notepad? {
        guard notes.contains(where: \.isPrivate) else { return nil }
        let canUnlock =
            decrypt || inv.global.passphraseFile != nil || inv.environment[PassphraseSource.environmentVariable] != nil
        guard canUnlock else { return nil }
        let name = try ctx.keystore.resolveName(inv.global.wallet)
        guard try ctx.keystore.wallet(named: name).clientID == owner else { return nil }
        let passphrase = try PassphraseSource.resolve(
            passphraseFile: inv.global.passphraseFile, environment: inv.environment,
            prompt: "Passphrase for wallet \(name): ")
        return Notepad(wallet: Wallet(try ctx.keystore.unlock(name: name, passphrase: passphrase), client: ctx.client))
    }

    static func output(_ ctx: LedgerContext, _ w: NoteWrite, headline: String) throws -> CommandOutput {
        var lines = [headline, "transaction: \(w.hash)"]
        if let v = w.view, let round = v.round {
            lines.append("status:      \(v.status.rawValue) in block #\(round)")
            for e in v.events ?? [] {
                lines.append(
                    "event:       \(e.name) "
                        + e.attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))
            }
        } else {
            lines.append("status:      pending (check with 'mosaic wallet tx \(w.hash) --wait sealed')")
        }
        lines.append("explorer:    \(ctx.explorer(w.hash))")
        return CommandOutput(
            text: lines.joined(separator: "\n"),
            json: .object([
                ("hash", .string(w.hash)), ("status", .string(w.view?.status.rawValue ?? "pending")),
                ("note_id", w.noteID.map { .unsigned($0) } ?? .null), ("round", w.view?.round.map { .unsigned($0) } ?? .null),
                ("output", .optional(w.view?.output)), ("events", try .output(w.events)), ("explorer_url", .string(ctx.explorer(w.hash))),
            ]))
    }

    // `--json` prints what the SDK reads: the types' own Codable form (`JSONValue.output`).
    static func noteJSON(_ n: Note) throws -> JSONValue { try .output(n) }
    static func pageJSON(_ p: NotesPage) throws -> JSONValue { try .output(p) }

    static func listText(_ p: NotesPage, mine: Bool) -> String {
        guard let pad = p.notepad else {
            return mine ? "this wallet has no notepad yet; create one with 'mosaic notes create'" : "account \(p.owner) has no notepad"
        }
        var out = "notepad #\(pad.number) of \(p.owner): \(pad.notes) note\(pad.notes == 1 ? "" : "s") (as of block #\(p.round))"
        if p.notes.isEmpty { return out + (mine ? "\nno notes yet; add one with 'mosaic notes add --title T --body B'" : "") }
        var table = Table(["ID", "UPDATED (UTC)", "TITLE", "BODY"])
        for n in p.notes {
            let title = n.isLocked ? "🔒 private" : n.title
            let body = n.isLocked ? "(encrypted)" : n.body.replacingOccurrences(of: "\n", with: " ")
            table.add([String(n.id), UTCTime.dateTime(n.updatedAt), String(title.prefix(40)), String(body.prefix(60))])
        }
        out += "\n" + table.rendered()
        if p.notes.contains(where: \.isLocked) && mine { out += "\nprivate notes are encrypted; add --decrypt to show them" }
        if let next = p.nextAfter { out += "\nmore: --after \(next)" }
        return out
    }
}
