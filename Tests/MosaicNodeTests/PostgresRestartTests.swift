import Foundation
import MosaicCrypto
import MosaicErrors
import MosaicLedger
import MosaicNode
import MosaicPostgres
import MosaicProtocol
import MosaicSDK
import MosaicTestSupport
import Synchronization
import Testing

/// The ledger's database crashing and coming back under load (issue 14): two nodes on one
/// PostgreSQL reconnect by themselves, and nothing a client saw committed is lost.
@Suite(.serialized, .timeLimit(.minutes(4))) struct PostgresRestartTests {
    /// What the load's clients saw.
    final class Seen: Sendable {
        /// Transfers whose wait ended sealed, in order.
        let sealed = Mutex<[String]>([])
        /// Submissions or waits that ended with an error (the database was down), by code.
        let failures = Mutex<[String: Int]>([:])
        let stop = Atomic<Bool>(false)

        var sealedCount: Int { sealed.withLock { $0.count } }
    }

    /// The error `body` ended with, or nil when it succeeded.
    static func outcome(_ body: () async throws(LedgerClientError) -> Void) async -> LedgerClientError? {
        do throws(LedgerClientError) {
            try await body()
            return nil
        } catch {
            return error
        }
    }

    /// When the server's postmaster started (changes with each restart).
    static func serverStart(_ server: PostgresServer) throws -> String {
        let admin = try PostgresConnection(url: server.url)
        defer { admin.close() }
        return try admin.queryOne("SELECT pg_postmaster_start_time()::text")?.string(0) ?? ""
    }

    @Test func aPostgresCrashUnderLoadLosesNoCommittedBlockAndBothNodesCarryOn() async throws {
        guard try PostgresServer.installedOrSkip() else { return }
        // Commits reach the write-ahead log before they are acknowledged, so what a client saw
        // committed must survive an immediate stop. fsync stays off: the test kills the server's
        // processes, not the machine, and the page cache keeps what was written.
        let server = try PostgresServer(settings: ["synchronous_commit": "on"])
        defer { server.stop() }
        let url = try server.makeDatabase()
        let senders = try (1...3).map { try testKey(UInt8($0)) }
        let receiver = try testKey(9)
        var genesis = Genesis(
            chainID: "mosaic-pg-restart",
            allocations: Dictionary(uniqueKeysWithValues: senders.map { ($0.publicKey.clientID, 1_000 * token) }))
        genesis.confirmations = 1
        let directories = (0..<2).map { _ in NSTemporaryDirectory() + "mosaic-pg-restart-" + Hex.encode(Random.bytes(6)) }
        defer { for d in directories { try? FileManager.default.removeItem(atPath: d) } }
        var nodes: [NodeServer] = []
        for directory in directories {
            var c = NodeConfiguration(directory: directory, genesis: genesis, port: 0, blockTime: .milliseconds(200))
            c.database = .postgres(url: url)
            c.logger = nil
            let node = try NodeServer(configuration: c)
            try node.start()
            nodes.append(node)
        }
        let urls = nodes.map(\.url)

        // The load: each sender sends and waits, again and again, through both nodes.
        let seen = Seen()
        let load = Task {
            await withTaskGroup(of: Void.self) { group in
                for key in senders {
                    group.addTask {
                        let wallet = Wallet(signingKey: key, client: LedgerClient(baseURLs: urls))
                        while !seen.stop.load(ordering: .relaxed) {
                            do {
                                let tx = try await wallet.transfer(to: receiver.publicKey.clientID, value: token)
                                _ = try await wallet.wait(for: tx.hash, until: .sealed, timeout: .seconds(30))
                                seen.sealed.withLock { $0.append(tx.hash) }
                            } catch {
                                let code = (error as? any CodedError)?.code ?? "\(type(of: error))"
                                seen.failures.withLock { $0[code, default: 0] += 1 }
                                try? await Task.sleep(for: .milliseconds(100))
                            }
                        }
                    }
                }
            }
        }

        func waitForSealed(_ count: Int) async throws {
            let deadline = ContinuousClock.now + .seconds(60)
            while seen.sealedCount < count {
                guard ContinuousClock.now < deadline else {
                    let failures = seen.failures.withLock { $0 }
                    Issue.record("only \(seen.sealedCount) of \(count) transfers sealed; failures: \(failures)")
                    throw CancellationError()
                }
                try await Task.sleep(for: .milliseconds(50))
            }
        }

        /// Every block either node has stored, by round.
        func chain() throws -> [UInt64: String] {
            var out: [UInt64: String] = [:]
            for node in nodes {
                let top = node.ledger.latestBlock.round
                for round in 0...top {
                    if let b = try node.ledger.block(round: round) { out[round] = b.hash }
                }
            }
            return out
        }

        var before: [UInt64: String] = [:]
        var sealedBefore: [String] = []
        do {
            for restart in 1...2 {
                try await waitForSealed(restart * 12)
                before = try chain()
                sealedBefore = seen.sealed.withLock { $0 }
                let started = try Self.serverStart(server)
                try server.restart()
                // A new server process: every session the nodes had is gone.
                let restarted = try Self.serverStart(server)
                #expect(restarted != started)
            }
            // Both nodes reconnect on their own, and the load goes on through them.
            try await waitForSealed(seen.sealedCount + 12)
        } catch {
            seen.stop.store(true, ordering: .relaxed)
            await load.value
            for node in nodes { await node.stop() }
            throw error
        }
        seen.stop.store(true, ordering: .relaxed)
        // Every client's wait ends: sealed, or an error within its 30 s timeout.
        await load.value

        let lastBefore = before.keys.max() ?? 0
        let deadline = ContinuousClock.now + .seconds(20)
        while nodes.contains(where: { $0.ledger.latestBlock.round <= lastBefore + 2 }), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        for (i, node) in nodes.enumerated() {
            let top = node.ledger.latestBlock.round
            #expect(top > lastBefore + 2, "node \(i) stopped at round \(top) after the restart at \(lastBefore)")
            // No block recorded before the last crash is lost or replaced.
            for (round, hash) in before {
                let stored = try node.ledger.block(round: round)?.hash
                #expect(stored == hash, "node \(i), round \(round)")
            }
            // One chain: each round once, each block on the one before it.
            var previous = try node.ledger.block(round: 0)
            for round in 1...top {
                let block = try node.ledger.block(round: round)
                #expect(block?.previousHash == previous?.hash, "node \(i), round \(round)")
                previous = block
            }
        }
        // Every transfer a client saw sealed, before the crashes or after, is in the chain.
        let sealed = seen.sealed.withLock { $0 }
        print(
            "PostgresRestartTests: \(sealed.count) transfers sealed; failed while the database was down: \(seen.failures.withLock { $0 })")
        #expect(sealed.count > sealedBefore.count)
        // A request that met the database down was told to try again (503 unavailable), never
        // given an internal error.
        #expect(seen.failures.withLock { $0["internal"] } == nil, "\(seen.failures.withLock { $0 })")
        for hash in sealed {
            for node in nodes {
                let record = try node.ledger.transaction(hash)
                #expect(record?.receipt?.outcome == .success, "\(hash)")
            }
        }
        let supply = try nodes[0].ledger.supply()
        #expect(supply.isConserved)
        let received = try nodes[0].ledger.account(receiver.publicKey.clientID).balance
        #expect(received >= UInt64(sealed.count) * token)
        for node in nodes { await node.stop() }
    }

    @Test func whileTheDatabaseIsDownRequestsAreUnavailableAndTheSameTransferIsAcceptedOnceItIsBack() async throws {
        guard try PostgresServer.installedOrSkip() else { return }
        let server = try PostgresServer()
        defer { server.stop() }
        let url = try server.makeDatabase()
        let sender = try testKey(1)
        let receiver = try testKey(9)
        var genesis = Genesis(chainID: "mosaic-pg-down", allocations: [sender.publicKey.clientID: 100 * token])
        genesis.confirmations = 1
        let directory = NSTemporaryDirectory() + "mosaic-pg-down-" + Hex.encode(Random.bytes(6))
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var c = NodeConfiguration(directory: directory, genesis: genesis, port: 0, blockTime: .milliseconds(200))
        c.database = .postgres(url: url)
        c.logger = nil
        let node = try NodeServer(configuration: c)
        try node.start()
        let client = LedgerClient(baseURLs: [node.url])
        let wallet = Wallet(signingKey: sender, client: client)
        let first = try await wallet.transfer(to: receiver.publicKey.clientID, value: token)
        _ = try await wallet.wait(for: first.hash, until: .sealed, timeout: .seconds(30))

        server.crash()
        // A signed transfer, a transaction read and a contract view: each is refused as
        // unavailable (503, try again), none is an internal error, and the node lives on.
        var probe = LedgerClient(baseURLs: [node.url])
        probe.unavailableWait = .zero
        let held = Transaction.signed(
            by: sender, chainID: genesis.chainID, to: receiver.publicKey.clientID, value: token, fee: genesis.minimumFee,
            nonce: 2, creationDate: Int64(Date().timeIntervalSince1970))
        let submitted = await Self.outcome { () async throws(LedgerClientError) in _ = try await probe.submit(held) }
        #expect(submitted?.code == "unavailable", "\(String(describing: submitted))")
        if case .rejected(_, let message, let status) = submitted {
            #expect(status == 503)
            #expect(message.contains("try again"), "\(message)")
            #expect(!message.contains("127.0.0.1"), "the database's address stays out of the answer: \(message)")
        }
        let read = await Self.outcome { () async throws(LedgerClientError) in _ = try await probe.transaction(held.hash) }
        #expect(read?.code == "unavailable", "\(String(describing: read))")
        let viewed = await Self.outcome { () async throws(LedgerClientError) in
            _ = try await probe.view(contract: "faucet", name: "status")
        }
        #expect(viewed == nil || viewed?.code == "unavailable", "\(String(describing: viewed))")

        // A client that waits (the default): the same signed bytes go in once the database is
        // back, a second later (nothing of them was kept while it was down).
        let waiting = Task { await Self.outcome { () async throws(LedgerClientError) in _ = try await client.submit(held) } }
        try await Task.sleep(for: .seconds(1))
        try server.startAgain()
        let accepted = await waiting.value
        #expect(accepted == nil, "\(String(describing: accepted))")
        _ = try await wallet.wait(for: held.hash, until: .sealed, timeout: .seconds(30))
        #expect(try node.ledger.account(receiver.publicKey.clientID).balance == 2 * token)
        await node.stop()
    }
}
