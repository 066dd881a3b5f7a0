import Foundation
import MosaicCrypto
import MosaicLedger
import MosaicProtocol
import MosaicSDK
import MosaicTestSupport
import Testing

/// End to end through the SDK and the HTTP API against a real node on loopback.
@Suite(.timeLimit(.minutes(3))) struct LedgerAPITests {
    @Test func faucetThenBalance() async throws {
        let net = try TestDevnet()
        let carol = net.wallet(try testKey(3))
        #expect(try await carol.balance().baseUnits == 0)
        let pour = try await carol.faucet()
        let view = try await carol.wait(for: pour.hash, until: .sealed, timeout: .seconds(20))
        #expect(view.status == .sealed)
        #expect(view.outcome == .success)
        let b = try await carol.balance()
        #expect(b.baseUnits == net.genesis.faucet.pourAmount)
        #expect(b.tokens == "1")
        #expect(b.usd == "0.10")
        await net.stop()
    }

    @Test func sendIsSealedAndBothBalancesAreExact() async throws {
        let net = try TestDevnet()
        let alice = net.wallet(net.alice)
        let bobID = net.bob.publicKey.clientID
        let tx = try await alice.send(to: bobID, amount: "1.5", fee: "0.001", description: "lunch")
        #expect(tx.value == 15_000_000_000)
        #expect(tx.fee == 10_000_000)
        let v = try await alice.wait(for: tx.hash, until: .sealed, timeout: .seconds(20))
        #expect(v.status == .sealed)
        #expect(v.confirmations >= net.genesis.confirmations)
        #expect(try await net.balance(net.alice) == 100 * token - 15_000_000_000 - 10_000_000)
        #expect(try await net.balance(net.bob) == 50 * token + 15_000_000_000)
        // The same facts over raw HTTP: integers, snake_case.
        let r = try await net.raw("GET", "/v1/accounts/\(bobID)")
        #expect(r.status == 200)
        #expect(net.json(r.body)["balance"] as? Int == Int(50 * token + 15_000_000_000))
        let t = net.json(try await net.raw("GET", "/v1/transactions/\(tx.hash)").body)
        #expect(t["status"] as? String == "sealed")
        #expect(t["value"] as? Int == 15_000_000_000)
        #expect(t["transaction_data"] as? String == "lunch")
        #expect(t["outcome"] as? String == "success")
        let history = try await alice.transactions()
        #expect(history.transactions.first?.hash == tx.hash)
        #expect(history.total == 1)
        #expect(try await net.client.transactions(of: bobID).transactions.first?.hash == tx.hash)
        await net.stop()
    }

    @Test func fiftyConcurrentSendsFromOneWalletAllSealWithDistinctNonces() async throws {
        let net = try TestDevnet()
        let alice = net.wallet(net.alice)
        let bobID = net.bob.publicKey.clientID
        let txs = try await withThrowingTaskGroup(of: Transaction.self) { group in
            for i in 0..<50 {
                group.addTask { try await alice.transfer(to: bobID, value: UInt64(i + 1) * 1000) }
            }
            var out: [Transaction] = []
            for try await t in group { out.append(t) }
            return out
        }
        #expect(Set(txs.map(\.nonce)) == Set(1...50))
        for t in txs {
            let v = try await alice.wait(for: t.hash, until: .sealed, timeout: .seconds(30))
            #expect(v.status == .sealed && v.outcome == .success)
        }
        let account = try await net.client.account(net.alice.publicKey.clientID)
        #expect(account.nonce == 50)
        let sent = (1...50).reduce(UInt64(0)) { $0 + UInt64($1) * 1000 }
        #expect(account.balance == 100 * token - sent - 50 * net.genesis.minimumFee)
        await net.stop()
    }

    @Test func twoWalletObjectsOnOneKeyResyncAfterStaleNonces() async throws {
        let net = try TestDevnet()
        // Like two processes using the same wallet: each has its own nonce counter.
        let first = net.wallet(net.alice)
        let second = net.wallet(net.alice)
        let bobID = net.bob.publicKey.clientID
        let txs = try await withThrowingTaskGroup(of: Transaction.self) { group in
            for i in 0..<20 {
                let w = i % 2 == 0 ? first : second
                group.addTask { try await w.transfer(to: bobID, value: 1000) }
            }
            var out: [Transaction] = []
            for try await t in group { out.append(t) }
            return out
        }
        #expect(Set(txs.map(\.nonce)).count == 20)
        for t in txs { _ = try await first.wait(for: t.hash, until: .sealed, timeout: .seconds(30)) }
        #expect(try await net.client.account(net.alice.publicKey.clientID).nonce == 20)
        await net.stop()
    }

    @Test func badTransactionsAreRejectedWithTheirCodesAndChangeNothing() async throws {
        let net = try TestDevnet()
        let aliceID = net.alice.publicKey.clientID
        let bobID = net.bob.publicKey.clientID
        let first = net.transfer(net.alice, to: bobID, 1000, nonce: 1)
        try await net.client.submit(first)
        _ = try await net.wallet(net.alice).wait(for: first.hash, until: .sealed, timeout: .seconds(20))
        let before = try await net.client.account(aliceID)
        let supplyBefore = net.json(try await net.raw("GET", "/v1/supply").body)

        var tampered = net.transfer(net.alice, to: bobID, 1000, nonce: 2)
        tampered.value = 2000
        var forged = net.transfer(net.alice, to: bobID, 1000, nonce: 2)
        forged.signature = net.transfer(net.alice, to: bobID, 1001, nonce: 2).signature
        let cases: [(Transaction, String, Int)] = [
            (first, "duplicate", 409),
            (tampered, "invalid_hash", 400),
            (forged, "invalid_signature", 400),
            (net.transfer(net.alice, to: bobID, 1000, nonce: 2, chainID: "mosaic-other"), "wrong_chain", 400),
            (net.transfer(net.alice, to: bobID, 101 * token, nonce: 2), "insufficient_balance", 400),
            (net.transfer(net.alice, to: bobID, 999, nonce: 1), "stale_nonce", 400),
            (net.transfer(net.alice, to: bobID, 999, nonce: 40), "nonce_too_far_ahead", 400),
            (net.transfer(net.alice, to: bobID, 999, nonce: 2, fee: 1), "fee_too_low", 400),
        ]
        for (tx, code, status) in cases {
            let body = try JSONEncoder().encode(tx)
            let r = try await net.raw("POST", "/v1/transactions", body: body)
            let error = net.json(r.body)["error"] as? [String: Any]
            #expect(r.status == status, "\(code)")
            #expect(error?["code"] as? String == code)
            #expect((error?["message"] as? String)?.isEmpty == false)
            // The SDK surfaces the same code.
            do {
                try await net.client.submit(tx)
                Issue.record("\(code) was accepted")
            } catch {
                #expect(error.code == code)
            }
        }
        let stale = try await net.raw("POST", "/v1/transactions", body: JSONEncoder().encode(cases[5].0))
        #expect((net.json(stale.body)["error"] as? [String: Any])?["message"] as? String == "nonce 1 already used; next is 2")
        let garbage = try await net.raw("POST", "/v1/transactions", body: Data("{\"hash\":1}".utf8))
        #expect(garbage.status == 400)
        #expect((net.json(garbage.body)["error"] as? [String: Any])?["code"] as? String == "malformed")
        #expect(try await net.client.account(aliceID) == before)
        #expect(try await net.client.account(aliceID).pendingCount == 0)
        let supplyAfter = net.json(try await net.raw("GET", "/v1/supply").body)
        #expect(supplyAfter["balance_sum"] as? Int == supplyBefore["balance_sum"] as? Int)
        #expect(supplyAfter["balance_sum"] as? Int == supplyAfter["total_supply"] as? Int)
        await net.stop()
    }

    @Test func batchSubmissionAnswersPerTransaction() async throws {
        let net = try TestDevnet()
        let bobID = net.bob.publicKey.clientID
        let good = (1...5).map { net.transfer(net.alice, to: bobID, 100, nonce: UInt64($0)) }
        let bad = net.transfer(net.bob, to: bobID, 100, nonce: 1, chainID: "mosaic-other")
        let results = try await net.client.submit(batch: good + [bad])
        #expect(results.count == 6)
        #expect(results.prefix(5).allSatisfy { $0.status == .pending && $0.error == nil })
        #expect(results[5].error?.code == "wrong_chain")
        _ = try await net.wallet(net.alice).wait(for: good[4].hash, until: .sealed, timeout: .seconds(20))
        #expect(try await net.client.account(net.alice.publicKey.clientID).nonce == 5)
        // The binary form: same checks, only rejections reported.
        let more = (6...8).map { net.transfer(net.alice, to: bobID, 100, nonce: UInt64($0)) }
        let compact = try await net.client.submit(binaryBatch: more + [bad, more[0]])
        #expect(compact.accepted == 3)
        #expect(compact.rejected.map(\.index) == [3, 4])
        #expect(compact.rejected.map(\.code) == ["wrong_chain", "duplicate"])
        _ = try await net.wallet(net.alice).wait(for: more[2].hash, until: .sealed, timeout: .seconds(20))
        let v = try await net.client.transaction(more[2].hash)
        #expect(v.transaction == more[2])
        var truncated = BinaryBatch.encode(more)
        truncated.removeLast(10)
        let r = try await net.rawBinary("/v1/transactions/batch", body: truncated)
        #expect(r.status == 400)
        #expect((net.json(r.body)["error"] as? [String: Any])?["code"] as? String == "malformed")
        await net.stop()
    }

    @Test func walletRefusesBadSendsBeforeBroadcasting() async throws {
        let net = try TestDevnet()
        let alice = net.wallet(net.alice)
        let bobID = net.bob.publicKey.clientID
        let cases: [(String, String, String)] = [
            (bobID, "abc", "invalid amount"), ("not-an-address", "1", "invalid address"), (bobID, "0", "amount cannot be zero"),
            (bobID, "1000", "amount cannot be greater than balance"), (net.alice.publicKey.clientID, "1", "cannot send to own wallet"),
        ]
        for (to, amount, message) in cases {
            do {
                _ = try await alice.send(to: to, amount: amount)
                Issue.record("sent \(amount) to \(to)")
            } catch {
                #expect(error.description.hasPrefix(message), "\(error.description)")
            }
        }
        #expect(try await net.client.account(net.alice.publicKey.clientID).nextNonce == 1)
        await net.stop()
    }

    @Test func faucetLimitSaysWhenTheNextPourIsPossible() async throws {
        let net = try TestDevnet()
        let dave = net.wallet(try testKey(4))
        for _ in 0..<10 {
            let t = try await dave.faucet()
            _ = try await dave.wait(for: t.hash, until: .sealed, timeout: .seconds(20))
        }
        #expect(try await dave.balance().baseUnits == 10 * token)
        do {
            _ = try await dave.faucet()
            Issue.record("an 11th pour was allowed")
        } catch {
            #expect(error.code == "faucet_limited")
            #expect(error.description.contains("next pour possible at"))
        }
        // Submitted anyway, the chain records the pour as failed with its own message.
        let key = try testKey(4)
        let pour = Transaction.signed(
            by: key, chainID: net.genesis.chainID, to: ContractCall.address(of: "faucet"), value: 0, fee: 0,
            nonce: 11, type: .contractCall, data: ContractCall(contract: "faucet", method: "pour").json,
            creationDate: Int64(Date().timeIntervalSince1970))
        try await net.client.submit(pour)
        do {
            _ = try await dave.wait(for: pour.hash, until: .sealed, timeout: .seconds(20))
            Issue.record("a limited pour succeeded")
        } catch {
            guard case .failed(let hash, let message) = error else {
                Issue.record("expected failed, got \(error)")
                return
            }
            #expect(hash == pour.hash)
            #expect(message.message.contains("faucet limit reached for this account; next pour possible at"))
            #expect(message.reason == .rateLimited)
            #expect(WalletError.failed(hash: hash, error: message).code == "rate_limited")
        }
        #expect(try await dave.balance().baseUnits == 10 * token)
        // An hour later (devnet clock) the faucet pours again.
        _ = try await net.client.advanceClock(seconds: 3601)
        let again = try await dave.faucet()
        _ = try await dave.wait(for: again.hash, until: .sealed, timeout: .seconds(20))
        #expect(try await dave.balance().baseUnits == 11 * token)
        await net.stop()
    }

    @Test func waitsTimeOutExpireAndKnowUnknownHashes() async throws {
        let net = try TestDevnet(expiryBlocks: 2)
        let alice = net.wallet(net.alice)
        let bobID = net.bob.publicKey.clientID
        // Nonce 3 with 1 and 2 missing waits in the pool.
        let gap = net.transfer(net.alice, to: bobID, 100, nonce: 3)
        try await net.client.submit(gap)
        do {
            _ = try await alice.wait(for: gap.hash, until: .sealed, timeout: .milliseconds(300))
            Issue.record("a gapped transaction was sealed")
        } catch {
            #expect(error == .timedOut(hash: gap.hash, status: .pending))
        }
        // The long poll answers with the current status when its timeout passes.
        let r = try await net.raw("GET", "/v1/transactions/\(gap.hash)?wait=sealed&timeout=0.2")
        #expect(r.status == 200)
        #expect(net.json(r.body)["status"] as? String == "pending")
        let unknown = String(repeating: "ab", count: 32)
        do {
            _ = try await alice.wait(for: unknown, until: .sealed, timeout: .seconds(5))
            Issue.record("unknown hash")
        } catch {
            #expect(error == .unknownTransaction(hash: unknown))
        }
        // Blocks made for bob's transfer age the gapped one past expiry.
        let other = net.transfer(net.bob, to: net.alice.publicKey.clientID, 100, nonce: 1)
        try await net.client.submit(other)
        _ = try await net.wallet(net.bob).wait(for: other.hash, until: .sealed, timeout: .seconds(20))
        do {
            _ = try await alice.wait(for: gap.hash, until: .sealed, timeout: .seconds(20))
            Issue.record("expected expiry")
        } catch {
            #expect(error == .expired(hash: gap.hash))
        }
        await net.stop()
    }

    @Test func explorerPagesShowTheRightDataAndLinkToEachOther() async throws {
        let net = try TestDevnet()
        let alice = net.wallet(net.alice)
        let aliceID = net.alice.publicKey.clientID
        let bobID = net.bob.publicKey.clientID
        let tx = try await alice.send(to: bobID, amount: "2.25", description: "<script>alert(1)</script>")
        let v = try await alice.wait(for: tx.hash, until: .sealed, timeout: .seconds(20))
        let round = try #require(v.round)

        let page = try await net.html("/explorer/tx/\(tx.hash)")
        #expect(page.contains(tx.hash))
        #expect(page.contains("2.25 MSC"))
        #expect(page.contains("0.0001 MSC"))
        #expect(page.contains("href=\"/explorer/block/\(round)\""))
        #expect(page.contains("href=\"/explorer/account/\(aliceID)\""))
        #expect(page.contains("href=\"/explorer/account/\(bobID)\""))
        #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(!page.contains("<script>alert"))
        #expect(page.contains("sealed"))

        let block = try await net.html("/explorer/block/\(round)")
        #expect(block.contains("Block #\(round)"))
        #expect(block.contains("href=\"/explorer/tx/\(tx.hash)\""))
        // The key that signed it: the node's own.
        let nodeKey = try #require(try await net.client.network().nodeKey)
        #expect(block.contains("Signed by") && block.contains(nodeKey))
        let byHash = try await net.html("/explorer/block/\(try #require(v.blockHash))")
        #expect(byHash.contains("Block #\(round)"))

        let account = try await net.html("/explorer/account/\(bobID)")
        #expect(account.contains("52.25 MSC"))
        #expect(account.contains("href=\"/explorer/tx/\(tx.hash)\""))
        #expect(account.contains("+2.25 MSC"))

        let home = try await net.html("/explorer")
        #expect(home.contains("href=\"/explorer/block/\(round)\""))
        #expect(home.contains("mosaic-test"))

        // Search redirects to the page of what it finds.
        #expect(try await net.html("/explorer/search?q=\(tx.hash)").contains("<h1>Transaction</h1>"))
        #expect(try await net.html("/explorer/search?q=\(round)").contains("Block #\(round)"))
        #expect(try await net.html("/explorer/search?q=\(bobID)").contains("<h1>Account</h1>"))
        #expect(try await net.raw("GET", "/explorer/search?q=nothing").status == 404)

        let missing = try await net.raw("GET", "/explorer/tx/\(String(repeating: "0", count: 64))")
        #expect(missing.status == 404)
        await net.stop()
    }

    @Test func openAPIListsEveryRoute() async throws {
        let net = try TestDevnet()
        let doc = net.json(try await net.raw("GET", "/openapi.json").body)
        let paths = try #require(doc["paths"] as? [String: Any])
        for p in [
            "/v1/network", "/v1/transactions", "/v1/transactions/batch", "/v1/transactions/{hash}", "/v1/accounts/{client_id}",
            "/v1/accounts/{client_id}/transactions", "/v1/blocks/latest", "/v1/blocks/{id}", "/v1/blocks", "/v1/faucet/{client_id}",
            "/v1/devnet/time", "/explorer", "/explorer/tx/{hash}", "/explorer/block/{id}", "/explorer/account/{client_id}",
        ] {
            #expect(paths[p] != nil, "\(p)")
        }
        let info = try await net.client.network()
        #expect(info.chainID == "mosaic-test")
        #expect(info.blockTimeMillis == 0)
        await net.stop()
    }
}
