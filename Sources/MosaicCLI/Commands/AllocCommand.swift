import Foundation
import MosaicProtocol
import MosaicSDK

/// `mosaic alloc …`: storage allocations on the ledger (docs/STORAGE.md §8): create, list, show,
/// update (extend, grow, add a blobber, add tokens), cancel, finalize.
enum AllocCommand {
    static let command = Command(
        name: "alloc", summary: "create and manage storage allocations",
        subcommands: [new, list, show, update, cancel, finalize])

    static let new = Command(
        name: "new", summary: "create an allocation: SIZE bytes on DATA + PARITY blobbers until EXPIRE",
        discussion: """
            Tokens locked (--lock) go to the allocation's write pool and pay the blobbers as data is written;
            what is left returns at finalization. Without --lock the network's quote for these terms is locked.
            """,
        examples: [
            "mosaic alloc new --data 2 --parity 2 --size 1GiB --expire 30d --lock 1",
            "mosaic alloc new --data 4 --parity 2 --size 10GiB --expire 90d --name photos --json",
        ],
        options: NewOptions.self,
        action: { o, inv in
            // The network's rules, before anything is signed: d + p ≤ 64, ≥ 1 MiB, 1 h to 100 years.
            let terms = try AllocationTerms(
                dataShards: o.data.value, parityShards: o.parity.value, size: o.size.bytes, seconds: o.expire.seconds)
            let (data, parity, size, seconds) = (terms.dataShards, terms.parityShards, terms.size, terms.seconds)
            let ctx = try StorageContext(inv)
            let lock: UInt64
            if let given = o.lock {
                lock = given.baseUnits
            } else {
                lock = try await quote(ctx.client, size: size, data: data, parity: parity, seconds: seconds)
            }
            let now = try await ctx.client.network().time
            if !inv.json {
                Console.err("creating allocation (\(data)+\(parity) shards, \(ByteSize.format(size))); waiting until it is sealed…\n")
            }
            let name = o.name ?? ""
            let id = try await chain({ refusal in
                let message = refusal.message
                if refusal.reason == .insufficientCapacity { return tooFew(message, data + parity) }
                if refusal.reason == .insufficientValue {
                    return "\(message); pass a larger --lock (or omit it to lock the network's quote)"
                }
                return "cannot create the allocation: \(message)"
            }) { () async throws(WalletError) in
                try await ctx.wallet.newAllocation(
                    name: name, data: data, parity: parity, size: size, expiration: now + Int64(seconds), lock: lock)
            }
            guard let a = try await ctx.client.storageAllocation(id) else {
                throw CLIError.failure("allocation \(id) was created but cannot be read back")
            }
            return CommandOutput(text: "created allocation \(id)\n" + details(a), json: try json(a))
        })

    struct NewOptions: CommandOptions {
        @Option("data", help: "data shards (any D blobbers rebuild a file)") var data: DataShards
        @Option("parity", help: "parity shards (P blobbers may be lost)") var parity: ParityShards
        @Option("size", help: "user bytes, e.g. 1GiB") var size: ByteCount
        @Option("expire", help: "lifetime from now, e.g. 30d") var expire: Lifetime
        @Option("lock", help: "tokens for the write pool (default: the network's quote)") var lock: TokenAmount?
        @Option("name", "NAME", help: "a label shown in lists") var name: String?
    }

    static let list = Command(
        name: "list", summary: "list this wallet's allocations",
        examples: ["mosaic alloc list", "mosaic alloc list --json"],
        action: { inv in
            let ctx = try LedgerContext(inv)
            let id = ctx.readOnlyWallet().clientID
            let all = try await ctx.client.storageAllocations(owner: id)
            var table = Table(["ID", "NAME", "SHARDS", "SIZE", "USED", "EXPIRES (UTC)", "STATUS"])
            for a in all {
                table.add([
                    a.id, a.name.isEmpty ? "-" : a.name, "\(a.dataShards)+\(a.parityShards)", ByteSize.format(a.size),
                    ByteSize.format(a.usedSize), Wallet.iso8601(a.expiration), a.status.rawValue,
                ])
            }
            let text =
                all.isEmpty
                ? "no allocations yet; create one with 'mosaic alloc new --data 2 --parity 2 --size 1GiB --expire 30d'" : table.rendered()
            return CommandOutput(text: text, json: .object([("allocations", .array(try all.map(json)))]))
        })

    static let show = Command(
        name: "show", summary: "show an allocation: sizes, shards, counters, challenges and blobbers",
        usage: "[ID]", examples: ["mosaic alloc show 3f9a…", "mosaic alloc show --json"],
        arguments: ["ID"], minArguments: 0, maxArguments: 1,
        action: { inv in
            let ctx = try LedgerContext(inv)
            let a = try await resolve(ctx, inv.arguments.first)
            return CommandOutput(text: details(a), json: try json(a))
        })

    static let update = Command(
        name: "update", summary: "extend, grow, add a blobber to, or add tokens to an allocation",
        usage: "ID",
        examples: [
            "mosaic alloc update ID --extend 30d", "mosaic alloc update ID --grow 1GiB --lock 1",
            "mosaic alloc update ID --add-blobber BLOBBER_ID",
        ],
        options: UpdateOptions.self, arguments: ["ID"], minArguments: 1, maxArguments: 1,
        action: { o, inv in
            let extend = o.extend?.seconds
            let grow = o.grow?.bytes
            let add = o.addBlobber
            if let add, !Transaction.isHexID(add) { throw CLIError.usage("--add-blobber \(add): give a blobber id (64 hex characters)") }
            let given = o.lock?.baseUnits
            guard extend != nil || grow != nil || add != nil || (given ?? 0) > 0 else {
                throw CLIError.usage("nothing to update: give --extend, --grow, --add-blobber or --lock")
            }
            let ctx = try StorageContext(inv)
            let a = try await ctx.ledgerAllocation(inv.arguments[0])
            var lock = given ?? 0
            if given == nil {
                let added = try await add.asyncMap { try await ctx.client.storageBlobber($0) } ?? nil
                lock = updateCost(a, extend: extend ?? 0, grow: grow ?? 0, added: added, now: try await ctx.client.network().time)
            }
            _ = try await chain({ r in
                "cannot update allocation \(a.id): \(r.message)\(r.reason == .insufficientValue ? "; pass a larger --lock" : "")"
            }) {
                () async throws(WalletError) in
                try await ctx.wallet.updateAllocation(a.id, extendSeconds: extend, growBytes: grow, addBlobber: add, lock: lock)
            }
            let after = try await ctx.client.storageAllocation(a.id) ?? a
            return CommandOutput(text: "updated allocation \(a.id)\n" + details(after), json: try json(after))
        })

    struct UpdateOptions: CommandOptions {
        @Option("extend", help: "move the expiration later") var extend: Lifetime?
        @Option("grow", help: "add user bytes") var grow: ByteCount?
        @Option("add-blobber", "ID", help: "add one more blobber") var addBlobber: String?
        @Option("lock", help: "tokens to add to the write pool") var lock: TokenAmount?
    }

    static let cancel = Command(
        name: "cancel", summary: "cancel an allocation before it expires (refund minus a 10 % penalty to the blobbers)",
        usage: "ID", arguments: ["ID"], minArguments: 1, maxArguments: 1,
        action: { inv in try await close(inv, cancel: true) })

    static let finalize = Command(
        name: "finalize", summary: "finalize an expired allocation: pay the blobbers, return the rest of the write pool",
        usage: "ID", arguments: ["ID"], minArguments: 1, maxArguments: 1,
        action: { inv in try await close(inv, cancel: false) })

    static func close(_ inv: Invocation, cancel: Bool) async throws -> CommandOutput {
        let ctx = try StorageContext(inv)
        let a = try await ctx.ledgerAllocation(inv.arguments[0])
        let before = try await ctx.wallet.balance().amount.baseUnits
        let verb = cancel ? "cancel" : "finalize"
        _ = try await chain({ "cannot \(verb) allocation \(a.id): \($0)" }) { () async throws(WalletError) in
            cancel ? try await ctx.wallet.cancelAllocation(a.id) : try await ctx.wallet.finalizeAllocation(a.id)
        }
        let after = try await ctx.client.storageAllocation(a.id) ?? a
        let balance = try await ctx.wallet.balance().amount.baseUnits
        let fee = try await ctx.wallet.networkInfo().minimumFee
        let refund = balance + fee > before ? balance + fee - before : 0
        return CommandOutput(
            text:
                "\(cancel ? "canceled" : "finalized") allocation \(a.id); \(TokenAmount(baseUnits: refund)) returned to the wallet (the call's fee was \(TokenAmount(baseUnits: fee)))",
            json: .object([
                ("allocation_id", .string(a.id)), ("status", .string(after.status.rawValue)),
                ("returned", .unsigned(refund)),
            ]))
    }

    // MARK: helpers

    static func resolve(_ ctx: LedgerContext, _ id: String?) async throws -> Allocation {
        let owner = ctx.readOnlyWallet().clientID
        if let id, Transaction.isHexID(id.lowercased()) {
            guard let a = try await ctx.client.storageAllocation(id.lowercased()) else {
                throw CLIError.failure("allocation \(id) does not exist; list yours with 'mosaic alloc list'")
            }
            return a
        }
        let mine = try await ctx.client.storageAllocations(owner: owner)
        let hits = id.map { t in mine.filter { $0.id.hasPrefix(t.lowercased()) || $0.name == t } } ?? mine.filter { $0.status == .active }
        guard hits.count == 1, let a = hits.first else {
            throw CLIError.usage(
                hits.isEmpty ? "no allocation found; list yours with 'mosaic alloc list'" : "several allocations match; give the id")
        }
        return a
    }

    static func details(_ a: Allocation) -> String {
        var lines = [
            "id:                     \(a.id)",
            "name:                   \(a.name.isEmpty ? "-" : a.name)",
            "status:                 \(a.status.rawValue)",
            "expiration:             \(Wallet.iso8601(a.expiration))",
            "size:                   \(ByteSize.format(a.size)) (\(a.size) bytes)",
            "used size:              \(ByteSize.format(a.usedSize)) (\(a.usedSize) bytes)",
            "data shards:            \(a.dataShards)",
            "parity shards:          \(a.parityShards)",
            "writes:                 \(a.numWrites)",
            "reads:                  \(a.numReads)",
            "successful challenges:  \(a.successfulChallenges)",
            "failed challenges:      \(a.failedChallenges)",
            "latest closed challenge: \(a.latestClosedChallenge.map(Wallet.iso8601) ?? "none")",
            "write pool:             \(TokenAmount(baseUnits: a.writePool))",
            "challenge pool:         \(TokenAmount(baseUnits: a.challengePool))",
            "blobbers:",
        ]
        for (i, b) in a.blobbers.enumerated() {
            lines.append("  \(i + 1). \(b.blobberID)  \(b.url)  used \(ByteSize.format(b.used))")
        }
        return lines.joined(separator: "\n")
    }

    /// What `--json` prints: the allocation as the node's API sends it.
    static func json(_ a: Allocation) throws -> JSONValue { try .output(a) }

    /// Runs a storage contract call; an execution the chain refused becomes a CLI failure with
    /// `explain(chain's error)` that keeps the receipt's code.
    static func chain<T>(_ explain: (ExecutionError) -> String, _ body: () async throws(WalletError) -> T) async throws -> T {
        let result: Result<T, WalletError>
        do { result = .success(try await body()) } catch { result = .failure(error) }
        switch result {
        case .success(let v): return v
        case .failure(let e):
            if case .failed(_, let refusal) = e { throw CLIError.coded(code: refusal.code, message: explain(refusal)) }
            throw e
        }
    }

    /// What `update_allocation` charges (docs/STORAGE.md §8), computed as the contract does, plus a
    /// margin for the seconds until the block: any excess stays in the write pool and returns at
    /// finalization.
    static func updateCost(_ a: Allocation, extend: UInt64, grow: UInt64, added: BlobberInfo?, now: Int64) -> UInt64 {
        let newPer = StoragePricing.blobberSize(size: a.size &+ grow, dataShards: a.dataShards)
        let oldLeft = UInt64(max(0, a.expiration - now))
        let newLeft = oldLeft &+ extend
        var extra: UInt64 = 0
        for b in a.blobbers {
            let after = StoragePricing.writeCost(price: b.writePrice, bytes: newPer, seconds: newLeft) ?? 0
            let before = StoragePricing.writeCost(price: b.writePrice, bytes: a.blobberSize, seconds: oldLeft) ?? 0
            extra &+= after > before ? after - before : 0
        }
        if let added { extra &+= StoragePricing.writeCost(price: added.writePrice, bytes: newPer, seconds: newLeft) ?? 0 }
        return extra == 0 ? 0 : extra + extra / 100 + UInt64(a.blobbers.count + 1) * 2
    }

    static func quote(_ client: LedgerClient, size: UInt64, data: Int, parity: Int, seconds: UInt64) async throws -> UInt64 {
        let result: Result<UInt64, LedgerClientError>
        do { result = .success(try await client.storageQuote(size: size, dataShards: data, parityShards: parity, seconds: seconds)) } catch
        {
            result = .failure(error)
        }
        switch result {
        case .success(let v): return v
        case .failure(let e):
            if e.code == "not_enough_blobbers" { throw CLIError.coded(code: e.code, message: tooFew(e.description, data + parity)) }
            throw e
        }
    }

    static func tooFew(_ message: String, _ needed: Int) -> String {
        "\(message); an allocation needs \(needed) blobbers with room: use fewer --data/--parity shards or a smaller --size, or start more blobbers ('mosaic blobber' or 'mosaic devnet --blobbers N')"
    }
}

extension Optional {
    /// `map` with an async transform.
    func asyncMap<U>(_ f: (Wrapped) async throws -> U) async rethrows -> U? {
        guard let v = self else { return nil }
        return try await f(v)
    }
}
