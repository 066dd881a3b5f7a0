import Foundation
import MosaicCrypto
import MosaicProtocol
import MosaicTestSupport
import Testing

@testable import MosaicLedger

/// Kills a process that is busy producing blocks (SIGKILL, no chance to clean up) and checks that
/// reopening loses nothing that was reported finalized and conserves the supply. The child is this
/// same test binary, re-run with an environment variable that turns `crashChildBurst` into the worker.
/// With `MOSAIC_LEDGER_STORE=postgres` the child writes to the parent's PostgreSQL server: the
/// same kill, with the database (not a file) holding what was committed.
@Suite(.timeLimit(.minutes(1))) struct CrashSafetyTests {
    static let childVariable = "MOSAIC_LEDGER_CRASH_CHILD_DIR"

    static func genesis() throws -> Genesis {
        Genesis(
            chainID: "mosaic-crash", genesisTime: 1_800_000_000,
            allocations: [try testKey(1).publicKey.clientID: 1_000_000 * token, try testKey(2).publicKey.clientID: 1_000_000 * token])
    }

    /// The worker: submits transfers and produces blocks forever, appending each finalized hash to
    /// `finalized.log` only after its block committed.
    @Test func crashChildBurst() throws {
        guard let dir = ProcessInfo.processInfo.environment[Self.childVariable] else { return }
        let ledger = try Ledger(directory: dir, database: try TestLedgerDatabase.forDirectory(dir), genesis: try Self.genesis())
        let keys = [try testKey(1), try testKey(2)]
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: dir + "/finalized.log"))
        var nonce: [UInt64] = [0, 0]
        let started = ContinuousClock.now
        // Bounded, in case the parent died before killing it.
        while ContinuousClock.now - started < .seconds(30) {
            var batch: [Transaction] = []
            for _ in 0..<100 {
                let i = Int.random(in: 0...1)
                nonce[i] += 1
                batch.append(
                    Transaction.signed(
                        by: keys[i], chainID: "mosaic-crash", to: keys[1 - i].publicKey.clientID,
                        value: UInt64.random(in: 1...token), fee: 1_000_000, nonce: nonce[i],
                        creationDate: max(ledger.clock.now, ledger.latestBlock.timestamp)))
            }
            _ = ledger.submit(batch)
            let block = try ledger.produceBlock()
            let lines = try ledger.transactions(inRound: block.round, limit: 5000).map { $0.transaction.hash + "\n" }.joined()
            log.write(Data(("round \(block.round)\n" + lines).utf8))
        }
    }

    @Test func sigkillDuringBurstLosesNothingFinalized() async throws {
        guard ProcessInfo.processInfo.environment[Self.childVariable] == nil else { return }
        let dir = NSTemporaryDirectory() + "mosaic-crash-" + Hex.encode(Random.bytes(6))
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = FileManager.default.createFile(atPath: dir + "/finalized.log", contents: nil)

        var env = ProcessInfo.processInfo.environment
        env[Self.childVariable] = dir
        // On PostgreSQL the child writes to this process's server, into the database of `dir`.
        env.merge(try TestLedgerDatabase.environment(for: dir)) { _, new in new }
        let child = try Subprocess(
            executable: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"),
            arguments: ["--testing-library", "swift-testing", "--filter", "crashChildBurst"], environment: env)
        defer { child.signal(SIGKILL) }

        // Let it commit a few blocks, then kill it at an arbitrary moment.
        var rounds = 0
        for _ in 0..<400 where rounds < 5 {
            try await Task.sleep(for: .milliseconds(25))
            rounds = (try String(contentsOfFile: dir + "/finalized.log", encoding: .utf8)).components(separatedBy: "round ").count - 1
        }
        try await Task.sleep(for: .milliseconds(Int.random(in: 0...60)))
        child.signal(SIGKILL)
        _ = try await blocking { child.waitUntilExit() }
        #expect(rounds >= 5)

        let text = try String(contentsOfFile: dir + "/finalized.log", encoding: .utf8)
        let hashes = text.split(separator: "\n").filter { $0.count == 64 }.map(String.init)
        let lastRound = text.split(separator: "\n").filter { $0.hasPrefix("round ") }.compactMap { UInt64($0.dropFirst(6)) }.max() ?? 0
        let ledger = try Ledger(directory: dir, database: try TestLedgerDatabase.forDirectory(dir))
        defer { ledger.close() }
        #expect(ledger.latestBlock.round >= lastRound)
        #expect(!hashes.isEmpty)
        for h in hashes {
            let status = try ledger.transaction(h)?.status
            #expect(status == .finalized || status == .sealed)
        }
        #expect(try ledger.supply().isConserved)
        // The chain goes on from where it stopped.
        let next = try ledger.produceBlock()
        #expect(next.round == ledger.latestBlock.round)
    }
}
