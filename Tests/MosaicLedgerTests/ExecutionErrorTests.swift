import Foundation
import MosaicCrypto
import MosaicDatabase
import MosaicProtocol
import MosaicTestSupport
import Testing

@testable import MosaicLedger

/// The receipt's `error: {code, message}`: its hash (docs/PROTOCOL.md §2.6 vectors), its wire and
/// stored forms, and receipts stored before codes.
@Suite(.timeLimit(.minutes(1))) struct ExecutionErrorTests {
    @Test func outputHashMatchesTheProtocolVectors() {
        let tx = String(repeating: "ab", count: 32)
        #expect(
            Ledger.outputHash(tx, .success, nil, "transferred 1.5") == "54f3dfebcba3151bdd981d4623e641c03c332174340ba21e338027f6a7d2461f")
        #expect(
            Ledger.outputHash(tx, .failure, ExecutionError(.insufficientBalance, "insufficient balance: has 1, needs 2"), "")
                == "b1d3451fbadabc0b2eae94e12c33b86cb6ad0c14c3b0bfb2e94988f8d27a593b")
        // The code is covered: same message, other code, other hash.
        #expect(
            Ledger.outputHash(tx, .failure, ExecutionError(.overflow, "insufficient balance: has 1, needs 2"), "")
                != "b1d3451fbadabc0b2eae94e12c33b86cb6ad0c14c3b0bfb2e94988f8d27a593b")
    }

    @Test func wireAndStoredForms() throws {
        let e = ExecutionError(.notFound, "no allocation x; list yours with storage allocations")
        let json = String(decoding: try JSONEncoder.sorted.encode(e), as: UTF8.self)
        #expect(json == #"{"code":"not_found","message":"no allocation x; list yours with storage allocations"}"#)
        #expect(try JSONDecoder().decode(ExecutionError.self, from: Data(json.utf8)) == e)
        #expect(ExecutionError(stored: e.stored) == e)
        // A bare string (an older node's answer, an older ledger's column) is code `refused`.
        #expect(
            try JSONDecoder().decode(ExecutionError.self, from: Data(#""out of gas (limit 5)""#.utf8))
                == ExecutionError(.refused, "out of gas (limit 5)"))
        #expect(ExecutionError(stored: "{not json") == ExecutionError(.refused, "{not json"))
        // A code this version does not know still decodes.
        let future = try JSONDecoder().decode(ExecutionError.self, from: Data(#"{"code":"later_rule","message":"m"}"#.utf8))
        #expect(future.code == "later_rule" && future.message == "m")
        #expect(Set(ExecutionError.Code.all).count == ExecutionError.Code.all.count)
    }

    @Test func contractRefusalsKeepTheirCodeInTheReceipt() throws {
        let (net, tx) = try Self.limitedPour()
        let receipt = try #require(try net.ledger.transaction(tx.hash)?.receipt)
        #expect(receipt.outcome == .failure)
        #expect(receipt.error?.reason == .rateLimited)
        #expect(receipt.error?.message.hasPrefix("faucet limit reached for this account") == true)
        #expect(receipt.outputHash == Ledger.outputHash(tx.hash, .failure, receipt.error, ""))
        // The node API's view carries the same object.
        let view = TransactionView(try #require(try net.ledger.transaction(tx.hash)))
        let decoded = try JSONDecoder().decode(TransactionView.self, from: try JSONEncoder().encode(view))
        #expect(decoded.error == receipt.error)
    }

    /// A second pour within the account's window: refused in execution, fee charged.
    static func limitedPour() throws -> (TestNet, Transaction) {
        let net = try TestNet(faucet: FaucetConfig(pourAmount: token, accountLimit: token, accountWindowSeconds: 3600))
        let fresh = try testKey(9)
        try net.ledger.submit(net.pour(fresh, nonce: 1))
        try net.ledger.produceBlock()
        let tx = net.pour(fresh, nonce: 2, fee: net.genesis.minimumFee)
        try net.ledger.submit(tx)
        try net.ledger.produceBlock()
        return (net, tx)
    }

    /// A data folder written before codes stored the bare message: a node restarted on it reads
    /// the receipt (code `refused`) instead of failing.
    /// (SQLite only: such folders were all SQLite; no PostgreSQL ledger predates codes.)
    @Test func receiptsStoredBeforeCodesStillRead() throws {
        guard !TestLedgerDatabase.isPostgres else { return }
        let (net, tx) = try Self.limitedPour()
        net.ledger.close()
        let db = try Database(path: net.directory + "/ledger.sqlite")
        try db.prepare("UPDATE transactions SET error = ?1 WHERE hash = ?2").run(.text("faucet limit reached"), .text(tx.hash))
        db.close()
        try net.reopen()
        let receipt = try #require(try net.ledger.transaction(tx.hash)?.receipt)
        #expect(receipt.outcome == .failure)
        #expect(receipt.error == ExecutionError(.refused, "faucet limit reached"))
    }
}

extension JSONEncoder {
    fileprivate static var sorted: JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }
}
