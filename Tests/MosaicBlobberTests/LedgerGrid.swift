import Foundation
import MosaicCrypto
import MosaicProtocol
import MosaicTestSupport

@testable import MosaicBlobber
@testable import MosaicLedger
@testable import MosaicSDK
@testable import MosaicStorageCore

/// An in-process ledger with the storage contract, blobber servers registered on it (each with
/// its wallet key), an owner with a funded allocation on those blobbers, and a storage client.
final class LedgerGrid: @unchecked Sendable {
    // @unchecked: set up once in `init`, then only read; the ledger and servers are Sendable.
    let root: String
    let owner = Ed25519.SigningKey.generate()
    let blobberKeys: [Ed25519.SigningKey]
    let genesis: Genesis
    let ledger: Ledger
    private(set) var servers: [BlobberServer] = []
    /// Each server's view of the ledger, in server order.
    private(set) var ledgers: [InProcessBlobberLedger] = []
    private(set) var allocation: StorageAllocation!
    let client: StorageClient

    init(blobbers: Int = 3, data: Int = 2, parity: Int = 1, config: StorageConfig = StorageConfig(), readPrice: UInt64 = 0) async throws {
        root = NSTemporaryDirectory() + "mosaic-ledger-grid-" + Hex.encode(Random.bytes(6))
        TestFolders.removeAtExit(root)
        blobberKeys = (0..<blobbers).map { _ in Ed25519.SigningKey.generate() }
        let token = TokenAmount.unitsPerToken
        var funds = [owner.publicKey.clientID: 1000 * token]
        for k in blobberKeys { funds[k.publicKey.clientID] = 100 * token }
        var g = Genesis(chainID: "mosaic-blobber-test", allocations: funds)
        g.confirmations = 1
        genesis = g
        ledger = try Ledger(directory: root + "/ledger", genesis: g, registry: .standard.registering([StorageContract(config: config)]))
        client = StorageClient(signingKey: owner, home: URL(fileURLWithPath: root + "/home"))
        try FileManager.default.createDirectory(atPath: root + "/local", withIntermediateDirectories: true)
        for (i, k) in blobberKeys.enumerated() {
            let dir = root + "/blobber\(i)"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            try Hex.encode(k.seed.copyBytes()).write(toFile: dir + "/blobber.key", atomically: true, encoding: .utf8)
            var c = BlobberServer.Configuration(directory: dir)
            let view = InProcessBlobberLedger(ledger: ledger, key: k, chainID: g.chainID)
            ledgers.append(view)
            c.ledger = view
            c.ledgerRefresh = 0
            let s = try BlobberServer(configuration: c)
            try s.start()
            servers.append(s)
            let r = try call(
                k, "register_blobber",
                [
                    "url": .string(s.baseURL.absoluteString), "capacity": .integer(10 << 30),
                    "write_price": .integer(Int64(token / 100)), "read_price": .integer(Int64(readPrice)),
                ], value: 5 * token)
            guard r.outcome == .success else { throw StorageGrid.GridError(message: r.error?.message ?? "register failed") }
        }
        let r = try call(
            owner, "new_allocation",
            [
                "name": .string("docs"), "data_shards": .integer(Int64(data)),
                "parity_shards": .integer(Int64(parity)), "size": .integer(64 << 20),
                "expiration": .integer(Int64(Date().timeIntervalSince1970) + 86_400),
            ],
            value: 100 * token)
        guard r.outcome == .success, let a = try ledger.storageAllocation(r.transactionHash) else {
            throw StorageGrid.GridError(message: r.error?.message ?? "no allocation")
        }
        allocation = try StorageAllocation(a)
    }

    /// One storage call in its own block.
    @discardableResult
    func call(_ key: Ed25519.SigningKey, _ method: String, _ args: [String: JSONValue], value: UInt64 = 0) throws -> TransactionReceipt {
        let tx = Transaction.signed(
            by: key, chainID: genesis.chainID, to: ContractCall.address(of: "storage"), value: value,
            fee: genesis.minimumFee, nonce: try ledger.account(key.publicKey.clientID).nonce + 1, type: .contractCall,
            data: ContractCall(contract: "storage", method: method, args: args).json,
            creationDate: Int64(Date().timeIntervalSince1970))
        try ledger.submit(tx)
        _ = try ledger.produceBlock()
        guard let receipt = try ledger.transaction(tx.hash)?.receipt else {
            throw StorageGrid.GridError(message: "no receipt for \(method)")
        }
        return receipt
    }

    func server(of blobberID: String) -> BlobberServer? { servers.first { $0.blobberID == blobberID } }

    func localFile(_ bytes: [UInt8]) throws -> URL {
        let url = URL(fileURLWithPath: root + "/local/in-" + Hex.encode(Random.bytes(4)))
        try Data(bytes).write(to: url)
        return url
    }

    func shutdown() async {
        for s in servers { await s.stop() }
        ledger.close()
        try? FileManager.default.removeItem(atPath: root)
    }
}
