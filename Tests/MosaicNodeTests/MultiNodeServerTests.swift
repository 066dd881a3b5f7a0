import Foundation
import MosaicCrypto
import MosaicLedger
import MosaicNode
import MosaicProtocol
import MosaicSDK
import MosaicTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Two `mosaic node` servers on one PostgreSQL database (issue 14 §2), over HTTP as clients see
/// them: one makes the blocks, the other accepts transactions and answers long polls.
@Suite(.sharedDatabase)
struct MultiNodeServerTests {
    @Test func aTransferSubmittedToTheFollowerNodeIsSealedAndItsLongPollWokenByTheProducersBlock() async throws {
        let first = try TestDevnet(blockTime: .milliseconds(50))
        let directory = NSTemporaryDirectory() + "mosaic-node-follower-" + Hex.encode(Random.bytes(6))
        var configuration = NodeConfiguration(
            directory: directory, genesis: first.genesis, port: 0, blockTime: .milliseconds(50), allowTimeTravel: false)
        configuration.database = .postgres(url: try TestLedgerDatabase.url(for: first.directory))
        let second = try NodeServer(configuration: configuration)
        try second.start()
        let client = LedgerClient(baseURL: second.url)
        do {
            let tx = first.transfer(first.alice, to: first.bob.publicKey.clientID, 3 * token, nonce: 1)
            _ = try await client.submit(tx)
            // The long poll on the follower ends sealed: the other node's blocks woke it.
            let view = try await client.transaction(tx.hash, wait: .sealed, timeout: .seconds(60))
            #expect(view.status == .sealed)
            #expect(try await first.client.transaction(tx.hash).status == .sealed)
            #expect(try await client.account(first.bob.publicKey.clientID).balance == 53 * token)
            let healths = try await [first.raw("GET", "/health").body, Self.get(second.url, "/health")].map {
                try JSONDecoder().decode(NodeHealth.self, from: $0)
            }
            #expect(healths.map(\.producer) == [true, false])
        } catch {
            Issue.record("\(error)")
        }
        await second.stop()
        try? FileManager.default.removeItem(atPath: directory)
        await first.stop()
    }

    static func get(_ base: URL, _ path: String) async throws -> Data {
        guard let url = URL(string: Devnet.text(base) + path) else { throw URLError(.badURL) }
        return try await URLSession.shared.data(from: url).0
    }
}
