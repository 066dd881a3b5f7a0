import Foundation
import MosaicCrypto
import MosaicProtocol
import MosaicTestSupport

@testable import MosaicLedger

/// A ledger with a storage contract under test rules, funded blobbers, an owner and a reader,
/// on a fixed clock (moved with `advanceClock`).
final class StorageNet {
    static let start: Int64 = 1_800_000_000
    let directory: String
    let genesis: Genesis
    let owner: Ed25519.SigningKey
    let reader: Ed25519.SigningKey
    let blobbers: [Ed25519.SigningKey]
    let config: StorageConfig
    let ledger: Ledger
    private var nonces: [String: UInt64] = [:]

    init(blobberCount: Int = 6, config: StorageConfig = StorageNet.testConfig()) throws {
        directory = NSTemporaryDirectory() + "mosaic-storage-test-" + Hex.encode(Random.bytes(6))
        owner = try testKey(10)
        reader = try testKey(11)
        blobbers = try (0..<blobberCount).map { try testKey(UInt8(20 + $0)) }
        var funds: [String: UInt64] = [owner.publicKey.clientID: 1000 * token, reader.publicKey.clientID: 1000 * token]
        for b in blobbers { funds[b.publicKey.clientID] = 100 * token }
        var g = Genesis(chainID: "mosaic-storage-test", genesisTime: StorageNet.start, allocations: funds)
        g.confirmations = 1
        genesis = g
        self.config = config
        ledger = try Ledger(
            directory: directory, database: try TestLedgerDatabase.forDirectory(directory), genesis: g,
            clock: LedgerClock(source: { StorageNet.start * 1000 }),
            registry: .standard.registering([StorageContract(config: config)]))
    }

    deinit {
        ledger.close()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// No random challenges unless a test asks for them.
    static func testConfig(challengeEvery: UInt64 = 0) -> StorageConfig {
        var c = StorageConfig()
        c.challengeEveryBlocks = challengeEvery
        return c
    }

    var now: Int64 { max(ledger.clock.now, ledger.latestBlock.timestamp) }

    /// Submits one storage call, makes a block, returns the receipt.
    @discardableResult
    func call(
        _ key: Ed25519.SigningKey, _ method: String, _ args: [String: JSONValue] = [:], value: UInt64 = 0,
        gas: UInt64? = nil
    ) throws -> TransactionReceipt {
        let id = key.publicKey.clientID
        let nonce = (nonces[id] ?? 0) + 1
        nonces[id] = nonce
        let tx = Transaction.signed(
            by: key, chainID: genesis.chainID, to: ContractCall.address(of: "storage"), value: value,
            fee: genesis.minimumFee, nonce: nonce, type: .contractCall,
            data: ContractCall(contract: "storage", method: method, args: args, gas: gas).json, creationDate: now)
        try ledger.submit(tx)
        try ledger.produceBlock()
        guard let receipt = try ledger.transaction(tx.hash)?.receipt else { throw LedgerError.storage("no receipt for \(method)") }
        return receipt
    }

    /// The error of a call that must fail (nil if it succeeded).
    func failure(_ key: Ed25519.SigningKey, _ method: String, _ args: [String: JSONValue] = [:], value: UInt64 = 0) throws -> String? {
        let r = try call(key, method, args, value: value)
        return r.outcome == .failure ? r.error?.message : nil
    }

    func registerAll(capacity: UInt64 = 10 << 30, writePrice: UInt64 = token, readPrice: UInt64 = token / 10) throws {
        for (i, b) in blobbers.enumerated() {
            let r = try call(
                b, "register_blobber",
                [
                    "url": .string("http://127.0.0.1:\(5051 + i)"), "capacity": .integer(Int64(capacity)),
                    "write_price": .integer(Int64(writePrice)), "read_price": .integer(Int64(readPrice)),
                ],
                value: 5 * token)
            guard r.outcome == .success else { throw LedgerError.storage(r.error?.message ?? "register failed") }
        }
    }

    func newAllocation(
        data: Int = 4, parity: Int = 2, size: UInt64 = 1 << 30, seconds: Int64 = 2_592_000,
        lock: UInt64 = 100 * token
    ) throws -> Allocation {
        let r = try call(
            owner, "new_allocation",
            [
                "name": .string("photos"), "data_shards": .integer(Int64(data)),
                "parity_shards": .integer(Int64(parity)), "size": .integer(Int64(size)),
                "expiration": .integer(now + seconds),
            ], value: lock)
        guard r.outcome == .success, let a = try ledger.storageAllocation(r.transactionHash) else {
            throw LedgerError.storage(r.error?.message ?? "no allocation")
        }
        return a
    }

    func key(of blobberID: String) -> Ed25519.SigningKey? { blobbers.first { $0.publicKey.clientID == blobberID } }

    /// Milliseconds already given to a marker: each new one is strictly later, as the contract asks.
    private var markerMillis: Int64 = 0

    func marker(
        _ a: Allocation, blobber: String, previous: String, root: String, size: UInt64,
        signer: Ed25519.SigningKey? = nil
    ) -> WriteMarker {
        markerMillis = max(markerMillis + 1, now * 1000)
        var m = WriteMarker(
            allocationID: a.id, blobberID: blobber, clientID: owner.publicKey.clientID, previousRoot: previous,
            root: root, size: size, timestamp: markerMillis)
        m.sign(with: signer ?? owner)
        return m
    }

    /// Everything the storage contract's records say it holds.
    func storageLiabilities() throws -> UInt64 {
        var total: UInt64 = 0
        for b in try ledger.storageBlobbers() { total += b.stake }
        for id in [owner.publicKey.clientID, reader.publicKey.clientID] {
            for a in try ledger.storageAllocations(owner: id) { total += a.writePool + a.challengePool }
            total += try ledger.storageReadPool(id)
        }
        return total
    }

    func contractBalance() throws -> UInt64 { try ledger.account(ContractCall.address(of: "storage")).balance }

    func balance(_ key: Ed25519.SigningKey) throws -> UInt64 { try ledger.account(key.publicKey.clientID).balance }
}

/// A JSON argument from any Encodable protocol value (markers, proofs).
func jsonArg<T: Encodable>(_ value: T) throws -> JSONValue {
    try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
}

/// A fragment stream of `length` bytes (byte j = (j + seed) mod 251) with its root and leaves.
struct TestFragment {
    let bytes: [UInt8]
    let leaves: [[UInt8]]
    var root: String { Hex.encode(MerkleRules.root(leaves: leaves)) }

    init(length: Int, seed: Int = 0) {
        bytes = (0..<length).map { UInt8(($0 + seed) % 251) }
        leaves = MerkleRules.blockLeaves(bytes)
    }

    func block(_ i: UInt64) -> (bytes: [UInt8], siblings: [[UInt8]]) {
        let start = Int(i) * MerkleRules.blockSize
        return (
            Array(bytes[start..<min(start + MerkleRules.blockSize, bytes.count)]),
            MerkleRules.siblings(leaves: leaves, index: Int(i))
        )
    }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) { self = .integer(value) }
}
