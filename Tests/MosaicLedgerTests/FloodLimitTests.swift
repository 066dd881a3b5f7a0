import Foundation
import MosaicCrypto
import MosaicProtocol
import MosaicTestSupport
import Synchronization
import Testing

@testable import MosaicLedger

/// Issue 11 item 6, the ledger's part: every limit attacked, refused with its own error and
/// code, nothing changed by the refusal, and honest traffic still accepted.
@Suite struct FloodLimitTests {
    static let memo = String(repeating: "m", count: 1000)

    @Test func wireSizeIsTheBinaryBatchRecordSize() throws {
        let net = try TestNet()
        for tx in [
            net.transfer(net.alice, to: net.bob, 1, nonce: 1), net.transfer(net.alice, to: net.bob, 1, nonce: 1, memo: "café ☕"),
            net.pour(net.carol, nonce: 1),
        ] {
            #expect(tx.wireSize == BinaryBatch.encode([tx]).count)
        }
    }

    @Test func aFloodOfLargeTransactionsFillsThePoolBytesAndIsRefused() throws {
        let size = try TestNet().transfer(try testKey(2), to: try testKey(1), 1, nonce: 1, memo: Self.memo).wireSize
        let net = try TestNet(limits: LedgerLimits(poolBytes: 3 * size + 400))
        for n in UInt64(1)...3 { try net.ledger.submit(net.transfer(net.bob, to: net.alice, 1, nonce: n, memo: Self.memo)) }
        let flood = net.transfer(net.bob, to: net.alice, 1, nonce: 4, memo: Self.memo)
        #expect(rejection { try net.ledger.submit(flood) } == .poolBytesFull(limitBytes: 3 * size + 400))
        #expect(rejection { try net.ledger.submit(flood) }?.code == "pool_full")
        #expect(net.ledger.pendingCount == 3)
        // A small honest transfer still fits beside them; once a block drains the pool, the flood's next one does too.
        try net.ledger.submit(net.transfer(net.alice, to: net.bob, token, nonce: 1))
        try net.ledger.produceBlock()
        #expect(try net.nonce(net.alice) == 1)
        try net.ledger.submit(flood)
    }

    @Test func oneSenderCannotHoldMoreThanItsShareOfThePool() throws {
        let net = try TestNet(limits: LedgerLimits(senderPendingCount: 4))
        for n in UInt64(1)...4 { try net.ledger.submit(net.transfer(net.bob, to: net.alice, 1, nonce: n)) }
        let fifth = net.transfer(net.bob, to: net.alice, 1, nonce: 5)
        let e = rejection { try net.ledger.submit(fifth) }
        #expect(e?.code == "sender_pool_full")
        if case .senderPoolFull(let pending, _, let maxCount, _) = e {
            #expect(pending == 4 && maxCount == 4)
        } else {
            Issue.record("\(String(describing: e))")
        }
        #expect(e?.httpStatus == 429)
        #expect(net.ledger.pendingCount == 4)
        // Another sender is not affected.
        try net.ledger.submit(net.transfer(net.alice, to: net.bob, 1, nonce: 1))
        try net.ledger.produceBlock()
        try net.ledger.submit(fifth)
    }

    @Test func oneSenderCannotHoldMoreThanItsBytesOfThePool() throws {
        let size = try TestNet().transfer(try testKey(2), to: try testKey(1), 1, nonce: 1, memo: Self.memo).wireSize
        let net = try TestNet(limits: LedgerLimits(senderPendingBytes: 2 * size))
        try net.ledger.submit(net.transfer(net.bob, to: net.alice, 1, nonce: 1, memo: Self.memo))
        try net.ledger.submit(net.transfer(net.bob, to: net.alice, 1, nonce: 2, memo: Self.memo))
        let e = rejection { try net.ledger.submit(net.transfer(net.bob, to: net.alice, 1, nonce: 3)) }
        #expect(e?.code == "sender_pool_full")
        if case .senderPoolFull(_, let bytes, _, let maxBytes) = e {
            #expect(bytes == 2 * size && maxBytes == 2 * size)
        } else {
            Issue.record("\(String(describing: e))")
        }
        try net.ledger.submit(net.transfer(net.alice, to: net.bob, 1, nonce: 1, memo: Self.memo))
        #expect(net.ledger.pendingCount == 3)
    }

    @Test func freeTransactionsWaitAFewPerAccountWithoutGapsOrData() throws {
        let net = try TestNet(limits: LedgerLimits(freePendingPerSender: 2))
        let fresh = try testKey(9)
        let g = net.genesis
        // A gapped free transaction would wait and expire at no cost: refused.
        let gapped = net.pour(fresh, nonce: 2)
        let e = rejection { try net.ledger.submit(gapped) }
        #expect(e?.code == "free_limited")
        #expect(e?.description.contains("next nonce 1") == true)
        try net.ledger.submit(net.pour(fresh, nonce: 1))
        try net.ledger.submit(net.pour(fresh, nonce: 2))
        // A third one waiting from the same account: refused until the others are included.
        let third = net.pour(fresh, nonce: 3)
        #expect(rejection { try net.ledger.submit(third) }?.code == "free_limited")
        // Free transactions carry no large data: a pour padded with arguments is refused by size.
        let padded = Transaction.signed(
            by: try testKey(8), chainID: g.chainID, to: ContractCall.address(of: "faucet"), value: 0, fee: 0, nonce: 1,
            type: .contractCall,
            data: ContractCall(contract: "faucet", method: "pour", args: ["pad": .string(String(repeating: "p", count: 300))]).json,
            creationDate: net.now)
        let tooLarge = rejection { try net.ledger.submit(padded) }
        #expect(tooLarge?.code == "data_too_large")
        if case .dataTooLarge(_, let bytes, let limit) = tooLarge { #expect(bytes > g.maxFreeDataBytes && limit == g.maxFreeDataBytes) }
        #expect(net.ledger.pendingCount == 2)
        try net.ledger.produceBlock()
        #expect(try net.balance(fresh) == 2 * g.faucet.pourAmount)
        try net.ledger.submit(third)
        // A paid transaction is not held to the free limits.
        try net.ledger.submit(net.transfer(net.alice, to: net.bob, 1, nonce: 1))
    }

    @Test func transactionDataIsLimitedPerKind() throws {
        let net = try TestNet(contracts: [KeyValueContract()])
        let g = net.genesis
        let long = String(repeating: "d", count: g.maxTransferDataBytes + 1)
        let e = rejection { try net.ledger.submit(net.transfer(net.alice, to: net.bob, 1, nonce: 1, memo: long)) }
        #expect(e == .dataTooLarge(kind: "transfer (its description)", bytes: g.maxTransferDataBytes + 1, limit: g.maxTransferDataBytes))
        #expect(e?.httpStatus == 400)
        try net.ledger.submit(net.transfer(net.alice, to: net.bob, 1, nonce: 1, memo: String(long.dropLast())))
        // A contract call may carry far more (a storage challenge answer holds a 64 KiB block).
        let value = String(repeating: "v", count: 60_000)
        let call = Transaction.signed(
            by: net.alice, chainID: g.chainID, to: ContractCall.address(of: "kv"), value: 0, fee: g.minimumFee, nonce: 2,
            type: .contractCall,
            data: ContractCall(contract: "kv", method: "put", args: ["key": .string("k"), "value": .string(value)]).json,
            creationDate: net.now)
        try net.ledger.submit(call)
        let huge = String(repeating: "v", count: g.maxCallDataBytes)
        let over = Transaction.signed(
            by: net.alice, chainID: g.chainID, to: ContractCall.address(of: "kv"), value: 0, fee: g.minimumFee, nonce: 3,
            type: .contractCall,
            data: ContractCall(contract: "kv", method: "put", args: ["key": .string("k"), "value": .string(huge)]).json,
            creationDate: net.now)
        // Past the absolute bound every transaction has (`Transaction.maxDataBytes`), refused by shape.
        #expect(rejection { try net.ledger.submit(over) }?.code == "malformed")
        try net.ledger.produceBlock()
        #expect(try net.ledger.transaction(call.hash)?.receipt?.outcome == .success)
    }

    /// Deeply nested JSON in a call's arguments is refused at submission, never a crash.
    @Test func deeplyNestedCallArgumentsAreRefusedNotACrash() throws {
        let net = try TestNet()
        let depth = 60_000
        let data =
            "{\"contract\":\"faucet\",\"method\":\"pour\",\"args\":{\"x\":" + String(repeating: "[", count: depth)
            + String(repeating: "]", count: depth) + "}}"
        let tx = Transaction.signed(
            by: net.alice, chainID: net.genesis.chainID, to: ContractCall.address(of: "faucet"), value: 0,
            fee: net.genesis.minimumFee, nonce: 1, type: .contractCall, data: data, creationDate: net.now)
        #expect(rejection { try net.ledger.submit(tx) } != nil)
        #expect(net.ledger.pendingCount == 0)
    }

    /// Accounts beyond the cache's size still read and execute exactly: two ledgers, one whose
    /// cache holds 3 accounts, make the same blocks with the same state roots.
    @Test func theAccountCacheIsBoundedAndStaysCorrect() throws {
        let keys = try (0..<12).map { try testKey(UInt8(60 + $0)) }
        let funds = Dictionary(uniqueKeysWithValues: keys.map { ($0.publicKey.clientID, 10 * token) })
        let small = try TestNet(limits: LedgerLimits(accountCacheEntries: 3), allocations: funds)
        let large = try TestNet(allocations: funds)
        var nonces = [UInt64](repeating: 0, count: keys.count)
        for round in 0..<6 {
            var txs: [Transaction] = []
            for (i, k) in keys.enumerated() where (i + round) % 2 == 0 {
                nonces[i] += 1
                txs.append(
                    Transaction.signed(
                        by: k, chainID: small.genesis.chainID, to: keys[(i * 5 + round) % keys.count].publicKey.clientID,
                        value: UInt64(i + 1) * 1000, fee: small.genesis.minimumFee, nonce: nonces[i], creationDate: small.now))
            }
            #expect(small.ledger.submit(txs).allSatisfy { $0 == nil })
            #expect(large.ledger.submit(txs).allSatisfy { $0 == nil })
            let a = try small.ledger.produceBlock()
            let b = try large.ledger.produceBlock()
            #expect(a.stateRoot == b.stateRoot)
            #expect(small.ledger.state.withLock { $0.accountCache.count } <= 3)
        }
        for (i, k) in keys.enumerated() {
            #expect(try small.ledger.account(k.publicKey.clientID) == large.ledger.account(k.publicKey.clientID))
            #expect(try small.ledger.nextNonce(for: k.publicKey.clientID) == nonces[i] + 1)
        }
    }
}
