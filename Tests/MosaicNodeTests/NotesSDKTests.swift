import Foundation
import MosaicCrypto
import MosaicLedger
import MosaicNode
import MosaicProtocol
import MosaicSDK
import Testing

/// The SDK's `Notepad` and `NotesClient` against a real node over HTTP: the whole flow, events,
/// limits checked before broadcasting and again by the chain, private notes, and waits that end
/// as expired, failed, timed out or unknown.
@Suite(.timeLimit(.minutes(2))) struct NotesSDKTests {
    @Test func wholeFlowThroughTheSDK() async throws {
        let net = try TestDevnet()
        defer { Task { await net.stop() } }
        let pad = Notepad(wallet: net.wallet(net.alice))
        #expect(try await pad.info() == nil)

        // Without a notepad the chain refuses, and the SDK says why.
        do {
            try await pad.add(title: "t", body: "b")
            Issue.record("add without a notepad succeeded")
        } catch {
            guard case .wallet(.failed(_, let message)) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(message.message.contains("has no notepad"))
            #expect(message.reason == .notFound)
        }
        let created = try await pad.create()
        #expect(created.view?.status == .sealed)
        #expect(created.events.map(\.name) == ["NotepadCreated"])
        do {
            try await pad.create()
            Issue.record("second notepad")
        } catch {
            #expect(error.description.contains("already has a notepad"))
        }

        let first = try await pad.add(title: "Groceries", body: "milk, eggs")
        let second = try await pad.add(title: "Ideas", body: "a notepad on a ledger")
        let firstID = try #require(first.noteID)
        let secondID = try #require(second.noteID)
        #expect(secondID > firstID)
        #expect(first.events.first?.name == "NoteAdded")
        #expect(first.view?.status == .sealed)

        // Reads come from the latest sealed round: a sealed write is visible at once.
        var page = try await pad.list()
        #expect(page.notes.map(\.title) == ["Groceries", "Ideas"])
        #expect(page.notepad?.notes == 2)
        let round = page.round

        let edit = try await pad.edit(firstID, title: "Groceries", body: "milk, eggs, bread")
        #expect(edit.events.map(\.name) == ["NoteEdited"])
        #expect(try await pad.note(firstID).body == "milk, eggs, bread")
        #expect(try await pad.reader.notes(owner: pad.owner, round: round).notes.first?.body == "milk, eggs", "an earlier round")

        let del = try await pad.delete(secondID)
        #expect(del.events.map(\.name) == ["NoteDeleted"])
        do {
            _ = try await pad.note(secondID)
            Issue.record("deleted note still readable")
        } catch {
            #expect(error == .noteNotFound(secondID))
        }

        // Anyone reads anyone's public notes, unsigned.
        let other = NotesClient(client: LedgerClient(baseURL: net.node.url))
        #expect(try await other.notes(owner: pad.owner).notes.map(\.id) == [firstID])
        let stats = try await other.stats()
        #expect(stats.notepadsCreated == 1)

        let drop = try await pad.deleteNotepad()
        #expect(drop.events.first?.name == "NotepadDeleted")
        #expect(drop.events.first?.attributes["notes"] == "1")
        page = try await pad.list()
        #expect(page.notepad == nil && page.notes.isEmpty)
    }

    @Test func limitsAreCheckedBeforeBroadcastAndByTheChain() async throws {
        let net = try TestDevnet()
        defer { Task { await net.stop() } }
        let wallet = net.wallet(net.alice)
        let pad = Notepad(wallet: wallet)
        try await pad.create()
        let nonce = try await net.client.account(pad.owner).nonce
        await #expect(throws: NotesError.emptyTitle) { try await pad.add(title: "", body: "b") }
        await #expect(throws: NotesError.titleTooLong(bytes: 257)) {
            try await pad.add(title: String(repeating: "a", count: 257), body: "b")
        }
        await #expect(throws: NotesError.bodyTooLong(bytes: 16_385)) {
            try await pad.add(title: "t", body: String(repeating: "a", count: 16_385))
        }
        #expect(try await net.client.account(pad.owner).nonce == nonce, "nothing was broadcast")

        // Past the SDK's checks, the chain refuses the same and records the failure.
        do {
            _ = try await wallet.call(contract: "notes", method: "add", args: ["title": .string(String(repeating: "a", count: 300))])
            Issue.record("chain accepted a 300-byte title")
        } catch {
            guard case .failed(let hash, let message) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(message.message == "invalid arguments: title is 300 bytes; at most 256 bytes (UTF-8) allowed")
            #expect(message.code == "invalid_argument")
            let view = try await net.client.transaction(hash)
            #expect(view.outcome == .failure)
            #expect(view.status == .sealed)
        }
        // A call's own gas limit: too little fails the transaction, which is still recorded.
        do {
            try await pad.add(title: "t", body: String(repeating: "x", count: 2000), gas: 800)
            Issue.record("ran with 800 gas")
        } catch {
            guard case .wallet(.failed(let hash, let message)) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(message.message == "out of gas (limit 800)")
            #expect(try await net.client.transaction(hash).error?.message == "out of gas (limit 800)")
            #expect(try await net.client.transaction(hash).error?.code == "out_of_gas")
        }
        #expect(try await pad.list().notes.isEmpty)
    }

    @Test func privateNotesAreCiphertextOnTheLedger() async throws {
        let net = try TestDevnet()
        defer { Task { await net.stop() } }
        let alice = Notepad(wallet: net.wallet(net.alice))
        let bob = Notepad(wallet: net.wallet(net.bob))
        let secretTitle = "Diary"
        let secretBody = "the combination is 4-8-15-16"
        let w = try await alice.add(title: secretTitle, body: secretBody, isPrivate: true, createNotepad: true)
        let id = try #require(w.noteID)
        try await alice.add(title: "Public", body: "hello")

        // The owner's wallet opens it.
        let mine = try await alice.note(id)
        #expect(mine.title == secretTitle && mine.body == secretBody && !mine.isLocked && mine.isPrivate)
        #expect(try await alice.list().notes.map(\.title) == [secretTitle, "Public"])

        // Anyone else, and the raw ledger API, see only ciphertext.
        let seen = try await bob.note(id)
        #expect(seen.isLocked && seen.title != secretTitle)
        let raw = try await net.raw("GET", "/v1/contracts/notes/views/notes?owner=\(alice.owner)")
        #expect(raw.status == 200)
        let text = String(decoding: raw.body, as: UTF8.self)
        #expect(!text.contains(secretBody) && !text.contains(secretTitle) && !text.contains("4-8-15-16"))
        #expect(text.contains("\"private\":true") && text.contains("Public"))
        let tx = String(decoding: try await net.raw("GET", "/v1/transactions/\(w.hash)").body, as: UTF8.self)
        #expect(!tx.contains("4-8-15-16") && !tx.contains(secretTitle), "the signed transaction carries only ciphertext")

        // Editing keeps it private; a public edit makes it readable.
        try await alice.edit(id, title: secretTitle, body: "changed", isPrivate: true)
        #expect(try await alice.note(id).body == "changed")
        #expect(try await bob.note(id).isLocked)
    }

    @Test func waitsEndAsExpiredTimedOutUnknownOrFailed() async throws {
        let net = try TestDevnet(blockTime: .milliseconds(200), expiryBlocks: 40)
        defer { Task { await net.stop() } }
        let wallet = net.wallet(net.alice)
        // A nonce gap keeps a transaction pending until it expires. No block is made until the
        // short wait has answered, so it sees the transaction pending however slow the box is.
        net.node.ledger.stop()
        let gapped = Transaction.signed(
            by: net.alice, chainID: net.genesis.chainID, to: ContractCall.address(of: "notes"), value: 0,
            fee: net.genesis.minimumFee, nonce: 5, type: .contractCall,
            data: ContractCall(contract: "notes", method: "create_notepad").json,
            creationDate: Int64(Date().timeIntervalSince1970))
        try await net.client.submit(gapped)
        await #expect(throws: WalletError.timedOut(hash: gapped.hash, status: .pending)) {
            try await wallet.wait(for: gapped.hash, until: .sealed, timeout: .milliseconds(1))
        }
        // 40 blocks of 200 ms later it has expired.
        net.node.ledger.start(blockTime: .milliseconds(200))
        let started = ContinuousClock.now
        await #expect(throws: WalletError.expired(hash: gapped.hash)) {
            try await wallet.wait(for: gapped.hash, until: .sealed, timeout: .seconds(40))
        }
        #expect(ContinuousClock.now - started < .seconds(40))

        let unknown = String(repeating: "ab", count: 32)
        await #expect(throws: WalletError.unknownTransaction(hash: unknown)) {
            try await wallet.wait(for: unknown, until: .sealed, timeout: .seconds(5))
        }
        // Failed: included, sealed, with the chain's error.
        let pad = Notepad(wallet: wallet)
        do {
            try await pad.delete(1)
            Issue.record("deleted without a notepad")
        } catch {
            guard case .wallet(.failed(let hash, let message)) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(message.message.contains("has no notepad"))
            #expect(message.reason == .notFound)
            #expect(try await net.client.transaction(hash).status == .sealed)
        }
        // --no-wait returns at once with the hash; the stages follow.
        let w = try await pad.create(until: nil)
        #expect(w.view == nil)
        let finalized = try await wallet.wait(for: w.hash, until: .finalized, timeout: .seconds(10))
        #expect(finalized.outcome == .success)
        #expect(try await wallet.wait(for: w.hash, until: .sealed, timeout: .seconds(10)).status == .sealed)
    }
}
