import Foundation
import MosaicCrypto
import MosaicProtocol
import Testing

@testable import MosaicLedger

/// A tiny key-value contract: `put {key, value}`, `drop {key}`, `burn {n}` (spends gas), and views
/// `get {key}` and `list {prefix, after?, limit, reverse?}`; `put_and_list` scans inside a call.
struct KeyValueContract: Contract {
    let name = "kv"
    let methods = ["put", "drop", "burn", "put_and_list"]
    let views = ["get", "list", "require"]

    func execute(_ context: ContractContext, method: String, args: [String: JSONValue]) throws(ContractError) -> String {
        switch method {
        case "put":
            guard let k = args["key"]?.stringValue, let v = args["value"]?.stringValue else { throw .invalidArguments("key and value") }
            try context.set(k, Array(v.utf8))
            return "ok"
        case "drop":
            guard let k = args["key"]?.stringValue else { throw .invalidArguments("key") }
            try context.set(k, nil)
            return "ok"
        case "burn":
            for _ in 0..<(args["n"]?.integerValue ?? 0) { try context.consumeGas(1000) }
            return "burned"
        case "put_and_list":
            guard let k = args["key"]?.stringValue else { throw .invalidArguments("key") }
            try context.set(k, Array("new".utf8))
            return try context.scan(prefix: args["prefix"]?.stringValue ?? "", limit: 100).map(\.key).joined(separator: ",")
        default: throw .unknownMethod(contract: name, method: method)
        }
    }

    func view(_ state: ContractView, name: String, args: [String: JSONValue]) throws(ContractError) -> JSONValue {
        switch name {
        case "get":
            guard let k = args["key"]?.stringValue else { throw .invalidArguments("key is required") }
            return try state.get(k).map { .string(String(decoding: $0, as: UTF8.self)) } ?? .null
        case "require":
            guard let k = args["key"]?.stringValue else { throw .invalidArguments("key is required") }
            guard let v = try state.get(k) else { throw .refused(.notFound, "nothing is stored at \(k)") }
            return .string(String(decoding: v, as: UTF8.self))
        case "list":
            let rows = try state.scan(
                prefix: args["prefix"]?.stringValue ?? "", after: args["after"]?.stringValue,
                limit: Int(args["limit"]?.integerValue ?? 100), reverse: args["reverse"] == .bool(true))
            return .array(rows.map { .string("\($0.key)=\(String(decoding: $0.value, as: UTF8.self))") })
        default: throw .unknownView(contract: self.name, view: name)
        }
    }
}

@Suite struct ContractViewTests {
    final class KV {
        let net: TestNet
        var nonce: UInt64 = 0
        init() throws { net = try TestNet(confirmations: 0, contracts: [KeyValueContract()]) }

        @discardableResult
        func call(_ method: String, _ args: [String: JSONValue], gas: UInt64? = nil) throws -> TransactionRecord? {
            nonce += 1
            let tx = Transaction.signed(
                by: net.alice, chainID: net.genesis.chainID, to: ContractCall.address(of: "kv"), value: 0,
                fee: net.genesis.minimumFee, nonce: nonce, type: .contractCall,
                data: ContractCall(contract: "kv", method: method, args: args, gas: gas).json,
                creationDate: net.now)
            try net.ledger.submit(tx)
            return try net.ledger.transaction(tx.hash)
        }
        func put(_ k: String, _ v: String) throws { try call("put", ["key": .string(k), "value": .string(v)]) }
        func list(_ args: [String: JSONValue], round: UInt64? = nil) throws -> [String] {
            guard case .array(let a) = try net.ledger.view(contract: "kv", name: "list", args: args, round: round).result else { return [] }
            return a.compactMap(\.stringValue)
        }
    }

    @Test func scanReturnsPrefixRangeInByteOrderWithPagingBothWays() throws {
        let kv = try KV()
        for k in ["a/2", "a/10", "a/1", "b/1", "a/é", "a/Z", "a"] { try kv.put(k, k.uppercased()) }
        _ = try kv.net.ledger.produceBlock()
        #expect(try kv.list(["prefix": .string("a/")]) == ["a/1=A/1", "a/10=A/10", "a/2=A/2", "a/Z=A/Z", "a/é=A/É"])
        #expect(try kv.list(["prefix": .string("a/"), "after": .string("a/10"), "limit": .integer(2)]) == ["a/2=A/2", "a/Z=A/Z"])
        #expect(try kv.list(["prefix": .string("a/"), "reverse": .bool(true), "limit": .integer(2)]) == ["a/é=A/É", "a/Z=A/Z"])
        #expect(try kv.list(["prefix": .string("a/"), "reverse": .bool(true), "after": .string("a/2")]) == ["a/10=A/10", "a/1=A/1"])
        #expect(try kv.list(["prefix": .string("")]).count == 7)
    }

    @Test func viewsReadAnEarlierRoundAsItWas() throws {
        let kv = try KV()
        try kv.put("n/x", "one")
        try kv.put("n/y", "one")
        let r1 = try kv.net.ledger.produceBlock().round
        try kv.put("n/x", "two")
        try kv.call("drop", ["key": .string("n/y")])
        try kv.put("n/z", "two")
        let r2 = try kv.net.ledger.produceBlock().round
        try kv.put("n/x", "three")
        _ = try kv.net.ledger.produceBlock()

        #expect(try kv.list(["prefix": .string("n/")], round: r1) == ["n/x=one", "n/y=one"])
        #expect(try kv.list(["prefix": .string("n/")], round: r2) == ["n/x=two", "n/z=two"])
        #expect(try kv.list(["prefix": .string("n/")]) == ["n/x=three", "n/z=two"])
        #expect(try kv.list(["prefix": .string("n/")], round: 0) == [])
        let old = try kv.net.ledger.view(contract: "kv", name: "get", args: ["key": .string("n/y")], round: r1)
        #expect(old == ContractViewResult(round: r1, result: .string("one")))
        #expect(try kv.net.ledger.view(contract: "kv", name: "get", args: ["key": .string("n/y")]).result == .null)

        // History survives a restart.
        try kv.net.reopen()
        #expect(try kv.list(["prefix": .string("n/")], round: r1) == ["n/x=one", "n/y=one"])
    }

    @Test func pagingAnEarlierRoundSeesExactlyThatRoundThroughLaterChurn() throws {
        let kv = try KV()
        var expected: [String: String] = [:]
        for i in 0..<40 {
            let k = String(format: "p/%02d", i)
            try kv.put(k, "a\(i)")
            expected[k] = "a\(i)"
        }
        let r1 = try kv.net.ledger.produceBlock().round
        let atR1 = expected
        // Two busy rounds: deletions, changes and new keys all through the range.
        for i in stride(from: 0, to: 40, by: 2) { try kv.call("drop", ["key": .string(String(format: "p/%02d", i))]) }
        for i in 40..<60 { try kv.put(String(format: "p/%02d", i), "b\(i)") }
        _ = try kv.net.ledger.produceBlock()
        for i in stride(from: 1, to: 60, by: 3) { try kv.put(String(format: "p/%02d", i), "c\(i)") }
        _ = try kv.net.ledger.produceBlock()

        func pages(round: UInt64?, reverse: Bool) throws -> [String] {
            var out: [String] = []
            var after: String?
            while true {
                var args: [String: JSONValue] = ["prefix": .string("p/"), "limit": .integer(3), "reverse": .bool(reverse)]
                if let after { args["after"] = .string(after) }
                let page = try kv.list(args, round: round)
                out += page
                guard page.count == 3, let last = page.last?.split(separator: "=").first else { return out }
                after = String(last)
            }
        }
        let want = atR1.keys.sorted().map { "\($0)=\(atR1[$0] ?? "")" }
        #expect(try pages(round: r1, reverse: false) == want)
        #expect(try pages(round: r1, reverse: true) == want.reversed())
        let now = try pages(round: nil, reverse: false)
        #expect(now.count == 46, "20 odd originals, 20 new, 6 dropped even keys written again")
        #expect(now.first == "p/01=c1" && now.last == "p/59=b59")
    }

    @Test func viewsDefaultToTheLatestSealedRound() throws {
        let net = try TestNet(confirmations: 3, contracts: [KeyValueContract()])
        let put = Transaction.signed(
            by: net.alice, chainID: net.genesis.chainID, to: ContractCall.address(of: "kv"), value: 0,
            fee: net.genesis.minimumFee, nonce: 1, type: .contractCall,
            data: ContractCall(contract: "kv", method: "put", args: ["key": .string("k"), "value": .string("v")]).json,
            creationDate: net.now)
        try net.ledger.submit(put)
        _ = try net.ledger.produceBlock()
        var seen = try net.ledger.view(contract: "kv", name: "get", args: ["key": .string("k")])
        #expect(seen.round == 0 && seen.result == .null)
        for _ in 0..<3 { _ = try net.ledger.produceBlock() }
        seen = try net.ledger.view(contract: "kv", name: "get", args: ["key": .string("k")])
        #expect(seen.round == 1 && seen.result == .string("v"))
    }

    @Test func scanInsideACallSeesTheBlocksEarlierWrites() throws {
        let kv = try KV()
        try kv.put("p/b", "1")
        _ = try kv.net.ledger.produceBlock()
        try kv.put("p/a", "1")
        try kv.call("drop", ["key": .string("p/b")])
        let tx = try #require(try kv.call("put_and_list", ["key": .string("p/c"), "prefix": .string("p/")]))
        _ = try kv.net.ledger.produceBlock()
        let record = try #require(try kv.net.ledger.transaction(tx.transaction.hash))
        #expect(record.receipt?.output == "p/a,p/c")
    }

    @Test func unknownContractsViewsRoundsAndBadArgsAreClearErrors() throws {
        let kv = try KV()
        let unknown = rejection { _ = try kv.net.ledger.view(contract: "nope", name: "get") }
        #expect(unknown?.code == "not_found")
        #expect(unknown?.description.contains("no contract named \"nope\"; contracts: faucet, kv, ") == true)
        #expect(
            rejection { _ = try kv.net.ledger.view(contract: "kv", name: "nope") }
                == .notFound("contract kv has no view \"nope\"; its views: get, list, require"))
        #expect(
            rejection { _ = try kv.net.ledger.view(contract: "kv", name: "get", round: 99) }
                == .notFound("round 99 does not exist yet; the latest round is 0 (sealed: 0)"))
        // A view's bad arguments are the contract's words, not a "malformed transaction"; the API code stays malformed.
        let missing = rejection { _ = try kv.net.ledger.view(contract: "kv", name: "get") }
        #expect(missing == .invalidRead("invalid arguments: key is required"))
        #expect(missing?.code == "malformed")
        #expect(missing?.description == "invalid arguments: key is required")
        #expect(
            rejection { _ = try kv.list(["limit": .integer(5000)]) }
                == .invalidRead("invalid arguments: a scan returns 1 to 1000 rows; asked for 5000"))
        // A rule of the view that refuses keeps the contract's code (and its HTTP status follows it).
        let absent = rejection { _ = try kv.net.ledger.view(contract: "kv", name: "require", args: ["key": .string("x")]) }
        #expect(absent == .viewRefused(ExecutionError(.notFound, "nothing is stored at x")))
        #expect(absent?.code == "not_found" && absent?.httpStatus == 404)
        #expect(LedgerError.viewRefused(ExecutionError(.stateUnavailable, "unreadable")).httpStatus == 422)
    }

    @Test func aCallOverItsOwnGasLimitFailsAndIsRecordedWithItsError() throws {
        let kv = try KV()
        let low = try #require(try kv.call("burn", ["n": .integer(5)], gas: 4_000))
        let fine = try #require(try kv.call("burn", ["n": .integer(5)], gas: 6_000))
        let capped = try #require(try kv.call("burn", ["n": .integer(5)], gas: UInt64.max))
        _ = try kv.net.ledger.produceBlock()
        let lowRecord = try #require(try kv.net.ledger.transaction(low.transaction.hash))
        #expect(lowRecord.receipt?.outcome == .failure)
        #expect(lowRecord.receipt?.error?.message == "out of gas (limit 4000)")
        #expect(lowRecord.receipt?.error?.reason == .outOfGas)
        #expect(try kv.net.ledger.transaction(fine.transaction.hash)?.receipt?.outcome == .success)
        #expect(try kv.net.ledger.transaction(capped.transaction.hash)?.receipt?.outcome == .success)
    }
}
