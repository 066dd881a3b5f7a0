import Foundation
import MosaicCrypto
import MosaicLedger
import MosaicProtocol
import MosaicSDK
import MosaicTestSupport
import Synchronization
import Testing

/// Issue 14 §2: three `mosaic node` processes on one PostgreSQL database under a load of signed
/// transfers from several clients, each client failing over between the three URLs. The producer
/// is SIGKILLed, then the next one, then, after the first is restarted, the third: the restarted
/// one takes over. Afterwards nothing finalized is lost, every round exists once on the one before
/// it, the supply is conserved, every client's wait ended, and `mosaic node verify` agrees.
@Suite(.sharedDatabase, .timeLimit(.minutes(6)))
struct ThreeNodeFailoverTests {
    /// A node process and the URL it serves.
    final class Node: Sendable {
        let process: MosaicProcess
        let url: URL

        init(_ arguments: [String]) async throws {
            process = try MosaicProcess(arguments)
            url = try #require((await process.firstJSON(timeout: 60)?["node"] as? String).flatMap(URL.init(string:)))
        }

        var isProducer: Bool {
            (try? NodeHealth.read(url).producer) == true
        }
    }

    /// What the clients share with the test: the transfers they saw finalized, and when to stop.
    final class Load: Sendable {
        let finalized = Mutex<[String]>([])
        let stop = Atomic<Bool>(false)
    }

    @Test func killingTheProducerTwiceAndThenTheOneAfterARestartLosesNothingFinalized() async throws {
        let root = NSTemporaryDirectory() + "mosaic-three-nodes-" + Hex.encode(Random.bytes(6))
        defer { try? FileManager.default.removeItem(atPath: root) }
        let dirs = (0..<3).map { root + "/node\($0)" }
        var producers: [String] = []
        for d in dirs {
            try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
            producers.append(try Ledger.nodeKey(directory: d).publicKey.hex)
        }
        let clients = try (0..<6).map { try testKey(UInt8(40 + $0)) }
        var genesis = Genesis(
            chainID: "mosaic-three", allocations: Dictionary(uniqueKeysWithValues: clients.map { ($0.publicKey.clientID, 1_000 * token) }))
        genesis.confirmations = 1
        genesis.producers = producers
        let genesisFile = root + "/genesis.json"
        try genesis.write(to: genesisFile)
        let database = try TestLedgerDatabase.url(for: dirs[0])
        // Fixed ports: a restarted node answers at the URL the clients already have.
        let base = freeLoopbackPorts(3)
        func arguments(_ i: Int) -> [String] {
            [
                "node", "--dir", dirs[i], "--db", database, "--genesis", genesisFile, "--port", String(Int(base) + i),
                "--block-time", "200ms", "--quiet", "--json",
            ]
        }
        var nodes: [Node?] = []
        for i in 0..<3 { nodes.append(try await Node(arguments(i))) }
        defer {
            for n in nodes { n?.process.signal(SIGKILL) }
            for n in nodes { _ = n?.process.waitForExitBlocking(timeout: 10) }
        }
        let urls = nodes.compactMap { $0?.url }

        // Each client sends 1-unit transfers in nonce order and waits for each to be finalized,
        // through whichever node answers; a kill costs it a retry, never a transaction.
        let fee = genesis.minimumFee
        let shared = Load()
        let load = Task {
            await withTaskGroup(of: Void.self) { group in
                for (c, key) in clients.enumerated() {
                    let rotated = Array(urls[(c % 3)...] + urls[..<(c % 3)])
                    group.addTask {
                        let client = LedgerClient(baseURLs: rotated)
                        var nonce: UInt64 = 1
                        while !shared.stop.load(ordering: .acquiring) {
                            let tx = Transaction.signed(
                                by: key, chainID: "mosaic-three", to: clients[(c + 1) % clients.count].publicKey.clientID, value: 1,
                                fee: fee, nonce: nonce, creationDate: Int64(Date().timeIntervalSince1970))
                            do {
                                _ = try await client.submit(tx)
                            } catch {
                                // Accepted before a kill, or refused while no node could take it: ask again.
                                if (error as? LedgerClientError)?.code != "duplicate" {
                                    try? await Task.sleep(for: .milliseconds(100))
                                    continue
                                }
                            }
                            while !shared.stop.load(ordering: .acquiring) {
                                guard let v = try? await client.transaction(tx.hash, wait: .finalized, timeout: .seconds(5)) else {
                                    try? await Task.sleep(for: .milliseconds(100))
                                    continue
                                }
                                if v.status == .finalized || v.status == .sealed {
                                    shared.finalized.withLock { $0.append(tx.hash) }
                                    nonce += 1
                                    break
                                }
                                if v.status == .expired { break }  // signed again with the same nonce
                            }
                        }
                    }
                }
            }
        }
        func finalizedCount() -> Int { shared.finalized.withLock { $0.count } }
        func producerIndex() -> Int? { nodes.indices.first { nodes[$0]?.isProducer == true } }
        /// Kills the producer once `more` further transfers were finalized; the index it had.
        func killProducer(after more: Int) async throws -> Int {
            let target = finalizedCount() + more
            #expect(try await eventually { finalizedCount() >= target ? true : nil } != nil, "the load stalled")
            let p = try #require(try await eventually { producerIndex() }, "no node holds the lease")
            nodes[p]?.process.signal(SIGKILL)
            _ = await nodes[p]?.process.waitForExit(timeout: 10)
            nodes[p] = nil
            // Another live node takes the lease before the test goes on.
            #expect(try await eventually { producerIndex() } != nil, "no node took over from node \(p)")
            return p
        }

        let first = try await killProducer(after: 30)
        let second = try await killProducer(after: 30)
        #expect(second != first)
        nodes[first] = try await Node(arguments(first))
        #expect(nodes[first]?.url == urls[first])
        let third = try await killProducer(after: 30)
        #expect(Set([first, second, third]).count == 3, "each kill found a different producer")
        // The restarted node is the one left: it takes the lease and the load goes on.
        #expect(try await eventually { nodes[first]?.isProducer == true ? true : nil } != nil)
        let before = finalizedCount()
        #expect(try await eventually { finalizedCount() >= before + 30 ? true : nil } != nil, "no progress after the last kill")
        shared.stop.store(true, ordering: .releasing)
        _ = await load.value

        let survivor = try #require(nodes[first]).url
        let client = LedgerClient(baseURL: survivor)
        var lost = 0
        for h in shared.finalized.withLock({ $0 }) {
            let status = try? await client.transaction(h).status
            if status != .finalized && status != .sealed { lost += 1 }
        }
        #expect(lost == 0, "finalized transactions lost")
        let supply = try await client.supply()
        #expect(supply.isConserved)
        #expect(supply.totalSupply == 6_000 * token + genesis.faucet.supply)
        // Each round once, on the one before it, signed by a listed producer, re-executing the same.
        let verify = try MosaicProcess(["node", "verify", "--from", survivor.absoluteString, "--json"])
        let report = await verify.firstJSON(timeout: 120)
        #expect(report?["agrees"] as? Bool == true, "\(report ?? [:])")
        #expect(await verify.waitForExit(timeout: 30) == 0)
        let head = try await client.latestBlock().block
        var made = Set<String>()
        for round in 1...head.round { made.insert(try await client.block(round: round).block.producer) }
        #expect(made.count == 3, "each of the three nodes made blocks in its turn")
    }
}
