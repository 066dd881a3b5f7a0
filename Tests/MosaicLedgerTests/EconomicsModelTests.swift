import Foundation
import MosaicCrypto
import MosaicProtocol
import MosaicTestSupport
import Testing

@testable import MosaicLedger

/// The randomized model test of the ledger's economics (issue 11, "Tests that attack"):
/// thousands of random operations from several accounts, many hostile (overdrafts, wrong
/// nonces, replays, bad signatures, oversize data, forged markers, contract calls with extreme
/// arguments), signed and executed by a real in-process `Ledger` with its real contracts. After
/// every block: supply conserved, the storage contract's records add up to its balance, and no
/// balance or pool shrank except by its owner's signed action or a documented rule.
///
/// The model runs in a child process (the test binary again, like `CrashSafetyTests`), so that a
/// contract bug which traps is reported as a failure naming the seed and the operation, instead
/// of taking the whole test run down. `MOSAIC_MODEL_SEED=<n>` replays one seed.
@Suite(.timeLimit(.minutes(3))) struct EconomicsModelTests {
    static let childVariable = "MOSAIC_ECONOMICS_CHILD"
    static let defaultSeed: UInt64 = 0x2026_1101

    @Test func randomHostileTrafficConservesSupplyAndTakesFromNobodyWithoutTheirSignature() async throws {
        guard ProcessInfo.processInfo.environment[Self.childVariable] == nil else { return }
        let seed = ProcessInfo.processInfo.environment["MOSAIC_MODEL_SEED"].flatMap { UInt64($0) } ?? Self.defaultSeed
        let run = try await Self.runChild(seed: seed)
        #expect(run.status == 0, "seed \(seed): \(run.report)")
        #expect(run.report.contains("done"), "seed \(seed): \(run.report)")
    }

    /// The child: runs the model in its directory and writes its report there.
    @Test func economicsChild() throws {
        guard let dir = ProcessInfo.processInfo.environment[Self.childVariable] else { return }
        let seed = ProcessInfo.processInfo.environment["MOSAIC_MODEL_SEED"].flatMap { UInt64($0) } ?? Self.defaultSeed
        let report = try Report(path: dir + "/report.txt")
        let model = try EconomicsModel(directory: dir + "/ledger", seed: seed, report: report)
        defer { model.ledger.close() }
        try model.run(blocks: 100)
        for f in model.failures { Issue.record("seed \(seed): \(f)") }
        report.line(
            model.failures.isEmpty ? "done: \(model.summary)" : "failed: \(model.failures.count) check(s), first: \(model.failures[0])")
    }

    /// Waits without holding a thread of the shared pool (other tests run meanwhile).
    static func runChild(seed: UInt64) async throws -> (status: Int32, report: String) {
        let dir = NSTemporaryDirectory() + "mosaic-economics-" + Hex.encode(Random.bytes(6))
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var env = ProcessInfo.processInfo.environment
        env[childVariable] = dir
        env["MOSAIC_MODEL_SEED"] = String(seed)
        let child = try Subprocess(
            executable: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"),
            arguments: ["--testing-library", "swift-testing", "--filter", "economicsChild"], environment: env)
        defer { child.signal(SIGKILL) }
        let started = ContinuousClock.now
        while child.isRunning, ContinuousClock.now - started < .seconds(170) { try await Task.sleep(for: .milliseconds(50)) }
        guard let status = child.exitStatus else { return (-1, "the model did not finish within 170 s") }
        let text = (try? String(contentsOfFile: dir + "/report.txt", encoding: .utf8)) ?? ""
        let lines = text.split(separator: "\n")
        var report = lines.suffix(3).joined(separator: " | ")
        if status > 128 {
            report = "the ledger process died (signal \(status - 128)) during: \(lines.last.map(String.init) ?? "?")"
        }
        return (status, report)
    }
}

/// Appends lines to a file with one write each, so the last operation survives a trap.
final class Report {
    private let handle: FileHandle
    init(path: String) throws {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    }
    func line(_ s: String) { handle.write(Data((s + "\n").utf8)) }
}

/// SplitMix64: a seedable generator, so a failing run can be replayed exactly.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The model: actors, the operations they try, and the checks after every block.
final class EconomicsModel {
    let ledger: Ledger
    let genesis: Genesis
    let users: [Ed25519.SigningKey]
    let blobbers: [Ed25519.SigningKey]
    var fresh: [Ed25519.SigningKey] = []
    var rng: SeededGenerator
    let report: Report
    let storage = ContractCall.address(of: "storage")
    var clock: Int64 = 1_800_000_000
    private let clockBox: ClockBox
    var failures: [String] = []
    var accepted: [Transaction] = []
    /// Accepted and not yet in a block or expired.
    var waiting: [Transaction] = []
    /// Label of every accepted transaction, to count what succeeded.
    var labels: [String: String] = [:]
    var succeeded: [String: Int] = [:]
    private var allocationCache: [Allocation]?
    var expiredSeen: [Transaction] = []
    var opCount = 0
    var counts: [String: Int] = [:]
    var readCounters: [String: UInt64] = [:]
    /// Posts commented so far (author, permlink), for votes to find.
    var posts: [(author: String, permlink: String)] = []

    final class ClockBox: @unchecked Sendable { var millis: Int64 = 1_800_000_000_000 }

    init(directory: String, seed: UInt64, report: Report) throws {
        rng = SeededGenerator(state: seed)
        self.report = report
        users = try (0..<5).map { try testKey(UInt8(120 + $0)) }
        blobbers = try (0..<6).map { try testKey(UInt8(140 + $0)) }
        var funds: [String: UInt64] = [:]
        for u in users { funds[u.publicKey.clientID] = 2_000 * token }
        for b in blobbers { funds[b.publicKey.clientID] = 200 * token }
        var g = Genesis(chainID: "mosaic-economics", genesisTime: 1_800_000_000, allocations: funds)
        g.confirmations = 1
        g.expiryBlocks = 4
        genesis = g
        var config = StorageConfig()
        config.challengeEveryBlocks = 2
        config.challengeTimeoutSeconds = 120
        let box = ClockBox()
        clockBox = box
        ledger = try Ledger(
            directory: directory, database: try TestLedgerDatabase.forDirectory(directory), genesis: g,
            clock: LedgerClock(source: { box.millis }),
            registry: .standard.registering([StorageContract(config: config)]), log: { _ in })
    }

    var summary: String {
        "\(opCount) operations in \(ledger.latestBlock.round) blocks: "
            + counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value) (\(succeeded[$0.key] ?? 0) succeeded)" }.joined(
                separator: ", ")
    }

    var now: Int64 { max(ledger.clock.now, ledger.latestBlock.timestamp) }

    func fail(_ what: String) { failures.append("block \(ledger.latestBlock.round + 1), op \(opCount): \(what)") }

    /// 32 bytes of hex from the seeded generator.
    func randomHex() -> String { Hex.encode((0..<32).map { _ in UInt8.random(in: 0...255, using: &rng) }) }

    func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &rng)] }
    func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &rng) < percent }

    // MARK: Running

    func run(blocks: Int) throws {
        // Every blobber registers first, so allocations can be made.
        for (i, b) in blobbers.enumerated() {
            _ = try call(
                b, "register_blobber",
                [
                    "url": .string("http://127.0.0.1:\(6000 + i)"), "capacity": .integer(64 << 30),
                    "write_price": .integer(Int64(token / 100)), "read_price": .integer(Int64(token / 1000)),
                ],
                value: 10 * token, label: "register_blobber")
        }
        try block()
        for _ in 0..<blocks {
            let ops = Int.random(in: 8...30, using: &rng)
            for _ in 0..<ops { try operation() }
            if chance(30) {
                advanceClock(by: chance(5) ? Int64.random(in: 86_400...3_000_000, using: &rng) : Int64.random(in: 1...600, using: &rng))
            }
            try block()
        }
    }

    func advanceClock(by seconds: Int64) {
        clockBox.millis += seconds * 1000
        report.line("clock +\(seconds) s")
    }

    /// Submits, expecting `code` (nil: accepted). A refusal must change nothing.
    @discardableResult
    func submit(_ tx: Transaction, expect code: String?? = .none, label: String) -> Bool {
        opCount += 1
        counts[label, default: 0] += 1
        report.line("op \(opCount): \(label) by \(tx.clientID.prefix(8)) nonce \(tx.nonce)")
        let before = (ledger.pendingCount, try? ledger.nextNonce(for: tx.clientID))
        do {
            try ledger.submit(tx)
            accepted.append(tx)
            waiting.append(tx)
            labels[tx.hash] = label
            if case .some(.some(let expected)) = code { fail("\(label): accepted, expected \(expected)") }
            return true
        } catch {
            if case .some(.none) = code { fail("\(label): refused with \(error.code) (\(error)), expected acceptance") }
            if case .some(.some(let expected)) = code, error.code != expected {
                fail("\(label): refused with \(error.code), expected \(expected)")
            }
            if (ledger.pendingCount, try? ledger.nextNonce(for: tx.clientID)) != before { fail("\(label): a refusal changed the pool") }
            return false
        }
    }

    func nextNonce(_ key: Ed25519.SigningKey) -> UInt64 { (try? ledger.nextNonce(for: key.publicKey.clientID)) ?? 1 }

    func signed(
        _ key: Ed25519.SigningKey, to: String, value: UInt64, fee: UInt64? = nil, nonce: UInt64? = nil,
        type: TransactionType = .transfer, data: String = ""
    ) -> Transaction {
        Transaction.signed(
            by: key, chainID: genesis.chainID, to: to, value: value, fee: fee ?? genesis.minimumFee,
            nonce: nonce ?? nextNonce(key), type: type, data: data, creationDate: now)
    }

    @discardableResult
    func call(
        _ key: Ed25519.SigningKey, _ method: String, _ args: [String: JSONValue], value: UInt64 = 0, contract: String = "storage",
        label: String? = nil
    ) throws -> Bool {
        let data = ContractCall(contract: contract, method: method, args: args).json
        guard data.utf8.count <= genesis.maxCallDataBytes else { return false }
        let tx = signed(key, to: ContractCall.address(of: contract), value: value, type: .contractCall, data: data)
        // Whether the pool takes it depends on what this sender already reserved: any answer but a trap is fine.
        return submit(tx, label: label ?? "\(contract).\(method)")
    }

    // MARK: Operations

    /// Extreme integers a hostile caller sends.
    var extremeInt: Int64 { pick([0, 1, -1, Int64.max, Int64.min, Int64.max - 1, Int64(Int32.max), -Int64(Int32.max), 1 << 40]) }

    func operation() throws {
        let user = pick(users)
        switch Int.random(in: 0..<100, using: &rng) {
        case 0..<14: transfer(from: user)
        case 14..<26: hostileTransaction(from: user)
        case 26..<30: faucet()
        case 30..<40: try newAllocation(by: user)
        case 40..<45: try updateOrEndAllocation(by: user)
        case 45..<55: try writeMarkers()
        case 55..<63: try readPools(by: user)
        case 63..<71: try readMarkers()
        case 71..<76: try challengeAnswer()
        case 76..<80: try blobberChange()
        case 80..<86: try social(by: user)
        case 86..<90: try notes(by: user)
        default: replay()
        }
    }

    func transfer(from key: Ed25519.SigningKey) {
        let balance = (try? ledger.account(key.publicKey.clientID).balance) ?? 0
        let to = chance(80) ? pick(users + blobbers).publicKey.clientID : randomHex()
        let value = UInt64.random(in: 1...max(1, balance / 50), using: &rng)
        submit(signed(key, to: to, value: value, data: chance(20) ? "memo \(opCount)" : ""), label: "transfer")
    }

    func hostileTransaction(from key: Ed25519.SigningKey) {
        let balance = (try? ledger.account(key.publicKey.clientID).balance) ?? 0
        let to = pick(users).publicKey.clientID
        switch Int.random(in: 0..<10, using: &rng) {
        case 0: submit(signed(key, to: to, value: balance &+ 1), expect: "insufficient_balance", label: "overdraft")
        case 1: submit(signed(key, to: to, value: UInt64.max, fee: UInt64.max), expect: "malformed", label: "value+fee overflow")
        case 2:
            let committed = (try? ledger.account(key.publicKey.clientID).nonce) ?? 0
            // A memo of its own: the same transfer at the same nonce and time may have been
            // committed already, and a copy of a committed transaction is a duplicate before it is stale.
            if committed > 0 {
                submit(
                    signed(key, to: to, value: 1, nonce: committed, data: "stale \(opCount)"), expect: "stale_nonce", label: "stale nonce")
            }
        case 3:
            submit(
                signed(key, to: to, value: 1, nonce: nextNonce(key) + genesis.maxNonceAhead + 1), expect: "nonce_too_far_ahead",
                label: "nonce far ahead")
        case 4: submit(signed(key, to: to, value: 1, nonce: nextNonce(key) + 2), label: "nonce gap")  // waits, then expires
        case 5:
            var tx = signed(key, to: to, value: 1)
            var sig = Array(Hex.decode(tx.signature) ?? [])
            sig[Int.random(in: 0..<sig.count, using: &rng)] ^= 0x40
            tx.signature = Hex.encode(sig)
            submit(tx, expect: "invalid_signature", label: "bad signature")
        case 6:
            var tx = signed(key, to: to, value: 1)
            tx.value = 1_000 * token
            submit(tx, expect: "invalid_hash", label: "altered value")
        case 7:
            submit(
                signed(key, to: to, value: 1, data: String(repeating: "x", count: genesis.maxTransferDataBytes + 1)),
                expect: "data_too_large", label: "oversize memo")
        case 8: submit(signed(key, to: storage, value: 1), expect: "malformed", label: "transfer to a contract")
        default:
            let tx = Transaction.signed(
                by: key, chainID: "mosaic-other", to: to, value: 1, fee: genesis.minimumFee, nonce: nextNonce(key), creationDate: now)
            submit(tx, expect: "wrong_chain", label: "wrong chain")
        }
    }

    func faucet() {
        if fresh.count < 12, chance(50),
            let key = try? Ed25519.SigningKey(seed: SecretBytes((0..<32).map { _ in UInt8.random(in: 0...255, using: &rng) }))
        {
            fresh.append(key)
        }
        let key = fresh.isEmpty ? pick(users) : pick(fresh + users)
        let tx = signed(
            key, to: ContractCall.address(of: "faucet"), value: 0, fee: 0, type: .contractCall,
            data: ContractCall(contract: "faucet", method: "pour").json)
        submit(tx, label: "faucet.pour")  // may be free_limited: one waiting per account
    }

    func replay() {
        if chance(50), let tx = accepted.randomElement(using: &rng), let status = try? ledger.transaction(tx.hash)?.status {
            let expected: String? = status == .expired ? "already_expired" : "duplicate"
            submit(tx, expect: .some(expected), label: "replay")
        } else if let tx = expiredSeen.randomElement(using: &rng) {
            submit(tx, expect: "already_expired", label: "replay expired")
        }
    }

    func allocations(of key: Ed25519.SigningKey) -> [Allocation] {
        (try? ledger.storageAllocations(owner: key.publicKey.clientID)) ?? []
    }

    /// Every allocation as of the last block (refreshed after each).
    var allAllocations: [Allocation] {
        if let cached = allocationCache { return cached }
        let all = users.flatMap { allocations(of: $0) }
        allocationCache = all
        return all
    }

    func newAllocation(by owner: Ed25519.SigningKey) throws {
        if chance(70) {
            let d = Int.random(in: 1...3, using: &rng)
            let p = Int.random(in: 0...2, using: &rng)
            let size = UInt64.random(in: 1...64, using: &rng) << 20
            let seconds = Int64.random(in: 3_700...200_000, using: &rng)
            let quote = (try? ledger.storageAllocationQuote(dataShards: d, parityShards: p, size: size, seconds: UInt64(seconds))) ?? nil
            let lock = (quote ?? token) + (chance(50) ? UInt64.random(in: 0...token, using: &rng) : 0)
            try call(
                owner, "new_allocation",
                [
                    "name": .string("m\(opCount)"), "data_shards": .integer(Int64(d)), "parity_shards": .integer(Int64(p)),
                    "size": .integer(Int64(size)), "expiration": .integer(now + seconds),
                ],
                value: chance(90) ? lock : lock / 2, label: "new_allocation")
        } else {
            // Hostile: extreme shards, sizes and expirations, among them the values that trapped
            // the contract before issue 11 (`d + p` and `expiration − now` overflowed).
            let d = chance(20) ? 1 : extremeInt
            let p = chance(20) ? pick([Int64.max, Int64.max - 1]) : extremeInt
            let expiration = chance(20) ? pick([Int64.min, Int64.min + 1]) : (chance(50) ? extremeInt : now + 7200)
            try call(
                owner, "new_allocation",
                [
                    "data_shards": .integer(d), "parity_shards": .integer(p), "size": .integer(extremeInt),
                    "expiration": .integer(expiration),
                ],
                value: UInt64.random(in: 0...10 * token, using: &rng), label: "new_allocation extreme")
        }
    }

    func updateOrEndAllocation(by user: Ed25519.SigningKey) throws {
        let mine = allocations(of: user).filter { $0.status == .active }
        let any = allAllocations.filter { $0.status == .active }
        guard let a = (chance(80) ? mine.randomElement(using: &rng) : nil) ?? any.randomElement(using: &rng) else { return }
        switch Int.random(in: 0..<4, using: &rng) {
        case 0:
            try call(
                user, "update_allocation",
                [
                    "allocation_id": .string(a.id),
                    "extend_seconds": .integer(chance(70) ? Int64.random(in: 1...86_400, using: &rng) : extremeInt),
                    "grow_bytes": .integer(chance(50) ? 0 : extremeInt),
                ],
                value: UInt64.random(in: 0...5 * token, using: &rng), label: "update_allocation")
        case 1: try call(user, "cancel_allocation", ["allocation_id": .string(a.id)], label: "cancel_allocation")
        case 2: try call(user, "finalize_allocation", ["allocation_id": .string(a.id)], label: "finalize_allocation")
        default:
            // After expiry, anyone may finalize.
            if let old = any.first(where: { $0.expiration <= now }) {
                try call(user, "finalize_allocation", ["allocation_id": .string(old.id)], label: "finalize expired")
            }
        }
    }

    func writeMarkers() throws {
        guard let a = allAllocations.filter({ $0.status == .active && $0.expiration > now }).randomElement(using: &rng),
            let part = a.blobbers.randomElement(using: &rng),
            let blobber = blobbers.first(where: { $0.publicKey.clientID == part.blobberID }),
            let owner = users.first(where: { $0.publicKey.clientID == a.ownerID })
        else { return }
        let forged = chance(15)
        var m = WriteMarker(
            allocationID: a.id, blobberID: part.blobberID, clientID: a.ownerID, previousRoot: part.allocationRoot,
            root: randomHex(), size: chance(90) ? UInt64.random(in: 1...max(1, a.blobberSize), using: &rng) : UInt64(Int64.max),
            timestamp: now * 1000)  // milliseconds (write markers v2)
        m.sign(with: forged ? pick(users.filter { $0.publicKey.clientID != a.ownerID }) : owner)
        try call(
            blobber, "commit_write_markers", ["markers": .array([try jsonArg(m)])], label: forged ? "forged write marker" : "write marker")
    }

    func readPools(by user: Ed25519.SigningKey) throws {
        if chance(60) {
            try call(
                user, "lock_read_pool", [:], value: chance(90) ? UInt64.random(in: 1...20 * token, using: &rng) : 0, label: "lock_read_pool"
            )
        } else {
            let pool = (try? ledger.storageReadPool(user.publicKey.clientID)) ?? 0
            let amount: Int64 = chance(70) ? Int64(clamping: UInt64.random(in: 0...max(1, pool), using: &rng)) : extremeInt
            try call(user, "unlock_read_pool", chance(20) ? [:] : ["amount": .integer(amount)], label: "unlock_read_pool")
        }
    }

    func readMarkers() throws {
        guard let a = allAllocations.filter({ $0.status == .active }).randomElement(using: &rng),
            let part = a.blobbers.randomElement(using: &rng),
            let blobber = blobbers.first(where: { $0.publicKey.clientID == part.blobberID })
        else { return }
        let reader = pick(users)
        let key = "\(a.id):\(part.blobberID):\(reader.publicKey.clientID)"
        let last = readCounters[key] ?? 0
        let counter = chance(90) ? last + UInt64.random(in: 1...200, using: &rng) : pick([UInt64(Int64.max), last, 0])
        let forged = chance(15)
        var m = ReadMarker(
            allocationID: a.id, blobberID: part.blobberID, clientID: reader.publicKey.clientID, publicKey: reader.publicKey.hex,
            ownerID: a.ownerID, counter: counter, timestamp: chance(90) ? now : Int64.max)
        if forged {
            // Another key's signature over a marker naming the reader: what a blobber would need to spend someone's read pool.
            m.sign(with: pick(users.filter { $0.publicKey.clientID != reader.publicKey.clientID }))
            m.clientID = reader.publicKey.clientID
            m.publicKey = reader.publicKey.hex
        } else {
            m.sign(with: reader)
        }
        if try call(
            blobber, "redeem_read_markers", ["markers": .array([try jsonArg(m)])], label: forged ? "forged read marker" : "read marker"),
            !forged
        {
            readCounters[key] = max(last, counter == UInt64(Int64.max) ? last : counter)
        }
    }

    func challengeAnswer() throws {
        guard let ch = (try? ledger.storageOpenChallenges())?.randomElement(using: &rng),
            let blobber = blobbers.first(where: { $0.publicKey.clientID == ch.blobberID })
        else { return }
        // Nobody here holds the data: every answer is a forgery that must fail the challenge.
        // One in four claims the largest tree JSON can carry (2^63 − 1 entries), at the index asked for.
        let huge = chance(25)
        let count: UInt64 = huge ? UInt64(Int64.max) : 1
        let proof = ChallengeProof(
            entry: AllocationEntry(path: "/x", fragmentRoot: randomHex(), fragmentLength: 1, fileSize: 1),
            entryIndex: Challenge.entryIndex(challengeID: ch.id, entryCount: count), entryCount: count,
            entrySteps: huge ? [TrieStep(depth: 0, sibling: randomHex(), count: 1, bytes: 0)] : [],
            blockIndex: chance(80) ? 0 : UInt64(Int64.max), block: [1, 2, 3], blockSiblings: [])
        try call(
            blobber, "respond_challenge", ["challenge_id": .string(ch.id), "proof": try jsonArg(proof)], label: "forged challenge answer")
    }

    func blobberChange() throws {
        let b = pick(blobbers)
        switch Int.random(in: 0..<3, using: &rng) {
        case 0:
            try call(
                b, "update_blobber",
                [
                    "capacity": .integer(chance(50) ? extremeInt : 64 << 30),
                    "write_price": .integer(chance(70) ? Int64(token / 100) : extremeInt),
                ],
                value: UInt64.random(in: 0...token, using: &rng), label: "update_blobber")
        case 1: try call(b, "unregister_blobber", [:], label: "unregister_blobber")
        default:
            try call(
                b, "register_blobber",
                [
                    "url": .string("http://127.0.0.1:7000"), "capacity": .integer(chance(70) ? 64 << 30 : extremeInt),
                    "write_price": .integer(Int64(token / 100)), "read_price": .integer(Int64(token / 1000)),
                ],
                value: UInt64.random(in: 0...10 * token, using: &rng), label: "register_blobber")
        }
    }

    func social(by user: Ed25519.SigningKey) throws {
        if posts.isEmpty || chance(35) {
            let permlink = "p\(opCount)"
            if try call(
                user, "comment",
                ["permlink": .string(permlink), "title": .string("t"), "body": .string("b"), "parent_permlink": .string("model")],
                contract: "social", label: "social.comment")
            {
                posts.append((user.publicKey.clientID, permlink))
            }
        } else {
            let post = pick(posts)
            try call(
                user, "vote",
                [
                    "author": .string(post.author), "permlink": .string(post.permlink),
                    "weight": .integer(chance(70) ? Int64.random(in: -10_000...10_000, using: &rng) : extremeInt),
                ],
                contract: "social", label: "social.vote")
        }
    }

    func notes(by user: Ed25519.SigningKey) throws {
        if chance(30) { try call(user, "create_notepad", [:], contract: "notes", label: "notes.create_notepad") }
        try call(
            user, "add", ["title": .string("n"), "body": .string(String(repeating: "z", count: chance(80) ? 100 : 100_000))],
            contract: "notes", label: "notes.add")
    }

    // MARK: The block and its checks

    struct Snapshot {
        var balances: [String: UInt64] = [:]
        var readPools: [String: UInt64] = [:]
        var writePools: [String: UInt64] = [:]
        var challengePools: [String: UInt64] = [:]
        var owners: [String: String] = [:]
        var stakes: [String: UInt64] = [:]
        var open: Set<String> = []
    }

    var accounts: [String] {
        (users + blobbers + fresh).map(\.publicKey.clientID) + [genesis.nodeID]
            + ["faucet", "storage", "social", "notes"].map { ContractCall.address(of: $0) }
    }

    func snapshot() -> Snapshot {
        var s = Snapshot()
        for id in accounts { s.balances[id] = (try? ledger.account(id).balance) ?? 0 }
        for u in users + blobbers + fresh { s.readPools[u.publicKey.clientID] = (try? ledger.storageReadPool(u.publicKey.clientID)) ?? 0 }
        for a in allAllocations {
            s.writePools[a.id] = a.writePool
            s.owners[a.id] = a.ownerID
            for b in a.blobbers { s.challengePools["\(a.id):\(b.blobberID)"] = b.challengePool }
        }
        for b in (try? ledger.storageBlobbers()) ?? [] { s.stakes[b.id] = b.stake }
        s.open = Set(((try? ledger.storageOpenChallenges()) ?? []).map(\.id))
        return s
    }

    func block() throws {
        let before = snapshot()
        // Named before it runs: if a transaction traps the process, the report says which kinds were in the block.
        report.line(
            "block \(ledger.latestBlock.round + 1) with: " + Set(waiting.map { labels[$0.hash] ?? "?" }).sorted().joined(separator: ", "))
        let made = try ledger.produceBlock()
        allocationCache = nil
        let after = snapshot()
        let records = try ledger.transactions(inRound: made.round, limit: 5000)
        var still: [Transaction] = []
        for tx in waiting {
            switch try? ledger.transaction(tx.hash)?.status {
            case .pending: still.append(tx)
            case .expired: expiredSeen.append(tx)
            default: break
            }
        }
        waiting = still
        for r in records where r.receipt?.outcome == .success { succeeded[labels[r.transaction.hash] ?? "?", default: 0] += 1 }

        // Who signed something in this block: senders, and the signers of the markers they carried.
        let senders = Set(records.map(\.transaction.clientID))
        var readers = Set<String>()
        var markedAllocations = Set<String>()
        var ended = Set<String>()
        for r in records where r.receipt?.outcome == .success {
            guard let call = try? ContractCall.parse(r.transaction.transactionData), call.contract == "storage" else { continue }
            for m in call.args["markers"]?.arrayValue ?? [] {
                if let id = m["allocation_id"]?.stringValue { markedAllocations.insert(id) }
                if call.method == "redeem_read_markers", let reader = m["client_id"]?.stringValue { readers.insert(reader) }
            }
            if call.method == "finalize_allocation" || call.method == "cancel_allocation", let id = call.args["allocation_id"]?.stringValue
            {
                ended.insert(id)
            }
        }
        let closed = before.open.subtracting(after.open)
        var challenged = Set<String>()
        var failedBlobbers = Set<String>()
        for id in closed {
            guard let ch = try? ledger.storageChallenge(id) else { continue }
            challenged.insert(ch.allocationID)
            if ch.status == .failed { failedBlobbers.insert(ch.blobberID) }
        }

        // Supply: every balance adds up to genesis, with no overflow on the way.
        let supply = try ledger.supply()
        if !supply.isConserved || supply.totalSupply != genesis.totalSupply { fail("supply not conserved: \(supply)") }
        // The storage contract's records add up to exactly its balance.
        var owed: UInt64 = 0
        var overflow = false
        func add(_ v: UInt64) {
            let (s, o) = owed.addingReportingOverflow(v)
            owed = s
            overflow = overflow || o
        }
        after.stakes.values.forEach(add)
        after.writePools.values.forEach(add)
        after.challengePools.values.forEach(add)
        after.readPools.values.forEach(add)
        let held = after.balances[storage] ?? 0
        if overflow || owed != held { fail("storage contract holds \(held) but its records say \(owed) (overflow: \(overflow))") }
        for a in allAllocations where a.challengePool != a.blobbers.reduce(0, { $0 &+ $1.challengePool }) {
            fail("allocation \(a.id): challenge_pool \(a.challengePool) is not the sum of its blobbers' pools")
        }
        // Nobody loses tokens without signing for it.
        for u in users + blobbers + fresh {
            let id = u.publicKey.clientID
            if (after.balances[id] ?? 0) < (before.balances[id] ?? 0), !senders.contains(id) {
                fail(
                    "balance of \(id.prefix(8)) fell from \(before.balances[id] ?? 0) to \(after.balances[id] ?? 0) without a transaction of its own"
                )
            }
            if (after.readPools[id] ?? 0) < (before.readPools[id] ?? 0), !senders.contains(id), !readers.contains(id) {
                fail("read pool of \(id.prefix(8)) fell without its signature")
            }
        }
        if (after.balances[genesis.nodeID] ?? 0) < (before.balances[genesis.nodeID] ?? 0) { fail("the producer's fees fell") }
        for (id, pool) in after.writePools where pool < (before.writePools[id] ?? 0) {
            let owner = after.owners[id] ?? ""
            if !senders.contains(owner), !markedAllocations.contains(id), !ended.contains(id) {
                fail(
                    "write pool of allocation \(id.prefix(8)) fell from \(before.writePools[id] ?? 0) to \(pool) without its owner's signature"
                )
            }
        }
        for (pair, pool) in after.challengePools where pool < (before.challengePools[pair] ?? 0) {
            let id = String(pair.prefix(64))
            if !challenged.contains(id), !ended.contains(id), !senders.contains(after.owners[id] ?? "") {
                fail("challenge pool \(pair.prefix(8)) fell without a challenge, cancel or finalize")
            }
        }
        for (id, stake) in after.stakes where stake < (before.stakes[id] ?? 0) {
            if !senders.contains(id), !failedBlobbers.contains(id) {
                fail("stake of blobber \(id.prefix(8)) fell without its signature or a failed challenge")
            }
        }
        let faucet = ContractCall.address(of: "faucet")
        let pours = records.filter { $0.transaction.toClientID == faucet && $0.receipt?.outcome == .success }.count
        if (before.balances[faucet] ?? 0) - (after.balances[faucet] ?? 0) != UInt64(pours) * genesis.faucet.pourAmount {
            fail("the faucet paid out other than \(pours) pours")
        }
        counts["blocks", default: 0] += 1
    }
}

extension JSONValue {
    subscript(key: String) -> JSONValue? {
        if case .object(let fields) = self { return fields[key] }
        return nil
    }

    var arrayValue: [JSONValue]? {
        if case .array(let items) = self { return items }
        return nil
    }
}
