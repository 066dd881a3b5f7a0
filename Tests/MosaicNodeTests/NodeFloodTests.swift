import Foundation
import MosaicCrypto
import MosaicLedger
import MosaicProtocol
import MosaicSDK
import MosaicTestSupport
import Testing

@testable import MosaicNode

/// Issue 11 item 6 at the node: free transactions are limited per source address, and a round
/// past Int64.max in a path answers 404 instead of killing the node (the issue's first example).
@Suite(.timeLimit(.minutes(2))) struct NodeFloodTests {
    static func pour(_ net: TestDevnet, _ key: Ed25519.SigningKey) -> Transaction {
        Transaction.signed(
            by: key, chainID: net.genesis.chainID, to: ContractCall.address(of: "faucet"), value: 0, fee: 0, nonce: 1,
            type: .contractCall, data: ContractCall(contract: "faucet", method: "pour").json,
            creationDate: Int64(Date().timeIntervalSince1970))
    }

    @Test func freshAccountsPouringFromOneAddressAreLimitedPerMinute() async throws {
        let net = try TestDevnet(freeSubmissionsPerMinute: 3)
        defer { Task { await net.stop() } }
        for i in 0..<3 {
            let r = try await net.raw(
                "POST", "/v1/transactions", body: try JSONEncoder().encode(Self.pour(net, try testKey(UInt8(100 + i)))))
            #expect(r.status == 202)
        }
        let flood = Self.pour(net, try testKey(110))
        let refused = try await net.raw("POST", "/v1/transactions", body: try JSONEncoder().encode(flood))
        #expect(refused.status == 429)
        let error = net.json(refused.body)["error"] as? [String: Any]
        #expect(error?["code"] as? String == "free_limited")
        #expect((error?["message"] as? String)?.contains("per minute from one address") == true)
        // A batch carrying a pour is refused whole, before anything is admitted.
        let batch = try await net.raw(
            "POST", "/v1/transactions/batch",
            body: try JSONEncoder().encode(BatchSubmission(transactions: [Self.pour(net, try testKey(111))])))
        #expect(batch.status == 429)
        #expect(try await net.raw("GET", "/v1/transactions/\(flood.hash)").status == 404)
        // Paid transactions from the same address still flow.
        let paid = net.transfer(net.alice, to: net.bob.publicKey.clientID, token, nonce: 1)
        #expect(try await net.raw("POST", "/v1/transactions", body: try JSONEncoder().encode(paid)).status == 202)
        _ = try await net.wallet(net.alice).wait(for: paid.hash, until: .finalized, timeout: .seconds(10))
    }

    /// The per-address window on its own clock: refused within the minute, admitted after it,
    /// a batch counted whole, and its memory bounded however many addresses come.
    @Test func theSourceLimiterCountsPerAddressPerMinuteWithinBoundedMemory() throws {
        let limiter = SourceRateLimiter(perMinute: 3)
        let t: Int64 = 1_800_000_000
        for _ in 0..<3 { try limiter.admit("10.0.0.1", now: t) }
        #expect(throws: LedgerError.self) { try limiter.admit("10.0.0.1", now: t + 59) }
        var message = ""
        do {
            try limiter.admit("10.0.0.1", now: t + 30)
            Issue.record("a 4th within the minute was admitted")
        } catch {
            #expect(error.code == "free_limited")
            message = error.description
        }
        #expect(message.contains("retry in 30 s"))
        try limiter.admit("10.0.0.2", now: t + 59)
        try limiter.admit("10.0.0.1", now: t + 60)
        #expect(throws: LedgerError.self) { try limiter.admit("10.0.0.3", count: 4, now: t) }
        #expect(throws: LedgerError.self) { try limiter.admit("10.0.0.3", count: .max, now: t) }
        try limiter.admit("10.0.0.3", count: 3, now: t)
        for i in 0..<(SourceRateLimiter.maxSources + 10) { try limiter.admit("a\(i)", now: t) }
        #expect(limiter.trackedSources <= SourceRateLimiter.maxSources)
    }

    @Test func roundsPastInt64MaxAnswerNotFoundAndTheNodeLives() async throws {
        let net = try TestDevnet()
        defer { Task { await net.stop() } }
        for path in ["/v1/blocks/9223372036854775808", "/v1/blocks/18446744073709551615", "/explorer/block/9223372036854775808"] {
            let r = try await net.raw("GET", path)
            #expect(r.status == 404 || r.status == 400, "\(path): \(r.status)")
        }
        #expect(try await net.raw("GET", "/health").status == 200)
    }

    /// The history page behind the account routes takes any limit and offset.
    @Test func accountHistoryTakesAnyLimitAndOffset() async throws {
        let net = try TestDevnet()
        defer { Task { await net.stop() } }
        let id = net.alice.publicKey.clientID
        // One pending (a nonce gap keeps it waiting) and one included.
        try await net.client.submit(net.transfer(net.alice, to: net.bob.publicKey.clientID, 5, nonce: 3))
        let sent = net.transfer(net.alice, to: net.bob.publicKey.clientID, 5, nonce: 1)
        try await net.client.submit(sent)
        _ = try await net.wallet(net.alice).wait(for: sent.hash, until: .finalized, timeout: .seconds(10))
        let ledger = net.node.ledger
        for (limit, offset) in [(Int.max, Int.max), (Int.min, Int.min), (Int.max, 0), (1, Int.max), (Int.max, -1)] {
            let page = try NodeServer.history(ledger, id, limit: limit, offset: offset)
            #expect(page.total == 2)
            #expect(page.transactions.count <= 2)
        }
        #expect(try NodeServer.history(ledger, id, limit: Int.max, offset: Int.min).transactions.count == 2)
    }
}
