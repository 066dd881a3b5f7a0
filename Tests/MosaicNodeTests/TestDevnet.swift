import Foundation
import MosaicCrypto
import MosaicHTTP
import MosaicLedger
import MosaicNode
import MosaicProtocol
import MosaicSDK
import MosaicTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real node on 127.0.0.1 (port 0) in a temporary directory: alice holds 100 tokens, bob 50.
/// Blocks are made as soon as transactions arrive (block time 0), so tests never wait on a timer.
final class TestDevnet: Sendable {
    let directory: String
    let node: NodeServer
    let client: LedgerClient
    let alice: Ed25519.SigningKey
    let bob: Ed25519.SigningKey
    let genesis: Genesis

    init(
        blockTime: Duration = .zero, expiryBlocks: UInt64 = 30, confirmations: UInt64 = 3, extra: [String: UInt64] = [:],
        freeSubmissionsPerMinute: Int? = nil
    ) throws {
        directory = NSTemporaryDirectory() + "mosaic-node-test-" + Hex.encode(Random.bytes(6))
        TestFolders.removeAtExit(directory)
        alice = try testKey(1)
        bob = try testKey(2)
        var allocations = [alice.publicKey.clientID: 100 * token, bob.publicKey.clientID: 50 * token]
        for (k, v) in extra { allocations[k] = v }
        var g = Genesis(chainID: "mosaic-test", allocations: allocations)
        g.expiryBlocks = expiryBlocks
        g.confirmations = confirmations
        genesis = g
        var configuration = NodeConfiguration(directory: directory, genesis: g, port: 0, blockTime: blockTime, allowTimeTravel: true)
        if let freeSubmissionsPerMinute { configuration.freeSubmissionsPerMinute = freeSubmissionsPerMinute }
        configuration.database = try TestLedgerDatabase.forDirectory(directory)
        node = try NodeServer(configuration: configuration)
        try node.start()
        client = LedgerClient(baseURL: node.url)
    }

    /// Stops the node and removes its directory.
    func stop() async {
        await node.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    func wallet(_ key: Ed25519.SigningKey) -> Wallet { Wallet(signingKey: key, client: client) }

    func transfer(
        _ from: Ed25519.SigningKey, to: String, _ value: UInt64, nonce: UInt64, fee: UInt64? = nil,
        chainID: String? = nil, data: String = ""
    ) -> Transaction {
        Transaction.signed(
            by: from, chainID: chainID ?? genesis.chainID, to: to, value: value, fee: fee ?? genesis.minimumFee,
            nonce: nonce, data: data, creationDate: Int64(Date().timeIntervalSince1970))
    }

    func balance(_ key: Ed25519.SigningKey) async throws -> UInt64 { try await client.account(key.publicKey.clientID).balance }

    /// Raw HTTP, to check status codes and bodies exactly as other clients see them.
    func raw(_ method: String, _ path: String, body: Data? = nil) async throws -> (status: Int, body: Data) {
        guard let url = URL(string: Devnet.text(node.url) + path) else { throw URLError(.badURL) }
        var req = URLRequest(url: url)
        req.httpMethod = method
        if let body {
            req.httpBody = body
            req.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: req)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    func rawBinary(_ path: String, body: Data) async throws -> (status: Int, body: Data) {
        guard let url = URL(string: Devnet.text(node.url) + path) else { throw URLError(.badURL) }
        var req = URLRequest(url: url)
        req.httpMethod = "POST"
        req.httpBody = body
        req.setValue(BinaryBatch.contentType, forHTTPHeaderField: "Content-Type")
        let (data, response) = try await URLSession.shared.data(for: req)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    func json(_ data: Data) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }

    func html(_ path: String) async throws -> String {
        String(decoding: try await raw("GET", path).body, as: UTF8.self)
    }
}

/// Base URL text without a trailing slash.
enum Devnet {
    static func text(_ url: URL) -> String {
        let s = url.absoluteString
        return s.hasSuffix("/") ? String(s.dropLast()) : s
    }
}
