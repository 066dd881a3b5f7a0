import Foundation
import MosaicCrypto
import MosaicProtocol
import MosaicTestSupport
import Testing

@testable import MosaicLedger

/// Signed blocks and re-execution (issue 14 §3, docs/PROTOCOL.md §2.9): a node signs every block
/// with its own key, the genesis says whose keys may, and `ChainVerifier` re-executes a chain
/// from genesis and names the first block that disagrees.
@Suite struct SignedChainTests {
    /// A chain with transfers, a failed transfer and a contract call (a faucet pour), over a few blocks.
    static func busyChain() throws -> TestNet {
        let net = try TestNet()
        try net.ledger.submit(net.transfer(net.alice, to: net.bob, 5 * token, nonce: 1))
        try net.ledger.submit(net.pour(net.carol, nonce: 1))
        try net.ledger.produceBlock()
        try net.ledger.submit(net.transfer(net.alice, to: net.carol, 2 * token, nonce: 2))
        // Refused by the contract (alice has no notepad): included, fee taken, failed.
        try net.ledger.submit(
            Transaction.signed(
                by: net.alice, chainID: net.genesis.chainID, to: ContractCall.address(of: "notes"), value: 0,
                fee: net.genesis.minimumFee, nonce: 3, type: .contractCall,
                data: ContractCall(contract: "notes", method: "delete_notepad").json, creationDate: net.now))
        try net.ledger.produceBlock()
        try net.ledger.produceBlock()
        try net.ledger.submit(net.transfer(net.carol, to: net.alice, token / 2, nonce: 2))
        for _ in 0..<4 { try net.ledger.produceBlock() }
        return net
    }

    /// A block as a node would serve it, read from `ledger`.
    static func served(ledger: Ledger, _ round: UInt64) throws -> ChainVerifier.SourceBlock {
        let block = try #require(try ledger.block(round: round))
        let txs = try ledger.transactions(inRound: round, limit: 5000).map(TransactionView.init)
        return ChainVerifier.SourceBlock(block: block, transactions: txs)
    }

    /// Verifies `net`'s chain, serving every block through `tamper` first.
    static func verify(_ net: TestNet, tamper: @escaping (inout ChainVerifier.SourceBlock) -> Void = { _ in }) async throws
        -> ChainVerifier.Report
    {
        let ledger = net.ledger
        return try await ChainVerifier(genesis: ledger.genesis).verify(through: ledger.latestBlock.round) { round in
            var source = try served(ledger: ledger, round)
            tamper(&source)
            return source
        }
    }

    @Test func everyBlockIsSignedByTheNodeKeyTheNewGenesisLists() throws {
        let net = try Self.busyChain()
        let keyPath = (net.directory as NSString).appendingPathComponent("node.key")
        let mode = try FileManager.default.attributesOfItem(atPath: keyPath)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        let key = try Ledger.nodeKey(directory: net.directory)
        #expect(net.ledger.genesis.producers == [key.publicKey.hex])
        #expect(net.ledger.networkInfo.producers == [key.publicKey.hex])
        #expect(net.ledger.networkInfo.nodeKey == key.publicKey.hex)
        #expect(try net.ledger.block(round: 0)?.producer == "")
        for round in 1...net.ledger.latestBlock.round {
            let block = try #require(try net.ledger.block(round: round))
            #expect(block.producer == key.publicKey.hex)
            #expect(block.fault(producers: net.ledger.genesis.producers) == nil, "block \(round)")
        }
        // Reopened, the node keeps its key and its blocks stay valid.
        try net.reopen()
        let next = try net.ledger.produceBlock()
        #expect(next.producer == key.publicKey.hex)
        #expect(next.fault(producers: net.ledger.genesis.producers) == nil)
    }

    @Test func aNodeWhoseKeyTheGenesisDoesNotListNeverMakesABlock() throws {
        let net = try TestNet()
        try net.ledger.produceBlock()
        net.ledger.close()
        let stranger = try Ledger(
            directory: net.directory, database: try TestLedgerDatabase.forDirectory(net.directory), genesis: net.genesis,
            key: Ed25519.SigningKey.generate())
        defer { stranger.close() }
        #expect(!stranger.mayProduce)
        #expect(!stranger.isProducer)
        #expect(rejection { try stranger.produceBlock() } == .notProducer)
        #expect(stranger.latestBlock.round == 1)
    }

    @Test func theVerifierAgreesWithAnHonestChain() async throws {
        let net = try Self.busyChain()
        let report = try await Self.verify(net)
        #expect(report.divergence == nil)
        #expect(report.verifiedThrough == net.ledger.latestBlock.round)
        #expect(report.verifiedHash == net.ledger.latestBlock.hash)
        #expect(report.transactions == 5)
        // The failed call re-executed to the same failure.
        let failed = try (1...net.ledger.latestBlock.round).flatMap { try net.ledger.transactions(inRound: $0) }
            .filter { $0.receipt?.outcome == .failure }
        #expect(failed.map { $0.receipt?.error?.code } == ["refused"] || failed.count == 1)
    }

    @Test func theVerifierNamesTheFirstBlockThatDisagrees() async throws {
        let net = try Self.busyChain()
        let producer = try Ledger.nodeKey(directory: net.directory)
        let stranger = Ed25519.SigningKey.generate()

        // The producer itself signs a state its transactions do not give.
        var report = try await Self.verify(net) { s in
            guard s.block.round == 2 else { return }
            s.block.stateRoot = String(repeating: "0", count: 64)
            s.block = s.block.signed(by: producer)
        }
        #expect(report.divergence?.round == 2)
        #expect(report.divergence?.field == "state_root")
        #expect(report.verifiedThrough == 1)

        // A block made by a key the genesis does not list.
        report = try await Self.verify(net) { s in if s.block.round == 3 { s.block = s.block.signed(by: stranger) } }
        #expect(report.divergence?.field == "signature")
        #expect(report.divergence?.round == 3)

        // A field changed after signing.
        report = try await Self.verify(net) { s in if s.block.round == 1 { s.block.timestamp += 1 } }
        #expect(report.divergence?.field == "hash")
        #expect(report.divergence?.round == 1)

        // A receipt that says something the transaction did not do.
        report = try await Self.verify(net) { s in
            if s.block.round == 2, !s.transactions.isEmpty { s.transactions[0].output = "transferred 1000 MSC" }
        }
        #expect(report.divergence?.field == "receipt")
        #expect(report.divergence?.round == 2)

        // A transaction left out of what is served.
        report = try await Self.verify(net) { s in if s.block.round == 1 { s.transactions.removeLast() } }
        #expect(report.divergence?.field == "transaction_count")

        // A transaction whose signature does not verify.
        report = try await Self.verify(net) { s in
            if s.block.round == 1 { s.transactions[0].transaction.value += 1 }
        }
        #expect(report.divergence?.field == "transaction")
        #expect(report.divergence?.round == 1)

        // A validly signed transaction included twice: the second is a replay its nonce refuses.
        report = try await Self.verify(net) { s in
            if s.block.round == 2, let again = try? Self.served(ledger: net.ledger, 1).transactions.first {
                // The producer signs the block it padded.
                s.transactions.append(again)
                s.block.transactionCount += 1
                s.block.transactionRoot = Block.merkleRoot(s.transactions.map(\.hash))
                s.block = s.block.signed(by: producer)
            }
        }
        #expect(report.divergence?.field == "transaction")
        #expect(report.divergence?.detail.contains("nonce") == true)
    }
}
