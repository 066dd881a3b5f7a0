import Foundation
import MosaicCrypto
import MosaicProtocol
import MosaicTestSupport

@testable import MosaicLedger

/// A ledger with the social contract on a fixed clock (moved with `advance`), and funded
/// accounts `users[i]` holding `funds[i]` tokens at genesis, and a reward pool of `pool` tokens
/// (an allocation to the contract's address).
final class SocialNet {
    static let start: Int64 = 1_800_000_000
    let directory: String
    let genesis: Genesis
    let users: [Ed25519.SigningKey]
    let ledger: Ledger
    private var nonces: [String: UInt64] = [:]

    init(funds: [UInt64], pool: UInt64 = 0) throws {
        directory = NSTemporaryDirectory() + "mosaic-social-test-" + Hex.encode(Random.bytes(6))
        users = try funds.indices.map { i in
            try Ed25519.SigningKey(seed: SecretBytes([UInt8](repeating: UInt8(truncatingIfNeeded: i + 40), count: 31) + [UInt8(i / 256)]))
        }
        var allocations: [String: UInt64] = [:]
        for (k, f) in zip(users, funds) { allocations[k.publicKey.clientID] = f * token }
        if pool > 0 { allocations[SocialNet.contract] = pool * token }
        var g = Genesis(chainID: "mosaic-social-test", genesisTime: SocialNet.start, allocations: allocations)
        g.confirmations = 1
        g.maxNonceAhead = 1000
        genesis = g
        ledger = try Ledger(
            directory: directory, database: try TestLedgerDatabase.forDirectory(directory), genesis: g,
            clock: LedgerClock(source: { SocialNet.start * 1000 }))
    }

    deinit {
        ledger.close()
        try? FileManager.default.removeItem(atPath: directory)
    }

    func id(_ i: Int) -> String { users[i].publicKey.clientID }

    /// The social contract's account (the reward pool and voting stakes).
    static let contract = ContractCall.address(of: "social")

    /// The ledger time the next block gets.
    var now: Int64 { max(ledger.clock.now, ledger.latestBlock.timestamp) }

    func advance(_ seconds: Int64) throws { try ledger.advanceClock(by: seconds) }

    /// A signed social call from `users[i]` (not submitted).
    func tx(_ i: Int, _ method: String, _ args: [String: JSONValue], value: UInt64 = 0) -> Transaction {
        let key = users[i]
        let nonce = (nonces[key.publicKey.clientID] ?? 0) + 1
        nonces[key.publicKey.clientID] = nonce
        return Transaction.signed(
            by: key, chainID: genesis.chainID, to: ContractCall.address(of: "social"), value: value,
            fee: genesis.minimumFee, nonce: nonce, type: .contractCall,
            data: ContractCall(contract: "social", method: method, args: args).json, creationDate: now)
    }

    /// Submits the transactions, makes one block with all of them, returns their receipts in order.
    @discardableResult
    func block(_ txs: [Transaction]) throws -> [TransactionReceipt] {
        for t in txs { try ledger.submit(t) }
        try ledger.produceBlock()
        return try txs.map { t in
            guard let r = try ledger.transaction(t.hash)?.receipt else { throw LedgerError.storage("no receipt for \(t.hash)") }
            return r
        }
    }

    /// One call in its own block; its receipt.
    @discardableResult
    func call(_ i: Int, _ method: String, _ args: [String: JSONValue]) throws -> TransactionReceipt {
        try block([tx(i, method, args)])[0]
    }

    /// The error of a call that must fail (nil if it succeeded).
    func failure(_ i: Int, _ method: String, _ args: [String: JSONValue]) throws -> String? {
        let r = try call(i, method, args)
        return r.outcome == .failure ? r.error?.message : nil
    }

    /// Root post args.
    func postArgs(
        _ permlink: String, category: String = "general", tags: [String] = [], title: String = "T", body: String = "B",
        author: String? = nil
    ) -> [String: JSONValue] {
        var a: [String: JSONValue] = [
            "permlink": .string(permlink), "parent_author": .string(""), "parent_permlink": .string(category),
            "title": .string(title), "body": .string(body), "tags": .array(tags.map(JSONValue.string)),
        ]
        if let author { a["author"] = .string(author) }
        return a
    }

    /// A plain transfer from `users[i]` to `users[j]`, in its own block.
    @discardableResult
    func transfer(_ i: Int, to j: Int, _ amount: UInt64) throws -> TransactionReceipt {
        let key = users[i]
        let nonce = (nonces[key.publicKey.clientID] ?? 0) + 1
        nonces[key.publicKey.clientID] = nonce
        let t = Transaction.signed(
            by: key, chainID: genesis.chainID, to: id(j), value: amount, fee: genesis.minimumFee, nonce: nonce,
            creationDate: now)
        return try block([t])[0]
    }

    /// Locks `amount` of `users[i]`'s tokens as its voting stake (in one block with any others).
    func stake(_ users: [Int], _ amount: UInt64) throws {
        let receipts = try block(users.map { tx($0, "stake", [:], value: amount) })
        for r in receipts where r.outcome != .success { throw LedgerError.storage(r.error?.message ?? "stake failed") }
    }

    /// The voting stake of `users[i]` as the account view shows it.
    func stakeOf(_ i: Int) throws -> SocialAccount {
        try decode(view("account", ["client_id": .string(id(i))]), as: SocialAccount.self)
    }

    func voteArgs(_ author: Int, _ permlink: String, _ weight: Int64) -> [String: JSONValue] {
        ["author": .string(id(author)), "permlink": .string(permlink), "weight": .integer(weight)]
    }

    /// A view at the latest round (the tests read their own writes at once).
    func view(_ name: String, _ args: [String: JSONValue], round: UInt64? = nil) throws -> JSONValue {
        try ledger.view(contract: "social", name: name, args: args, round: round ?? ledger.latestBlock.round).result
    }

    func decode<T: Decodable>(_ value: JSONValue, as: T.Type) throws -> T {
        try JSONDecoder().decode(T.self, from: JSONEncoder().encode(value))
    }

    func post(_ author: Int, _ permlink: String) throws -> SocialPost? {
        try decode(view("post", ["author": .string(id(author)), "permlink": .string(permlink)]), as: SocialPost?.self)
    }

    func feed(_ sort: String, tag: String? = nil, limit: Int = 100, start: SocialPost? = nil, round: UInt64? = nil) throws -> SocialFeedPage
    {
        var args: [String: JSONValue] = ["sort": .string(sort), "limit": .integer(Int64(limit))]
        if let tag { args["tag"] = .string(tag) }
        if let start {
            args["start_author"] = .string(start.author)
            args["start_permlink"] = .string(start.permlink)
        }
        return try decode(view("feed", args, round: round), as: SocialFeedPage.self)
    }

    func balance(_ i: Int) throws -> UInt64 { try ledger.account(id(i)).balance }
}
