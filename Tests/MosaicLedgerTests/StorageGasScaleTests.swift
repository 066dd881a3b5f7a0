import Foundation
import MosaicCrypto
import MosaicDatabase
import MosaicProtocol
import MosaicTestSupport
import Testing

@testable import MosaicLedger

/// One storage call run by the contract's own code straight against a ledger's committed state
/// (test scaffolding: no signature, pool or block), to build a large network quickly.
struct DirectCall {
    var caller: Ed25519.SigningKey
    var method: String
    var args: [String: JSONValue]
    var value: UInt64 = 0
}

extension Ledger {
    /// Runs `calls` through the storage contract against committed state and, unless `dryRun`,
    /// commits what they wrote (accounts and contract keys, without a block). Returns each call's
    /// gas and the transaction hash it ran under (a new allocation's id). A call that throws fails the batch.
    @discardableResult
    func runDirect(_ calls: [DirectCall], dryRun: Bool = false, hashSeed: String = "") throws -> [(gas: UInt64, hash: String)] {
        try locked { s, store throws(LedgerError) in
            let state = BlockState(committed: store, cache: s.accountCache)
            guard let contract = contracts["storage"] else { throw LedgerError.notFound("no storage contract") }
            let now = max(clock.now, s.latest.timestamp)
            let address = ContractCall.address(of: "storage")
            var gas: [(gas: UInt64, hash: String)] = []
            do {
                for (i, call) in calls.enumerated() {
                    let scratch = TransactionScratch(base: state)
                    let caller = call.caller.publicKey.clientID
                    if call.value > 0 {
                        var from = try scratch.account(caller)
                        guard from.balance >= call.value else { throw LedgerError.storage("\(caller) cannot pay \(call.value)") }
                        from.balance -= call.value
                        scratch.setAccount(caller, from)
                        var to = try scratch.account(address)
                        to.balance += call.value
                        scratch.setAccount(address, to)
                    }
                    let hash = Hex.encode(SHA256.hash(Array("\(hashSeed)|\(s.latest.round)|\(i)".utf8)))
                    let context = ContractContext(
                        caller: caller, callerPublicKey: call.caller.publicKey.hex, transactionHash: hash,
                        value: call.value, now: now, round: s.latest.round + 1, contractName: "storage",
                        gasLimit: genesis.contractGasLimit, scratch: scratch)
                    _ = try contract.execute(context, method: call.method, args: call.args)
                    gas.append((context.gasUsed, hash))
                    state.merge(scratch)
                }
            } catch let e as LedgerError {
                throw e
            } catch {
                throw .storage("direct call: \(error)")
            }
            guard !dryRun else { return gas }
            try commitDirect(state, &s, store, "direct call")
            return gas
        }
    }

    /// Adds `count` allocations of `owner`, copies of `template` with fresh ids, each blobber
    /// pair in turn from `blobbers` holding a committed root (so each is challengeable), written
    /// with the contract's own state functions (`StorageState`: record, owner index, challengeable
    /// member, blobber capacity) and paid from the owner's balance — what `new_allocation` and a
    /// first write leave, without running 20,000 signed calls in a debug build.
    func bulkAllocations(_ count: Int, template: Allocation, owner: String, blobbers: [String], seed: String) throws {
        try locked { ledgerState, store throws(LedgerError) in
            let state = BlockState(committed: store, cache: ledgerState.accountCache)
            let scratch = TransactionScratch(base: state)
            let context = ContractContext(
                caller: owner, transactionHash: seed, value: 0, now: max(clock.now, ledgerState.latest.timestamp),
                round: ledgerState.latest.round + 1, contractName: "storage", gasLimit: .max, scratch: scratch)
            let s = StorageState(context: context)
            do {
                var allocated: [String: UInt64] = [:]
                for i in 0..<count {
                    var a = template
                    a.id = Hex.encode(SHA256.hash(Array("\(seed)-\(i)".utf8)))
                    let pair = [
                        blobbers[i % blobbers.count], blobbers[(i + 1 + i / blobbers.count % (blobbers.count - 1)) % blobbers.count],
                    ]
                    for (j, id) in pair.enumerated() {
                        a.blobbers[j].blobberID = id
                        allocated[id, default: 0] += a.blobberSize
                    }
                    try s.save(a)
                    try s.addToOwner(owner, a.id)
                    try s.setChallengeable(a.id, pair[0], true)
                }
                for (id, bytes) in allocated {
                    guard var b = try s.blobber(id) else { throw LedgerError.storage("no blobber \(id)") }
                    b.allocated += bytes
                    try s.save(b)
                }
                let total = (template.writePool + template.challengePool) * UInt64(count)
                var from = try scratch.account(owner)
                guard from.balance >= total else { throw LedgerError.storage("owner cannot pay \(total)") }
                from.balance -= total
                scratch.setAccount(owner, from)
                let address = ContractCall.address(of: "storage")
                var to = try scratch.account(address)
                to.balance += total
                scratch.setAccount(address, to)
                state.merge(scratch)
            } catch let e as LedgerError {
                throw e
            } catch {
                throw .storage("bulk allocations: \(error)")
            }
            try commitDirect(state, &ledgerState, store, "bulk allocations")
        }
    }

    /// Writes what `state` holds (accounts and contract keys, without a block) to the store, then
    /// to the account cache; a failure names `what` was being written.
    func commitDirect(_ state: BlockState, _ s: inout LedgerState, _ store: any LedgerStore, _ what: String) throws(LedgerError) {
        do {
            try store.transaction {
                for (id, a) in state.accounts { try store.upsert(account: id, a) }
                for (c, values) in state.contractValues { for (k, v) in values { try store.setContractValue(c, k, v) } }
            }
        } catch let e as LedgerError {
            throw e
        } catch {
            throw .storage("\(what): \(error)")
        }
        for (id, a) in state.accounts { s.accountCache[id] = a }
    }

    /// Gas of `contract`'s end-of-block hook on the committed storage state (nothing kept).
    func endBlockGas(seed: String, contract: StorageContract) throws -> UInt64 {
        try locked { s, store throws(LedgerError) in
            let state = BlockState(committed: store, cache: s.accountCache)
            let context = ContractContext(
                caller: "", transactionHash: seed, value: 0, now: max(clock.now, s.latest.timestamp), round: s.latest.round + 1,
                contractName: "storage", gasLimit: Ledger.endBlockGasLimit, scratch: TransactionScratch(base: state))
            do { try contract.endBlock(context, seed: seed) } catch { throw .storage("end of block: \(error)") }
            return context.gasUsed
        }
    }
}

/// The storage contract's gas does not grow with the network: every method costs about the same
/// with 100 allocations as with 20,000 (one owner holding them all, each with a committed root,
/// so the owner index and the challengeable set are at their largest). With one JSON value per
/// set, cancel, finalize and first writes ran out of gas past a few thousand allocations and
/// write pools stayed locked.
@Suite(.timeLimit(.minutes(4))) struct StorageGasScaleTests {
    final class Network {
        let net: StorageNet
        var built = 0
        let fragment = TestFragment(length: 1000)
        let tree: AllocationTree

        init() throws {
            // No random challenges between the measures (unanswered, they would exclude the blobbers);
            // the end of block is measured with a contract that issues one every block.
            net = try StorageNet(blobberCount: 6)
            try net.registerAll(capacity: 1 << 50, writePrice: token / 100)
            tree = try AllocationTree(entries: [
                AllocationEntry(path: "/f", fragmentRoot: fragment.root, fragmentLength: 1000, fileSize: 1000)
            ])
        }

        func allocationArgs(seconds: Int64 = 30 * 86_400) -> [String: JSONValue] {
            ["data_shards": 1, "parity_shards": 1, "size": .integer(1 << 20), "expiration": .integer(net.now + seconds)]
        }

        /// The bulk allocations name their two blobbers (pairs in turn), which keeps building fast;
        /// the measured calls let the contract pick.
        func bulkArgs(_ i: Int) -> [String: JSONValue] {
            var a = allocationArgs()
            let ids = net.blobbers.map(\.publicKey.clientID)
            a["blobbers"] = .array([.string(ids[i % ids.count]), .string(ids[(i + 1 + i / ids.count % (ids.count - 1)) % ids.count])])
            return a
        }

        /// Grows the network to `total` allocations of the owner, each with a first write on its
        /// first blobber, built by the contract itself in batches.
        func grow(to total: Int) throws {
            while built < total {
                let n = min(250, total - built)
                let made = try net.ledger.runDirect(
                    (0..<n).map {
                        DirectCall(
                            caller: net.owner, method: "new_allocation", args: bulkArgs(built + $0),
                            value: token / 100)
                    }, hashSeed: "bulk-\(built)")
                var commits: [DirectCall] = []
                for id in made.map(\.hash) {
                    guard let a = try net.ledger.storageAllocation(id) else { throw LedgerError.storage("allocation \(id) was not made") }
                    guard let key = net.key(of: a.blobbers[0].blobberID) else { throw LedgerError.storage("unknown blobber") }
                    var m = WriteMarker(
                        allocationID: a.id, blobberID: a.blobbers[0].blobberID, clientID: net.owner.publicKey.clientID,
                        previousRoot: AllocationTree.emptyRoot, root: tree.root, size: 1000, timestamp: net.now * 1000)
                    m.sign(with: net.owner)
                    commits.append(DirectCall(caller: key, method: "commit_write_markers", args: ["markers": .array([try jsonArg(m)])]))
                }
                try net.ledger.runDirect(commits)
                built += n
            }
        }

        /// Grows the network to `total` allocations from a template: the first one the contract
        /// made (`grow` ran first), so records have the contract's own shape.
        func bulk(to total: Int) throws {
            guard let template = try net.ledger.storageAllocations(owner: net.owner.publicKey.clientID).first else {
                throw LedgerError.storage("grow first")
            }
            while built < total {
                let n = min(5000, total - built)
                try net.ledger.bulkAllocations(
                    n, template: template, owner: net.owner.publicKey.clientID,
                    blobbers: net.blobbers.map(\.publicKey.clientID), seed: "bulk-\(built)")
                built += n
            }
        }

        /// Measures every storage method on fresh allocations: the gas of a dry run, then the real
        /// signed call with a gas cap of `cap(method)` (nil: the network's limit) must succeed.
        func measure(cap: (String) -> UInt64? = { _ in nil }) throws -> [String: UInt64] {
            var gas: [String: UInt64] = [:]
            let owner = net.owner
            func run(_ key: Ed25519.SigningKey, _ method: String, _ args: [String: JSONValue], value: UInt64 = 0, label: String? = nil)
                throws -> TransactionReceipt
            {
                let name = label ?? method
                gas[name] = try net.ledger.runDirect(
                    [DirectCall(caller: key, method: method, args: args, value: value)], dryRun: true,
                    hashSeed: "probe-\(name)-\(built)")[0].gas
                let r = try callCapped(key, method, args, value: value, gas: cap(name))
                guard r.outcome == .success else { throw LedgerError.storage("\(name) at \(built) allocations: \(r.error?.message ?? "")") }
                return r
            }
            let created = try run(owner, "new_allocation", allocationArgs(), value: token / 10)
            let probe = try need(try net.ledger.storageAllocation(created.transactionHash), "the probe allocation")
            let ending = try need(
                try net.ledger.storageAllocation(
                    try callCapped(owner, "new_allocation", allocationArgs(seconds: 3600), value: token / 10, gas: nil).transactionHash),
                "the ending allocation")
            _ = try run(owner, "update_allocation", ["allocation_id": .string(probe.id), "extend_seconds": 60], value: token / 100)
            let blobberID = probe.blobbers[0].blobberID
            let blobber = try need(net.key(of: blobberID), "the probe's blobber key")
            let marker = net.marker(probe, blobber: blobberID, previous: AllocationTree.emptyRoot, root: tree.root, size: 1000)
            _ = try run(
                blobber, "commit_write_markers", ["markers": .array([try jsonArg(marker)])], label: "commit_write_markers (first write)")
            var read = ReadMarker(
                allocationID: probe.id, blobberID: blobberID, clientID: "", publicKey: "", ownerID: owner.publicKey.clientID,
                counter: 3, timestamp: net.now, readPrice: probe.blobbers[0].readPrice)
            read.sign(with: owner)
            _ = try run(blobber, "redeem_read_markers", ["markers": .array([try jsonArg(read)])])
            // A challenge of the probe's pair, as the end of block would issue it.
            let challenge = try issueChallenge(probe, blobberID: blobberID)
            let proof = try ChallengeProof.build(challengeID: challenge.id, tree: tree) { _, i in fragment.block(i) }
            let answered = try run(blobber, "respond_challenge", ["challenge_id": .string(challenge.id), "proof": try jsonArg(proof)])
            guard answered.output.contains("passed") else { throw LedgerError.storage("the challenge did not pass: \(answered.output)") }
            var every = net.config
            every.challengeEveryBlocks = 1
            gas["end of block"] = try net.ledger.endBlockGas(
                seed: Hex.encode(SHA256.hash(Array("seed-\(built)".utf8))),
                contract: StorageContract(config: every))
            _ = try run(owner, "cancel_allocation", ["allocation_id": .string(probe.id)])
            try net.ledger.advanceClock(by: 3601)
            _ = try run(net.reader, "finalize_allocation", ["allocation_id": .string(ending.id)])
            return gas
        }

        /// Writes an open challenge for the pair with the contract's own keys.
        func issueChallenge(_ a: Allocation, blobberID: String) throws -> Challenge {
            let id = Hex.encode(SHA256.hash(Array("challenge-\(a.id)".utf8)))
            let root = try need(try net.ledger.storageAllocation(a.id), "allocation \(a.id)").blobbers[0].allocationRoot
            let ch = Challenge(
                id: id, allocationID: a.id, blobberID: blobberID, allocationRoot: root, issuedRound: net.ledger.latestBlock.round,
                issuedAt: net.now, deadline: net.now + 300)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let bytes = [UInt8](try encoder.encode(ch))
            try net.ledger.locked { _, store throws(LedgerError) in
                do {
                    try store.setContractValue("storage", StorageState.challengeKey(id), bytes)
                    try store.setContractValue("storage", StorageState.openKey(deadline: ch.deadline, id: id), Array(id.utf8))
                    try store.setContractValue("storage", StorageState.openPairKey(a.id, blobberID), Array(id.utf8))
                } catch { throw .storage("\(error)") }
            }
            return ch
        }

        func need<T>(_ value: T?, _ what: String) throws -> T {
            guard let value else { throw LedgerError.storage("missing \(what)") }
            return value
        }

        /// A signed storage call with an explicit gas cap, in its own block.
        func callCapped(_ key: Ed25519.SigningKey, _ method: String, _ args: [String: JSONValue], value: UInt64, gas: UInt64?) throws
            -> TransactionReceipt
        {
            try net.call(key, method, args, value: value, gas: gas)
        }
    }

    @Test func everyStorageMethodCostsTheSameGasWith100And20000Allocations() async throws {
        // Minutes of CPU: on a thread of its own, off the cooperative pool the other tests need.
        let (small, large, count, conserved, balanced) = try await blocking {
            () throws -> ([String: UInt64], [String: UInt64], Int, Bool, Bool) in
            let n = try Network()
            try n.grow(to: 100)
            let small = try n.measure()
            try n.bulk(to: 20_000)
            // Each call at 20,000 must fit in what it used at 100, plus a little (ids and numbers of
            // other lengths): the signed calls run with that cap.
            let large = try n.measure { name in small[name].map { $0 + $0 / 10 + 2_000 } }
            return (
                small, large, try n.net.ledger.storageAllocations(owner: n.net.owner.publicKey.clientID).count,
                try n.net.ledger.supply().isConserved, try n.net.contractBalance() == n.net.storageLiabilities()
            )
        }
        #expect(count >= 20_000)
        for (name, g) in small.sorted(by: { $0.key < $1.key }) {
            let l = try #require(large[name], "\(name) measured at 20,000")
            #expect(l <= g + g / 10 + 2_000, "\(name): \(g) gas at ~100 allocations, \(l) at 20,000")
        }
        #expect(small.count == 8, "\(small.keys.sorted())")
        #expect(conserved && balanced)
    }
}
