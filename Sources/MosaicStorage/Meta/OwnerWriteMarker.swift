import MosaicCrypto
import MosaicProtocol

/// The owner's signed statement that one blobber's allocation root moves from `previous_root` to
/// `root`, holding `size` fragment bytes. Same JSON and signing bytes as the storage contract's
/// `MosaicProtocol.WriteMarker` (branch storage-contract) so the blobber can hand it to the ledger
/// unchanged; this type goes away when that branch is merged.
///
/// Signing bytes: "mosaic-write-marker-v1" ‖ allocation_id ‖ blobber_id ‖ client_id ‖
/// previous_root (32) ‖ root (32) ‖ u64 size ‖ i64 timestamp; signature = Ed25519(SHA-256(bytes)).
public struct OwnerWriteMarker: Sendable, Hashable, Codable {
    public static let signingDomain = "mosaic-write-marker-v1"

    public var allocationID: String
    public var blobberID: String
    public var clientID: String
    public var previousRoot: String
    public var root: String
    public var size: UInt64
    public var timestamp: Int64
    public var signature: String

    enum CodingKeys: String, CodingKey {
        case allocationID = "allocation_id"
        case blobberID = "blobber_id"
        case clientID = "client_id"
        case previousRoot = "previous_root"
        case root, size, timestamp, signature
    }

    public init(allocationID: String, blobberID: String, clientID: String, previousRoot: String, root: String,
                size: UInt64, timestamp: Int64, signature: String = "") {
        self.allocationID = allocationID
        self.blobberID = blobberID
        self.clientID = clientID
        self.previousRoot = previousRoot
        self.root = root
        self.size = size
        self.timestamp = timestamp
        self.signature = signature
    }

    public var signingBytes: [UInt8] {
        var w = CanonicalWriter(domain: Self.signingDomain)
        w.append(string: allocationID)
        w.append(string: blobberID)
        w.append(string: clientID)
        w.append(bytes: Self.hash32(previousRoot))
        w.append(bytes: Self.hash32(root))
        w.append(uint64: size)
        w.append(int64: timestamp)
        return w.bytes
    }

    static func hash32(_ hex: String) -> [UInt8] {
        if let b = Hex.decode(hex), b.count == 32 { return b }
        return Array(hex.utf8)
    }

    public mutating func sign(with key: Ed25519.SigningKey) {
        clientID = key.publicKey.clientID
        signature = Hex.encode(key.signature(for: SHA256.hash(signingBytes)))
    }

    public func verify(owner: Ed25519.PublicKey) throws(StorageRequestError) {
        for v in [allocationID, blobberID, clientID, previousRoot, root] where !Transaction.isHexID(v) {
            throw .invalid("write marker fields must be 64 lowercase hex characters")
        }
        guard clientID == owner.clientID else { throw .forbidden("the write marker is not from the allocation owner") }
        guard let sig = Hex.decode(signature), owner.isValidSignature(sig, for: SHA256.hash(signingBytes)) else {
            throw .forbidden("the write marker's owner signature is invalid")
        }
    }
}
