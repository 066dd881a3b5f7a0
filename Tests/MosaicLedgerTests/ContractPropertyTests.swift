import Foundation
import MosaicCrypto
import MosaicProtocol
import MosaicTestSupport
import Testing

@testable import MosaicLedger

/// Every method and view of every built-in contract, called with extreme and ill-typed
/// arguments through a real ledger and signed transactions. Methods and views are enumerated
/// from each contract's `methods` and `views`, so a new one is attacked too (with every argument
/// name known here when it has no entry of its own). A call must end in a receipt (success, or
/// failure with a message) — a trap would kill this test process — and after every block the
/// supply is conserved and every token a contract holds belongs to one of its records.
///
/// The calls run on a thread of their own (`blocking`), off the cooperative pool the rest of the
/// suite needs, and report what they found; the expectations are checked back in the test.
@Suite(.serialized, .timeLimit(.minutes(5))) struct ContractPropertyTests {
    /// A ledger with state for every contract to work on: blobbers, two allocations (one with a
    /// committed root, so challenges are issued every block), a read pool, a post with a vote, an
    /// app, a notepad with a note.
    final class World {
        static let start: Int64 = 1_800_000_000
        let directory: String
        let genesis: Genesis
        let ledger: Ledger
        let owner: Ed25519.SigningKey
        let reader: Ed25519.SigningKey
        let app: Ed25519.SigningKey
        let newcomer: Ed25519.SigningKey
        let blobbers: [Ed25519.SigningKey]
        var keys: [Ed25519.SigningKey] { [owner, reader, app, newcomer] + blobbers }
        private var nonces: [String: UInt64] = [:]
        /// What went wrong, checked by the test once the work is done.
        var problems: [String] = []
        var allocation: Allocation!
        var spare: Allocation!
        var tree: AllocationTree!
        let fragment = TestFragment(length: 3 * 65536 + 10)

        init() throws {
            directory = NSTemporaryDirectory() + "mosaic-property-test-" + Hex.encode(Random.bytes(6))
            owner = try testKey(60)
            reader = try testKey(61)
            app = try testKey(62)
            newcomer = try testKey(63)
            blobbers = try (0..<5).map { try testKey(UInt8(70 + $0)) }
            var funds: [String: UInt64] = [:]
            for k in [owner, reader, app, newcomer] + blobbers { funds[k.publicKey.clientID] = 10_000 * token }
            var g = Genesis(chainID: "mosaic-property-test", genesisTime: World.start, allocations: funds)
            g.confirmations = 1
            g.maxNonceAhead = 100_000
            genesis = g
            var config = StorageConfig()
            config.challengeEveryBlocks = 1
            ledger = try Ledger(
                directory: directory, database: try TestLedgerDatabase.forDirectory(directory), genesis: g,
                clock: LedgerClock(source: { World.start * 1000 }),
                registry: .standard.registering([StorageContract(config: config)]))
        }

        deinit {
            ledger.close()
            try? FileManager.default.removeItem(atPath: directory)
        }

        var now: Int64 { max(ledger.clock.now, ledger.latestBlock.timestamp) }

        /// A signed call (nil when the ledger refused it at the door, which is an answer too).
        func submit(_ key: Ed25519.SigningKey, _ contract: String, _ method: String, _ args: [String: JSONValue], value: UInt64 = 0)
            -> Transaction?
        {
            let id = key.publicKey.clientID
            let nonce = (nonces[id] ?? 0) + 1
            let tx = Transaction.signed(
                by: key, chainID: genesis.chainID, to: ContractCall.address(of: contract), value: value,
                fee: genesis.minimumFee, nonce: nonce, type: .contractCall,
                data: ContractCall(contract: contract, method: method, args: args).json, creationDate: now)
            do { try ledger.submit(tx) } catch { return nil }
            nonces[id] = nonce
            return tx
        }

        func receipt(_ tx: Transaction) throws -> TransactionReceipt {
            guard let r = try ledger.transaction(tx.hash)?.receipt else { throw LedgerError.storage("no receipt for \(tx.hash)") }
            return r
        }

        /// One call in its own block, which must succeed (setting up).
        @discardableResult
        func must(_ key: Ed25519.SigningKey, _ contract: String, _ method: String, _ args: [String: JSONValue], value: UInt64 = 0) throws
            -> TransactionReceipt
        {
            guard let tx = submit(key, contract, method, args, value: value) else {
                throw LedgerError.storage("\(method) refused at submit")
            }
            try ledger.produceBlock()
            let r = try receipt(tx)
            guard r.outcome == .success else { throw LedgerError.storage("\(contract).\(method): \(r.error?.message ?? "")") }
            return r
        }

        func prepare() throws {
            for (i, b) in blobbers.enumerated() {
                try must(
                    b, "storage", "register_blobber",
                    [
                        "url": .string("http://127.0.0.1:\(6000 + i)"), "capacity": .integer(1 << 40),
                        "write_price": .integer(Int64(token / 100)), "read_price": .integer(16384 * 100),
                    ],
                    value: 5 * token)
            }
            let alloc: [String: JSONValue] = [
                "name": .string("a"), "data_shards": 2, "parity_shards": 2, "size": .integer(1 << 30),
                "expiration": .integer(now + 30 * 86_400),
            ]
            allocation = try ledger.storageAllocation(
                try must(owner, "storage", "new_allocation", alloc, value: 100 * token).transactionHash)
            spare = try ledger.storageAllocation(try must(owner, "storage", "new_allocation", alloc, value: 100 * token).transactionHash)
            tree = try AllocationTree(entries: [
                AllocationEntry(
                    path: "/f.bin", fragmentRoot: fragment.root, fragmentLength: UInt64(fragment.bytes.count),
                    fileSize: UInt64(fragment.bytes.count))
            ])
            try must(
                allocationBlobber, "storage", "commit_write_markers",
                [
                    "markers": .array([
                        try jsonArg(writeMarker(previous: AllocationTree.emptyRoot, root: tree.root, size: tree.totalFragmentBytes))
                    ])
                ])
            try must(reader, "storage", "lock_read_pool", [:], value: token)
            try must(
                owner, "social", "comment",
                [
                    "permlink": .string("p"), "parent_author": .string(""), "parent_permlink": .string("general"),
                    "title": .string("T"), "body": .string("B"), "tags": .array([.string("x")]),
                ])
            try must(owner, "social", "stake", [:], value: token)
            try must(owner, "social", "vote", ["author": .string(owner.publicKey.clientID), "permlink": .string("p"), "weight": 5000])
            try must(app, "social", "register_app", ["name": .string("prop-app"), "redirect_url": .string("https://p.example/cb")])
            try must(owner, "notes", "add", ["title": .string("t"), "body": .string("b"), "create": .bool(true)])
        }

        var allocationBlobber: Ed25519.SigningKey {
            blobbers.first { $0.publicKey.clientID == allocation.blobbers[0].blobberID } ?? blobbers[0]
        }

        func writeMarker(previous: String, root: String, size: UInt64, timestamp: Int64? = nil) -> WriteMarker {
            var m = WriteMarker(
                allocationID: allocation.id, blobberID: allocation.blobbers[0].blobberID, clientID: owner.publicKey.clientID,
                previousRoot: previous, root: root, size: size, timestamp: timestamp ?? now * 1000 + 1)
            m.sign(with: owner)
            return m
        }

        func readMarker(counter: UInt64, timestamp: Int64? = nil, readPrice: UInt64? = nil, reader key: Ed25519.SigningKey? = nil)
            -> ReadMarker
        {
            var m = ReadMarker(
                allocationID: allocation.id, blobberID: allocation.blobbers[0].blobberID, clientID: "", publicKey: "",
                ownerID: owner.publicKey.clientID, counter: counter, timestamp: timestamp ?? now,
                readPrice: readPrice ?? allocation.blobbers[0].readPrice)
            m.sign(with: key ?? reader)
            return m
        }

        func check(_ condition: Bool, _ what: @autoclosure () -> String) {
            if !condition { problems.append(what()) }
        }

        /// Supply is conserved, and each contract's balance is what its records say it owes.
        func expectBooksBalance(_ context: String) throws {
            check(try ledger.supply().isConserved, "supply after \(context)")
            var storage: UInt64 = 0
            for b in try ledger.storageBlobbers() { storage += b.stake }
            var social: UInt64 = 0
            for k in keys {
                let id = k.publicKey.clientID
                for a in try ledger.storageAllocations(owner: id) { storage += a.writePool + a.challengePool }
                storage += try ledger.storageReadPool(id)
                let account = try JSONDecoder().decode(
                    SocialAccount.self,
                    from: JSONEncoder().encode(
                        ledger.view(contract: "social", name: "account", args: ["client_id": .string(id)], round: ledger.latestBlock.round)
                            .result))
                social += account.stake
            }
            check(try ledger.account(ContractCall.address(of: "storage")).balance == storage, "storage books after \(context)")
            check(try ledger.account(ContractCall.address(of: "social")).balance == social, "social books after \(context)")
            check(try ledger.account(ContractCall.address(of: "notes")).balance == 0, "notes books after \(context)")
        }
    }

    // MARK: Hostile values

    static let huge = String(repeating: "ab", count: 30_000)
    static let hex = String(repeating: "ff", count: 32)

    /// Extreme numbers as integers and as decimal strings, empty, huge and odd strings, every
    /// other JSON type, huge and deep arrays.
    static let hostile: [JSONValue] = {
        var deep = JSONValue.integer(1)
        for _ in 0..<100 { deep = .array([deep]) }
        return [
            .integer(0), .integer(1), .integer(-1), .integer(.max), .integer(.max - 1), .integer(.min), .integer(.min + 1),
            .string("18446744073709551615"), .string("18446744073709551614"), .string("18446744073709551616"),
            .string("-9223372036854775809"), .string("-1"), .string(""), .string(huge), .string("a,,b,"), .string(hex),
            .string("\u{0}/\u{10FFFF}é:"), .bool(true), .null, .array([]), .array((0..<4000).map { JSONValue.integer(Int64($0)) }),
            deep, .object([:]), .object(["counter": .integer(.max), "timestamp": .integer(.min)]),
        ]
    }()

    /// Valid arguments per method ("contract.method"), each then replaced, removed or retyped.
    func baseArgs(_ w: World) throws -> [String: [String: JSONValue]] {
        let owner = JSONValue.string(w.owner.publicKey.clientID)
        let a = JSONValue.string(w.allocation.id)
        let challenge = try w.ledger.storageOpenChallenges().first?.id ?? Self.hex
        let proof = try ChallengeProof.build(challengeID: challenge, tree: w.tree) { _, i in w.fragment.block(i) }
        var ticket = AuthTicket(
            allocationID: w.allocation.id, ownerID: "", ownerPublicKey: "", path: "/f.bin", kind: .file, recipientID: "",
            expiration: 0, nonce: "01", readBudget: 1000)
        ticket.sign(with: w.owner)
        return [
            "storage.register_blobber": [
                "url": .string("http://127.0.0.1:7000"), "capacity": .integer(1 << 30), "write_price": 1, "read_price": 1,
            ],
            "storage.update_blobber": [
                "url": .string("http://127.0.0.1:7001"), "capacity": .integer(1 << 41), "write_price": 2, "read_price": 2,
            ],
            "storage.unregister_blobber": [:],
            "storage.new_allocation": [
                "name": .string("n"), "data_shards": 1, "parity_shards": 1, "size": .integer(1 << 20),
                "expiration": .integer(w.now + 86_400), "blobbers": .array([.string(w.allocation.blobbers[0].blobberID)]),
            ],
            "storage.update_allocation": [
                "allocation_id": a, "extend_seconds": 60, "grow_bytes": 1024,
                "add_blobber": .string(w.blobbers.map(\.publicKey.clientID).first { w.allocation.index(of: $0) == nil } ?? Self.hex),
            ],
            "storage.cancel_allocation": ["allocation_id": .string(w.spare.id)],
            "storage.finalize_allocation": ["allocation_id": a],
            "storage.commit_write_markers": [
                "markers": .array([try jsonArg(w.writeMarker(previous: w.tree.root, root: AllocationTree.emptyRoot, size: 0))])
            ],
            "storage.lock_read_pool": [:],
            "storage.unlock_read_pool": ["amount": 1],
            "storage.redeem_read_markers": ["markers": .array([try jsonArg(w.readMarker(counter: 5))])],
            "storage.respond_challenge": ["challenge_id": .string(challenge), "proof": try jsonArg(proof)],
            "storage.revoke_ticket": ["ticket_id": .string(ticket.id)],
            "social.comment": [
                "permlink": .string("q"), "parent_author": owner, "parent_permlink": .string("p"), "title": .string("t"),
                "body": .string("b"), "json_metadata": .string("{}"), "tags": .array([.string("y")]), "author": owner,
            ],
            "social.edit": [
                "permlink": .string("p"), "title": .string("t2"), "body": .string("b2"), "json_metadata": .string("{\"a\":1}"),
                "tags": .array([.string("z")]), "author": owner, "parent_author": .string(""), "parent_permlink": .string("general"),
            ],
            "social.vote": ["author": owner, "permlink": .string("p"), "weight": 10_000, "voter": owner],
            "social.stake": [:],
            "social.unstake": ["amount": 1],
            "social.register_app": ["name": .string("other-app"), "redirect_url": .string("https://o.example/cb")],
            "social.grant": ["app": .string("prop-app"), "scopes": .array([.string("vote")]), "expires_at": .integer(w.now + 3600)],
            "social.revoke": ["app": .string("prop-app")],
            "social.set_profile": ["name": .string("prop-user"), "about": .string("about me")],
            "social.claim_rewards": [:],
            "notes.create_notepad": [:],
            "notes.add": ["title": .string("t"), "body": .string("b"), "private": .bool(false), "create": .bool(true)],
            "notes.edit": ["id": 1, "title": .string("t"), "body": .string("b"), "private": .bool(false)],
            "notes.delete": ["id": 1],
            "notes.delete_notepad": [:],
            "faucet.pour": [:],
        ]
    }

    /// Valid arguments per view.
    func viewArgs(_ w: World) -> [String: [String: JSONValue]] {
        let owner = JSONValue.string(w.owner.publicKey.clientID)
        return [
            "faucet.status": ["client_id": owner],
            "notes.notes": ["owner": owner, "after": 0, "limit": 10, "order": .string("desc")],
            "notes.note": ["id": 1],
            "notes.notepad": ["owner": owner],
            "notes.stats": [:],
            "social.feed": [
                "sort": .string("trending"), "tag": .string("x"), "limit": 10, "start_author": owner, "start_permlink": .string("p"),
                "truncate_body": 10,
            ],
            "social.post": ["author": owner, "permlink": .string("p"), "truncate_body": 5],
            "social.replies": ["author": owner, "permlink": .string("p"), "limit": 10, "start": 0, "truncate_body": 5],
            "social.votes": ["author": owner, "permlink": .string("p"), "limit": 10, "start_voter": owner],
            "social.account": ["client_id": owner],
            "social.grants": ["user": owner],
            "social.app": ["app": .string("prop-app")],
            "social.accounts": ["accounts": .array([owner, .string("prop-user")])],
            "social.account_posts": [
                "client_id": owner, "kind": .string("replies"), "limit": 10, "start": .string("0"), "truncate_body": 5,
            ],
            "social.account_votes": ["client_id": owner, "limit": 10, "start": .string("0")],
            "social.rewards": [:],
        ]
    }

    /// Who sends a method: the blobber of the allocation for the blobber's calls, a newcomer
    /// for registering, the owner otherwise.
    func caller(_ w: World, _ name: String) -> Ed25519.SigningKey {
        switch name {
        case "storage.commit_write_markers", "storage.redeem_read_markers", "storage.respond_challenge", "storage.update_blobber":
            w.allocationBlobber
        case "storage.register_blobber", "storage.unregister_blobber", "faucet.pour": w.newcomer
        default: w.owner
        }
    }

    /// The argument sets tried for one method or view: the valid ones; each argument missing;
    /// each replaced by every hostile value; plus an unknown argument. A method with no entry
    /// here (a new one) gets every argument name known here.
    static func variants(base given: [String: JSONValue]?, allNames: [String]) -> [[String: JSONValue]] {
        let base = given ?? [:]
        let names = given == nil ? allNames : Array(base.keys).sorted()
        var out: [[String: JSONValue]] = [base]
        for name in names {
            var missing = base
            missing[name] = nil
            out.append(missing)
            for v in hostile {
                var args = base
                args[name] = v
                out.append(args)
            }
        }
        var extra = base
        extra["unexpected"] = .string(huge)
        out.append(extra)
        return out
    }

    @Test func everyMethodAnswersExtremeArgumentsWithAReceiptAndTheBooksBalance() async throws {
        let (names, calls, failures, problems) = try await blocking { () throws -> ([String], Int, Int, [String]) in
            let w = try World()
            try w.prepare()
            let bases = try baseArgs(w)
            let allNames = Array(Set(bases.values.flatMap(\.keys))).sorted()
            // Destructive calls go last, so the others meet a live allocation, post and notepad.
            let destructive: Set<String> = [
                "storage.cancel_allocation", "storage.finalize_allocation", "storage.unregister_blobber",
                "notes.delete", "notes.delete_notepad", "social.revoke", "social.unstake",
            ]
            var names: [String] = []
            for (contractName, contract) in w.ledger.contracts.sorted(by: { $0.key < $1.key }) {
                w.check(contract.name == contractName, "contract \(contractName) names itself \(contract.name)")
                names += contract.methods.map { "\(contractName).\($0)" }
            }
            names = names.filter { !destructive.contains($0) } + names.filter { destructive.contains($0) }
            var calls = 0
            var failures = 0
            for name in names {
                let parts = name.split(separator: ".").map(String.init)
                let key = caller(w, name)
                let values: [UInt64] = StorageContract.valueMethods.contains(parts[1]) || name == "social.stake" ? [token, 0, 1] : [0]
                var pending: [(Transaction, String)] = []
                for (i, args) in Self.variants(base: bases[name], allNames: allNames).enumerated() {
                    let value = values[i % values.count]
                    if let tx = w.submit(key, parts[0], parts[1], args, value: value) {
                        pending.append((tx, "\(name) \(args.keys.sorted())"))
                    }
                    if pending.count == 50 { try finish(w, &pending, &calls, &failures) }
                }
                try finish(w, &pending, &calls, &failures)
                try w.expectBooksBalance(name)
            }
            // The ledger goes on: a plain call still works.
            w.check(
                try w.must(w.reader, "storage", "lock_read_pool", [:], value: token).outcome == .success, "a plain call after the attack")
            return (names, calls, failures, w.problems)
        }
        #expect(names.count >= 27, "every built-in method is enumerated: \(names)")
        #expect(calls > 1000, "\(calls) calls made")
        #expect(failures > 0 && failures < calls)
        #expect(problems.isEmpty, "\(problems.count) problems: \(problems.prefix(20))")
    }

    /// Makes the block holding `pending` (clock moved 301 s, so rate limits do not hide the
    /// argument checks) and checks each receipt.
    func finish(_ w: World, _ pending: inout [(Transaction, String)], _ calls: inout Int, _ failures: inout Int) throws {
        guard !pending.isEmpty else { return }
        try w.ledger.advanceClock(by: 301)
        try w.ledger.produceBlock()
        for (tx, what) in pending {
            let r = try w.receipt(tx)
            calls += 1
            if r.outcome == .failure {
                failures += 1
                w.check(r.error?.message.isEmpty == false, "a failed call says why: \(what)")
            }
        }
        pending.removeAll()
        w.check(try w.ledger.supply().isConserved, "supply after a block")
    }

    @Test func everyViewAnswersExtremeArgumentsWithAResultOrAReadError() async throws {
        let (answered, refused, problems) = try await blocking { () throws -> (Int, Int, [String]) in
            let w = try World()
            try w.prepare()
            let bases = viewArgs(w)
            let allNames = Array(Set(bases.values.flatMap(\.keys))).sorted()
            var answered = 0
            var refused = 0
            for (contractName, contract) in w.ledger.contracts.sorted(by: { $0.key < $1.key }) {
                for view in contract.views {
                    for args in Self.variants(base: bases["\(contractName).\(view)"], allNames: allNames) {
                        do {
                            _ = try w.ledger.view(contract: contractName, name: view, args: args)
                            answered += 1
                        } catch {
                            refused += 1
                            if case .invalidRead(let m)? = error as? LedgerError {
                                w.check(!m.isEmpty, "\(contractName).\(view) refuses with a message")
                            }
                        }
                    }
                }
            }
            return (answered, refused, w.problems)
        }
        #expect(answered > 0 && refused > 0)
        #expect(problems.isEmpty, "\(problems.prefix(20))")
    }

    /// Markers and proofs correctly signed but with extreme numbers inside: the checks behind
    /// the signature (counters, sizes, times, prices, proof shapes) must refuse them too.
    @Test func signedMarkersAndProofsWithExtremeFieldsAreRefusedWithoutATrap() async throws {
        let (count, outcomes, problems) = try await blocking { () throws -> (Int, [ExecutionOutcome], [String]) in
            let w = try World()
            try w.prepare()
            let blobber = w.allocationBlobber
            var txs: [Transaction] = []
            for stamp in [Int64.min, -1, 0, Int64.max, Int64.max - 1] {
                for size in [UInt64(0), 1, UInt64(Int64.max)] {
                    let m = w.writeMarker(previous: w.tree.root, root: Self.hex, size: size, timestamp: stamp)
                    txs += [w.submit(blobber, "storage", "commit_write_markers", ["markers": .array([try jsonArg(m)])])].compactMap { $0 }
                }
            }
            let big = UInt64(Int64.max)
            for counter in [UInt64(0), 1, big - 1, big] {
                for (stamp, price) in [(Int64.min, UInt64(0)), (Int64.max, big), (w.now, big), (w.now, 0)] {
                    let m = w.readMarker(counter: counter, timestamp: stamp, readPrice: price, reader: w.owner)
                    txs += [w.submit(blobber, "storage", "redeem_read_markers", ["markers": .array([try jsonArg(m)])])].compactMap { $0 }
                }
            }
            // 65 markers: one more than a call may carry.
            let many = try (0..<65).map { _ in try jsonArg(w.readMarker(counter: 1)) }
            txs += [w.submit(blobber, "storage", "redeem_read_markers", ["markers": .array(many)])].compactMap { $0 }
            // Proofs with extreme counts and indices, for the open challenge.
            if let ch = try w.ledger.storageOpenChallenges().first,
                let challenged = w.blobbers.first(where: { $0.publicKey.clientID == ch.blobberID })
            {
                let good = try ChallengeProof.build(challengeID: ch.id, tree: w.tree) { _, i in w.fragment.block(i) }
                for (count, index, block) in [(big, big - 1, big), (big, 0, 0), (1, big, big), (0, 0, 0)] as [(UInt64, UInt64, UInt64)] {
                    var p = good
                    p.entryCount = count
                    p.entryIndex = index
                    p.blockIndex = block
                    p.entry.fragmentLength = big
                    txs += [
                        w.submit(challenged, "storage", "respond_challenge", ["challenge_id": .string(ch.id), "proof": try jsonArg(p)])
                    ].compactMap { $0 }
                }
            }
            try w.ledger.produceBlock()
            var outcomes: [ExecutionOutcome] = []
            for tx in txs {
                let r = try w.receipt(tx)
                outcomes.append(r.outcome)
                if r.outcome == .failure { w.check(r.error?.message.isEmpty == false, "a failed call says why") }
            }
            try w.expectBooksBalance("extreme markers")
            return (txs.count, outcomes, w.problems)
        }
        #expect(count == 36, "every call was accepted into the pool")
        #expect(outcomes.contains(.failure))
        #expect(problems.isEmpty, "\(problems)")
    }
}
