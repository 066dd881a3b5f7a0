import Foundation
import MosaicCrypto
import MosaicLedger
import MosaicNode
import MosaicProtocol
import MosaicSDK
import MosaicTestSupport
import Testing

/// A client that knows several nodes of one chain goes on with the next when the one it uses stops
/// answering, and a wait that began on the first ends on the other.
@Suite(.serialized, .timeLimit(.minutes(3))) struct NodeFailoverTests {
    @Test func callsGoToTheNextNodeWhenOneIsDownAndStayThere() async throws {
        let net = try TestDevnet()
        defer { Task { await net.stop() } }
        // Nothing listens on the first URL: every call fails over, and then starts at the live node.
        let dead = try #require(URL(string: "http://127.0.0.1:\(freeLoopbackPorts(1))"))
        let client = LedgerClient(baseURLs: [dead, net.node.url])
        #expect(try await client.network().chainID == net.genesis.chainID)
        let wallet = Wallet(signingKey: net.alice, client: client)
        let tx = try await wallet.send(to: net.bob.publicKey.clientID, amount: "2", fee: "0.001")
        #expect(try await wallet.wait(for: tx.hash, until: .sealed, timeout: .seconds(20)).status == .sealed)
        #expect(try await net.balance(net.bob) == 52 * token)

        // A node's own answer is final: not found on one node is not asked of the next.
        let missing = String(repeating: "0", count: 64)
        await #expect(throws: LedgerClientError.self) { try await client.transaction(missing) }

        // With no node up the error names the last one tried and what to do.
        let none = LedgerClient(baseURLs: [dead, dead])
        do {
            _ = try await none.network()
            Issue.record("a client with no live node answered")
        } catch {
            #expect(error.code == "unreachable", "\(error)")
        }
    }

    @Test func aTransactionAcceptedByAStoppedNodeIsSealedThroughTheNodeThatTakesOver() async throws {
        let dir = NSTemporaryDirectory() + "mosaic-failover-" + Hex.encode(Random.bytes(6))
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let alice = try testKey(1)
        let bob = try testKey(2)
        var g = Genesis(chainID: "mosaic-failover", allocations: [alice.publicKey.clientID: 100 * token])
        g.confirmations = 1
        let base = freeLoopbackPorts(2)
        func node(_ port: UInt16) throws -> NodeServer {
            var c = NodeConfiguration(directory: dir, genesis: g, port: port, blockTime: .milliseconds(200))
            c.database = try TestLedgerDatabase.forDirectory(dir)
            c.logger = nil
            let n = try NodeServer(configuration: c)
            try n.start()
            return n
        }
        // The same chain served first at one URL, then (after the first stops) at another: what a
        // client sees when the node it used dies and another node of the chain answers.
        let first = try node(base)
        let urls = try [base, base + 1].map { try #require(URL(string: "http://127.0.0.1:\($0)")) }
        let client = LedgerClient(baseURLs: urls)
        let wallet = Wallet(signingKey: alice, client: client)
        let sent = try await wallet.send(to: bob.publicKey.clientID, amount: "1", fee: "0.001")
        _ = try await wallet.wait(for: sent.hash, until: .sealed, timeout: .seconds(20))
        // Accepted by the first node, which stops before (or just after) sealing it.
        let pending = try await wallet.send(to: bob.publicKey.clientID, amount: "1", fee: "0.001")
        await first.stop()
        let second = try node(base + 1)
        defer { Task { await second.stop() } }
        // The wait goes to the node that answers, and ends sealed: nothing accepted was lost.
        #expect(try await wallet.wait(for: pending.hash, until: .sealed, timeout: .seconds(20)).status == .sealed)
        // Writes go on through that node, with the nonce the chain has.
        let next = try await wallet.send(to: bob.publicKey.clientID, amount: "1", fee: "0.001")
        #expect(try await wallet.wait(for: next.hash, until: .sealed, timeout: .seconds(20)).status == .sealed)
        #expect(try await client.account(bob.publicKey.clientID).balance == 3 * token)
    }
}
