import Foundation
import MosaicHTTP
import MosaicHTTPServer
import MosaicProtocol
import MosaicSDK

/// Notes: the wallet's notepad on the `notes` contract, over the SDK's `Notepad` (private notes
/// are opened here, with the session's key; the page only sees clear text of its own notes).
/// Writes answer 202 with the transaction hash at once; the page waits on
/// `/api/transactions/:hash/wait` and shows the chain's error if the call failed.
extension AppServer {
    struct NoteBody: Decodable {
        let title: String
        let body: String?
        let isPrivate: Bool?

        enum CodingKeys: String, CodingKey {
            case title, body
            case isPrivate = "private"
        }
    }

    func registerNotesRoutes() {
        api(
            .get, "/api/notes",
            summary: "A page of the wallet's notes, newest first (?limit=1–500, default 100; ?after=ID&round=R for the next page)",
            access: .wallet, parameters: [AppParameters.notesLimit, AppParameters.after, AppParameters.round], errors: [422]
        ) { [self] req in
            let pad = try notepad(req)
            let limit = try req.http[AppParameters.notesLimit]
            let after = try req.http[AppParameters.after]
            let round = try req.http[AppParameters.round]
            let page = try await mapNotes { try await pad.list(after: after, limit: limit, newestFirst: true, round: round) }
            return try AppServer.json(AppServer.pageJSON(page))
        }

        api(
            .post, "/api/notes", summary: "Add a note (creates the notepad when missing)", access: .wallet,
            body: .json(AppServer.noteSchema), statuses: [202], errors: [409, 422]
        ) { [self] req in
            let body = try req.decode(NoteBody.self)
            let pad = try notepad(req)
            let w = try await mapNotes {
                try await pad.add(
                    title: body.title, body: body.body ?? "", isPrivate: body.isPrivate ?? false, createNotepad: true, until: nil)
            }
            return try AppServer.json(["hash": w.hash], status: 202)
        }

        api(
            .put, "/api/notes/:id", summary: "Replace a note's title and body", access: .wallet,
            parameters: [AppParameters.noteID], body: .json(AppServer.noteSchema), statuses: [202], errors: [404, 409, 422]
        ) { [self] req in
            let id = try AppServer.noteID(req)
            let body = try req.decode(NoteBody.self)
            let pad = try notepad(req)
            let w = try await mapNotes {
                try await pad.edit(id, title: body.title, body: body.body ?? "", isPrivate: body.isPrivate ?? false, until: nil)
            }
            return try AppServer.json(["hash": w.hash], status: 202)
        }

        api(
            .delete, "/api/notes/:id", summary: "Delete a note", access: .wallet,
            parameters: [AppParameters.noteID], statuses: [202], errors: [404, 409, 422]
        ) { [self] req in
            let id = try AppServer.noteID(req)
            let pad = try notepad(req)
            let w = try await mapNotes { try await pad.delete(id, until: nil) }
            return try AppServer.json(["hash": w.hash], status: 202)
        }

        api(
            .delete, "/api/notepad", summary: "Delete the notepad with all its notes", access: .wallet, statuses: [202], errors: [409, 422]
        ) { [self] req in
            let pad = try notepad(req)
            let w = try await mapNotes { try await pad.deleteNotepad(until: nil) }
            return try AppServer.json(["hash": w.hash], status: 202)
        }
    }

    func notepad(_ req: AppRequest) throws -> Notepad { Notepad(wallet: try ledgerWallet(req)) }

    static func noteID(_ req: AppRequest) throws -> UInt64 { try req.http[AppParameters.noteID] }

    /// A note's title, body and privacy (the contract's own limits answer 422 with their words).
    static let noteSchema = JSONSchema.object(
        [("title", .string(maxLength: 4096)), ("body", .string(maxLength: 65536)), ("private", .boolean)],
        required: ["title"])

    static func pageJSON(_ p: NotesPage) -> [String: Any] {
        var out: [String: Any] = [
            "owner": p.owner, "round": p.round, "notes": p.notes.map(noteJSON), "notepad": NSNull(),
            "next_after": p.nextAfter.map { $0 as Any } ?? NSNull(),
        ]
        if let n = p.notepad {
            out["notepad"] = ["number": n.number, "notes": n.notes, "max_notes": n.maxNotes, "created_at": n.createdAt]
        }
        return out
    }

    static func noteJSON(_ n: Note) -> [String: Any] {
        [
            "id": n.id, "title": n.title, "body": n.body, "private": n.isPrivate, "locked": n.isLocked,
            "created_at": n.createdAt, "updated_at": n.updatedAt, "round": n.updatedRound,
        ]
    }

    /// Notes failures as HTTP answers: limits found before broadcasting are 422 with their code.
    func mapNotes<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as NotesError {
            if case .wallet(let w) = error { return try await mapWallet { () throws -> T in throw w } }
            if case .noteNotFound = error { throw HTTPError.notFound(error.description, code: error.code) }
            throw HTTPError.unprocessable(error.description, code: error.code)
        }
    }
}
