import Foundation
import MosaicCrypto
import MosaicProtocol
import Testing

@testable import MosaicLedger

/// The notes contract against a real ledger in a temporary directory: ownership, ids, limits,
/// events, gas, views as of a round, and deleting a notepad larger than one call can sweep.
@Suite struct NotesContractTests {
    final class Notes {
        let net: TestNet
        var nonces: [String: UInt64] = [:]

        init(_ contract: NotesContract? = nil) throws {
            net = try TestNet(confirmations: 0, contracts: contract.map { [$0] } ?? [])
        }

        /// Submits `notes.method(args)` signed by `key`, makes a block, returns the record.
        @discardableResult
        func call(_ key: Ed25519.SigningKey, _ method: String, _ args: [String: JSONValue] = [:], gas: UInt64? = nil) throws
            -> TransactionRecord
        {
            let id = key.publicKey.clientID
            let nonce = (nonces[id] ?? 0) + 1
            nonces[id] = nonce
            let tx = Transaction.signed(
                by: key, chainID: net.genesis.chainID, to: ContractCall.address(of: "notes"), value: 0,
                fee: net.genesis.minimumFee, nonce: nonce, type: .contractCall,
                data: ContractCall(contract: "notes", method: method, args: args, gas: gas).json,
                creationDate: net.now)
            try net.ledger.submit(tx)
            _ = try net.ledger.produceBlock()
            return try #require(try net.ledger.transaction(tx.hash))
        }

        func add(_ key: Ed25519.SigningKey, _ title: String, _ body: String = "b", extra: [String: JSONValue] = [:]) throws
            -> TransactionRecord
        {
            try call(key, "add", ["title": .string(title), "body": .string(body)].merging(extra) { $1 })
        }

        func view(_ name: String, _ args: [String: JSONValue] = [:], round: UInt64? = nil) throws -> JSONValue {
            try net.ledger.view(contract: "notes", name: name, args: args, round: round).result
        }

        func list(_ key: Ed25519.SigningKey, _ extra: [String: JSONValue] = [:], round: UInt64? = nil) throws -> [[String: JSONValue]] {
            guard
                case .object(let page) = try view("notes", ["owner": .string(key.publicKey.clientID)].merging(extra) { $1 }, round: round),
                case .array(let notes)? = page["notes"]
            else { return [] }
            return notes.compactMap { if case .object(let o) = $0 { return o.dictionary } else { return nil } }
        }

        func ids(_ key: Ed25519.SigningKey, _ extra: [String: JSONValue] = [:]) throws -> [Int64] {
            try list(key, extra).compactMap { $0["id"]?.integerValue }
        }

        func raw(_ key: String) throws -> [UInt8]? { try net.ledger.contractValue("notes", key: key) }
    }

    static func succeeded(_ r: TransactionRecord) -> Bool { r.receipt?.outcome == .success }
    static func error(_ r: TransactionRecord) -> String { r.receipt?.error?.message ?? "" }
    static func event(_ r: TransactionRecord, _ name: String) -> [String: String]? {
        r.receipt?.events.first { $0.name == name }?.attributes
    }

    @Test func wholeNotepadFlowWithEventsAndChainWideIDs() throws {
        let n = try Notes()
        let alice = n.net.alice
        let bob = n.net.bob
        #expect(try n.view("notepad", ["owner": .string(alice.publicKey.clientID)]) == .null)

        let created = try n.call(alice, "create_notepad")
        #expect(Self.succeeded(created))
        #expect(Self.event(created, "NotepadCreated")?["number"] == "1")
        let again = try n.call(alice, "create_notepad")
        #expect(again.receipt?.outcome == .failure)
        #expect(Self.error(again).contains("already has a notepad"))

        // add without a notepad fails; with create: true it makes one in the same call.
        let noPad = try n.add(bob, "x")
        #expect(Self.error(noPad).contains("has no notepad"))
        let a1 = try n.add(alice, "Groceries", "milk, eggs")
        let b2 = try n.add(bob, "Bob's", "hi", extra: ["create": .bool(true)])
        let a3 = try n.add(alice, "Second", "two")
        #expect(Self.event(a1, "NoteAdded")?["id"] == "1")
        #expect(Self.event(b2, "NoteAdded")?["id"] == "2")
        #expect(Self.event(b2, "NotepadCreated")?["number"] == "2")
        #expect(a3.receipt?.output == "note 3 added")
        #expect(try n.ids(alice) == [1, 3])
        #expect(try n.ids(alice, ["order": .string("desc")]) == [3, 1])
        #expect(try n.ids(alice, ["limit": .string("1")]) == [1], "GET query values arrive as strings")

        // edit: only the owner's note; the event names it.
        let edited = try n.call(alice, "edit", ["id": .integer(1), "title": .string("Groceries"), "body": .string("milk, eggs, bread")])
        #expect(Self.event(edited, "NoteEdited")?["id"] == "1")
        #expect(try n.list(alice).first?["body"] == .string("milk, eggs, bread"))
        let foreign = try n.call(bob, "edit", ["id": .integer(1), "title": .string("mine"), "body": .string("")])
        #expect(Self.error(foreign) == "note 1 is not in this account's notepad")
        guard case .object(let one) = try n.view("note", ["id": .string("1")]) else {
            Issue.record("note 1 missing")
            return
        }
        #expect(one["owner"] == .string(alice.publicKey.clientID))
        #expect(one["title"] == .string("Groceries"))

        // delete: the id is gone and never reused.
        let deleted = try n.call(alice, "delete", ["id": .integer(3)])
        #expect(Self.event(deleted, "NoteDeleted")?["id"] == "3")
        #expect(try n.view("note", ["id": .integer(3)]) == .null)
        #expect(Self.error(try n.call(alice, "delete", ["id": .integer(3)])).contains("not in this account's notepad"))
        #expect(Self.event(try n.add(alice, "Third"), "NoteAdded")?["id"] == "4")

        // delete_notepad removes every key of the notepad and its notes.
        let dropped = try n.call(alice, "delete_notepad")
        #expect(Self.event(dropped, "NotepadDeleted")?["notes"] == "2")
        #expect(try n.raw(NotesContract.padKey(alice.publicKey.clientID)) == nil)
        for id: UInt64 in [1, 4] {
            #expect(try n.raw(NotesContract.noteKey(alice.publicKey.clientID, id)) == nil)
            #expect(try n.raw(NotesContract.idKey(id)) == nil)
            #expect(try n.raw(NotesContract.indexKey(alice.publicKey.clientID, id)) == nil)
        }
        #expect(try n.list(alice).isEmpty)
        #expect(try n.ids(bob) == [2], "another account's notepad is untouched")
        #expect(Self.error(try n.call(alice, "delete_notepad")).contains("has no notepad"))

        // A new notepad counts again; ids continue.
        #expect(Self.succeeded(try n.call(alice, "create_notepad")))
        #expect(Self.event(try n.add(alice, "Fresh"), "NoteAdded")?["id"] == "5")
        guard case .object(let stats) = try n.view("stats") else {
            Issue.record("no stats")
            return
        }
        #expect(stats["notepads_created"] == .integer(3))
        #expect(stats["notepads_deleted"] == .integer(1))
        #expect(stats["notepads_live"] == .integer(2))
        #expect(stats["notes_created"] == .integer(5))
    }

    @Test func limitsFailTheCallRecordTheErrorAndChangeNothing() throws {
        let n = try Notes(NotesContract(noteLimit: 3))
        let alice = n.net.alice
        try n.call(alice, "create_notepad")
        let cases: [(String, String, String)] = [
            ("", "b", "title is empty"),
            (String(repeating: "t", count: 257), "b", "title is 257 bytes; at most 256"),
            (String(repeating: "é", count: 129), "b", "title is 258 bytes"),
            ("ok", String(repeating: "x", count: 16 * 1024 + 1), "body is 16385 bytes; at most 16384"),
        ]
        let before = try n.net.balance(alice)
        for (title, body, message) in cases {
            let r = try n.add(alice, title, body)
            #expect(r.receipt?.outcome == .failure)
            #expect(Self.error(r).contains(message), "\(Self.error(r))")
            #expect(r.receipt?.events.isEmpty == true)
        }
        #expect(try n.net.balance(alice) == before - 4 * n.net.genesis.minimumFee, "a failed call still pays its fee")
        #expect(try n.list(alice).isEmpty)
        // The limits themselves are allowed: 256 bytes of two-byte characters, a 16 KiB body.
        #expect(Self.succeeded(try n.add(alice, String(repeating: "é", count: 128), String(repeating: "x", count: 16 * 1024))))
        #expect(Self.succeeded(try n.add(alice, "two")))
        #expect(Self.succeeded(try n.add(alice, "three")))
        let full = try n.add(alice, "four")
        #expect(Self.error(full) == "notepad is full: it holds 3 notes, the most allowed; delete some first")
        #expect(try n.list(alice).count == 3)
        // Missing and mistyped arguments.
        #expect(Self.error(try n.call(alice, "add", ["body": .string("b")])) == "invalid arguments: missing \"title\"")
        #expect(
            Self.error(try n.call(alice, "edit", ["id": .string("x"), "title": .string("t")])).contains(
                "\"id\" must be a non-negative integer"))
        #expect(Self.error(try n.add(alice, "t", "b", extra: ["private": .bool(true)])).contains("private title must be base64"))
        #expect(try n.list(alice).count == 3)
    }

    @Test func outOfGasIsRecordedWithItsErrorAndRevertsTheCall() throws {
        let n = try Notes()
        let alice = n.net.alice
        try n.call(alice, "create_notepad")
        let r = try n.call(alice, "add", ["title": .string("t"), "body": .string(String(repeating: "x", count: 4000))], gas: 1000)
        #expect(r.status == .finalized || r.status == .sealed)
        #expect(r.receipt?.outcome == .failure)
        #expect(Self.error(r) == "out of gas (limit 1000)")
        #expect(try n.list(alice).isEmpty)
        #expect(try n.net.nonce(alice) == 2, "the nonce is used")
        // The same call with enough gas goes through and takes the next id.
        let ok = try n.call(alice, "add", ["title": .string("t"), "body": .string("x")], gas: 20_000)
        #expect(Self.event(ok, "NoteAdded")?["id"] == "1")
    }

    @Test func viewsReadAnEarlierRoundAndRefuseBadArguments() throws {
        let n = try Notes()
        let alice = n.net.alice
        let first = try n.add(alice, "v1", "old", extra: ["create": .bool(true)])
        let round = try #require(first.receipt?.round)
        try n.call(alice, "edit", ["id": .integer(1), "title": .string("v2"), "body": .string("new")])
        #expect(try n.list(alice).first?["title"] == .string("v2"))
        #expect(try n.list(alice, round: round).first?["title"] == .string("v1"))
        #expect(try n.list(alice, round: round - 1).isEmpty)

        func refusal(_ name: String, _ args: [String: JSONValue]) -> LedgerError? {
            do {
                _ = try n.view(name, args)
                return nil
            } catch let e as LedgerError { return e } catch { return nil }
        }
        #expect(refusal("notes", ["owner": .string("me")])?.code == "malformed")
        #expect(
            refusal("notes", ["owner": .string(alice.publicKey.clientID), "limit": .integer(501)])?.description.contains(
                "\"limit\" must be 1 to 500") == true)
        #expect(refusal("note", [:])?.description.contains("missing \"id\"") == true)
        #expect(refusal("nope", [:])?.code == "not_found")
    }

    @Test func pagingWalksEveryNoteOnce() throws {
        let n = try Notes()
        let alice = n.net.alice
        try n.call(alice, "create_notepad")
        for i in 1...7 { _ = try n.add(alice, "n\(i)") }
        var seen: [Int64] = []
        var after: JSONValue = .null
        while true {
            guard
                case .object(let page) = try n.view(
                    "notes", ["owner": .string(alice.publicKey.clientID), "limit": .integer(3), "after": after]),
                case .array(let notes)? = page["notes"]
            else { break }
            seen += notes.compactMap { if case .object(let o) = $0 { return o["id"]?.integerValue } else { return nil } }
            guard let next = page["next_after"], next != .null else { break }
            after = next
        }
        #expect(seen == [1, 2, 3, 4, 5, 6, 7])
    }

    @Test func theDefaultContractDeletesMoreThanItsInlineLimitWithinTheGasLimit() throws {
        let n = try Notes()
        #expect(NotesContract().noteLimit == 10_000)
        let alice = n.net.alice
        let owner = alice.publicKey.clientID
        try n.call(alice, "create_notepad")
        // 250 notes with 2 KiB bodies, ten per block (a sender may have 10 nonces waiting).
        var nonce = n.nonces[owner] ?? 0
        for round in 0..<25 {
            for i in 0..<10 {
                nonce += 1
                let args: [String: JSONValue] = [
                    "title": .string("n\(round * 10 + i)"), "body": .string(String(repeating: "x", count: 2048)),
                ]
                try n.net.ledger.submit(
                    Transaction.signed(
                        by: alice, chainID: n.net.genesis.chainID, to: ContractCall.address(of: "notes"), value: 0,
                        fee: n.net.genesis.minimumFee, nonce: nonce, type: .contractCall,
                        data: ContractCall(contract: "notes", method: "add", args: args).json, creationDate: n.net.now))
            }
            _ = try n.net.ledger.produceBlock()
        }
        n.nonces[owner] = nonce
        guard case .object(let pad) = try n.view("notepad", ["owner": .string(owner)]) else {
            Issue.record("no notepad")
            return
        }
        #expect(pad["notes"] == .integer(250))
        #expect(pad["max_notes"] == .integer(10_000))
        let dropped = try n.call(alice, "delete_notepad")
        #expect(Self.succeeded(dropped), "\(Self.error(dropped))")
        // 200 went inline, the other 50 with the block's sweep.
        for id: UInt64 in [2, 150, 250] { #expect(try n.raw(NotesContract.noteKey(owner, id)) == nil) }
        #expect(try n.raw(NotesContract.sweepKey(owner)) == nil)
    }

    @Test func aLargeNotepadIsDeletedAtOnceForReadersAndSweptOverBlocks() throws {
        let n = try Notes(NotesContract(noteLimit: 100, inlineDeleteLimit: 2, sweepPerBlock: 3))
        let alice = n.net.alice
        let owner = alice.publicKey.clientID
        try n.call(alice, "create_notepad")
        for i in 1...9 { _ = try n.add(alice, "n\(i)") }
        let dropped = try n.call(alice, "delete_notepad")
        #expect(Self.event(dropped, "NotepadDeleted")?["notes"] == "9")
        // The block's end-of-block sweep already ran once: 2 inline + 3 swept.
        #expect(try n.raw(NotesContract.noteKey(owner, 5)) == nil)
        #expect(try n.raw(NotesContract.noteKey(owner, 6)) != nil)
        // A new notepad at once: the old notes are invisible to views and methods.
        try n.call(alice, "create_notepad")
        #expect(try n.list(alice).isEmpty)
        #expect(try n.view("note", ["id": .integer(9)]) == .null)
        #expect(Self.error(try n.call(alice, "delete", ["id": .integer(9)])).contains("not in this account's notepad"))
        _ = try n.add(alice, "kept")
        _ = try n.net.ledger.produceBlock()
        for id: UInt64 in 1...9 { #expect(try n.raw(NotesContract.noteKey(owner, id)) == nil) }
        #expect(try n.raw(NotesContract.sweepKey(owner)) == nil)
        #expect(try n.list(alice).map { $0["title"] } == [.string("kept")])
    }
}

@Suite struct JSONValueTextTests {
    @Test func handWrittenJSONParsesBackAndMatchesTheEncoder() throws {
        let tricky = "quote \" backslash \\ slash / newline \n tab \t nul \u{0} bell \u{7} é 漢字 🙂 \u{2028}"
        let value: JSONValue = .object([
            "b": .array([.integer(-5), .integer(Int64.max), .bool(true), .null]), "a": .string(tricky),
            "c": .object(["z": .string(""), "y": .object([:])]),
        ])
        let text = value.jsonData
        #expect(try JSONDecoder().decode(JSONValue.self, from: text) == value)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let simple: JSONValue = .object(["title": .string("Groceries / list \"x\""), "id": .integer(7), "private": .bool(false)])
        #expect(simple.jsonData == (try encoder.encode(simple)))
        let result = ContractViewResult(round: 12, result: simple)
        #expect(result.jsonData == (try encoder.encode(result)))
    }
}
