import Foundation
import MosaicTestSupport
import Testing

/// `mosaic notes …` as a user runs it, against a real `mosaic devnet` process.
/// Its wallets are cheap to open (`cheapWallet`): with the CLI's default Argon2id cost, its 31
/// processes took 182 s and 201 s on the loaded 2-core box. The limit bounds a hang.
@Suite(.timeLimit(.minutes(3))) struct NotesCLITests: DevnetCLITesting {
    @Test func wholeNotepadFlowLimitsAndPrivateNotes() async throws {
        let cli = try cli()
        defer { cli.cleanup() }
        let net = try await devnet(cli, blobbers: 0, blockTime: "0", confirmations: nil)
        defer { net.stopBlocking(timeout: 10) }
        let node = net.node
        let me = try cli.cheapWallet("a")
        let other = try cli.cheapWallet("b")
        #expect(try await cli.run(["wallet", "faucet", "--wallet", "a", "--json"]).code == 0)

        let none = try await cli.run(["notes", "list", "--wallet", "a"])
        #expect(none.code == 0)
        #expect(none.out.contains("no notepad yet; create one with 'mosaic notes create'"))
        // A wallet without a notepad gets one with its first note, as in the web app (no --create).
        try cli.cheapWallet("c")
        #expect(try await cli.run(["wallet", "faucet", "--wallet", "c", "--json"]).code == 0)
        let first = try await cli.run(["notes", "add", "--wallet", "c", "--title", "x", "--body", "y", "--json"])
        #expect(first.code == 0, "\(first.err)")
        #expect(first.json["note_id"] as? Int != nil)
        #expect(try await cli.run(["notes", "list", "--wallet", "c"]).out.contains("x"))

        let created = try await cli.run(["notes", "create", "--wallet", "a", "--json"])
        #expect(created.code == 0, "\(created.err)")
        #expect(created.json["status"] as? String == "sealed")
        #expect(((created.json["events"] as? [[String: Any]])?.first?["name"] as? String) == "NotepadCreated")
        let twice = try await cli.run(["notes", "create", "--wallet", "a"])
        #expect(twice.code == 1)
        #expect(twice.err.contains("already has a notepad"))

        let added = try await cli.run(["notes", "add", "--wallet", "a", "--title", "Groceries", "--body", "milk, eggs", "--json"])
        #expect(added.code == 0, "\(added.err)")
        let firstID = try #require(added.json["note_id"] as? Int)
        let event = try #require((added.json["events"] as? [[String: Any]])?.first)
        #expect(event["name"] as? String == "NoteAdded")
        #expect((event["attributes"] as? [String: String])?["id"] == String(firstID))
        let text = try await cli.run(["notes", "add", "--wallet", "a", "--title", "Secret", "--body", "under the mat", "--private"])
        #expect(text.code == 0, "\(text.err)")
        #expect(text.out.contains("(private)"))
        #expect(text.out.contains("status:      sealed"))
        #expect(text.out.contains("event:       NoteAdded"))
        // The lifecycle, stage by stage, on standard error.
        #expect(text.err.contains("pending:   "))
        #expect(text.err.contains("finalized: executed in block #"))
        #expect(text.err.contains("sealed:    "))

        // The owner sees the private note in clear (the passphrase is at hand); others and the raw API do not.
        let mine = try await cli.run(["notes", "list", "--wallet", "a", "--json"])
        let notes = try #require(mine.json["notes"] as? [[String: Any]])
        #expect(notes.map { $0["title"] as? String } == ["Groceries", "Secret"])
        #expect(notes.last?["locked"] as? Bool == false)
        let secretID = try #require(notes.last?["id"] as? Int)
        let theirs = try await cli.run(["notes", "list", "--owner", me, "--wallet", "b"])
        #expect(theirs.out.contains("🔒 private"))
        #expect(!theirs.out.contains("under the mat"))
        let raw = String(
            decoding: try Data(contentsOf: try #require(URL(string: "\(node)/v1/contracts/notes/views/note?id=\(secretID)"))), as: UTF8.self
        )
        #expect(raw.contains("\"private\":true"))
        #expect(!raw.contains("under the mat") && !raw.contains("Secret"))

        let shown = try await cli.run(["notes", "show", String(firstID)])
        #expect(shown.code == 0)
        #expect(shown.out.contains("Groceries") && shown.out.contains("milk, eggs"))
        let edited = try await cli.run([
            "notes", "edit", String(firstID), "--wallet", "a", "--title", "Groceries", "--body", "milk, eggs, bread", "--json",
        ])
        #expect(edited.code == 0, "\(edited.err)")
        #expect(try await cli.run(["notes", "show", String(firstID), "--json"]).json["body"] as? String == "milk, eggs, bread")

        // Limits, checked before anything is sent.
        let empty = try await cli.run(["notes", "add", "--wallet", "a", "--title", "", "--body", "b"])
        #expect(empty.code == 1 && empty.err.contains("title is empty"))
        let long = try await cli.run([
            "notes", "add", "--wallet", "a", "--title", String(repeating: "t", count: 257), "--body", "b", "--json",
        ])
        #expect(long.code == 1)
        #expect(long.out.contains("\"code\":\"title_too_long\""))
        let big = try await cli.run(["notes", "add", "--wallet", "a", "--title", "t", "--body", String(repeating: "b", count: 16_385)])
        #expect(big.code == 1 && big.err.contains("body is 16385 bytes; at most 16384"))
        let bad = try await cli.run(["notes", "rm", "abc", "--wallet", "a"])
        #expect(bad.code == 2 && bad.err.contains("is not a note id"))
        #expect(try await cli.run(["wallet", "faucet", "--wallet", "b", "--json"]).code == 0)
        let foreign = try await cli.run(["notes", "rm", String(firstID), "--wallet", "b"])
        #expect(foreign.code == 1 && foreign.err.contains("no notepad"))
        #expect(try await cli.run(["notes", "list", "--owner", other]).out.contains("has no notepad"))

        // A call's own gas limit: too little fails the transaction, which is recorded with its error.
        let starved = try await cli.run([
            "notes", "add", "--wallet", "a", "--title", "t", "--body", String(repeating: "b", count: 2000), "--gas", "900",
        ])
        #expect(starved.code == 1)
        #expect(starved.err.contains("failed: out of gas (limit 900)"))

        // --no-wait returns pending with the hash; the wallet's tx command waits for it.
        let quick = try await cli.run(["notes", "add", "--wallet", "a", "--title", "Later", "--no-wait", "--json"])
        #expect(quick.json["status"] as? String == "pending")
        let hash = try #require(quick.json["hash"] as? String)
        #expect(try await cli.run(["wallet", "tx", hash, "--wait", "sealed", "--json"]).json["status"] as? String == "sealed")

        let removed = try await cli.run(["notes", "rm", String(firstID), "--wallet", "a", "--json"])
        #expect(((removed.json["events"] as? [[String: Any]])?.first?["name"] as? String) == "NoteDeleted")
        let gone = try await cli.run(["notes", "show", String(firstID)])
        #expect(gone.code == 1 && gone.err.contains("note \(firstID) does not exist"))

        let dropped = try await cli.run(["notes", "drop", "--wallet", "a"])
        #expect(dropped.code == 0, "\(dropped.err)")
        #expect(dropped.out.contains("notepad deleted with 2 notes"))
        // Wallet a's notepad (3 notes, dropped) and wallet c's, made by its first note (still live).
        let stats = try await cli.run(["notes", "stats", "--json"]).json
        #expect(stats["notepads_created"] as? Int == 2)
        #expect(stats["notepads_live"] as? Int == 1)
        #expect(stats["notes_created"] as? Int == 4)
    }
}
