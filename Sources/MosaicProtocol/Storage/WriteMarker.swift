import MosaicCrypto

/// The owner's signed statement that one blobber's allocation root moved from `previous_root` to
/// `root`, holding `size` bytes. The blobber verifies it before making a write visible and commits
/// it to the ledger (`storage.commit_write_markers`), which checks the chain of roots.
///
/// Signing bytes: "mosaic-write-marker-v2" ‖ allocation_id ‖ blobber_id ‖ client_id ‖
/// previous_root (32) ‖ root (32) ‖ u64 size ‖ i64 timestamp (milliseconds); signature =
/// Ed25519(SHA-256(bytes)). v2: the timestamp is in milliseconds and must strictly increase per
/// blobber, which a client writing many small files a second can keep without running ahead of
/// the clock.
public struct WriteMarker: Sendable, Hashable, Codable, CanonicalSigned {
    public var allocationID: String
    public var blobberID: String
    /// The allocation owner (the signer).
    public var clientID: String
    /// Hex allocation root before the write (64 zeros for the first write).
    public var previousRoot: String
    /// Hex allocation root after the write (`AllocationTree.root`).
    public var root: String
    /// This blobber's total bytes for the allocation after the write.
    public var size: UInt64
    /// Unix milliseconds when the owner signed; strictly above the blobber's previous marker's.
    public var timestamp: Int64
    public var signature: String

    enum CodingKeys: String, CodingKey {
        case allocationID = "allocation_id"
        case blobberID = "blobber_id"
        case clientID = "client_id"
        case previousRoot = "previous_root"
        case root, size, timestamp, signature
    }

    public init(
        allocationID: String, blobberID: String, clientID: String, previousRoot: String, root: String,
        size: UInt64, timestamp: Int64, signature: String = ""
    ) {
        self.allocationID = allocationID
        self.blobberID = blobberID
        self.clientID = clientID
        self.previousRoot = previousRoot
        self.root = root
        self.size = size
        self.timestamp = timestamp
        self.signature = signature
    }

    public static let signingDomain = "mosaic-write-marker-v2"

    public var signingBytes: [UInt8] {
        var w = CanonicalWriter(domain: WriteMarker.signingDomain)
        w.append(string: allocationID)
        w.append(string: blobberID)
        w.append(string: clientID)
        w.append(bytes: StorageSigning.hash32(previousRoot))
        w.append(bytes: StorageSigning.hash32(root))
        w.append(uint64: size)
        w.append(int64: timestamp)
        return w.bytes
    }

    /// Hex SHA-256 of the signing bytes (a marker's identity in logs).
    public var hash: String { signingHash }

    public mutating func sign(with key: Ed25519.SigningKey) { signature = self.signature(by: key) }

    /// Field shapes, `client_id` = SHA-256(`ownerPublicKey`), and the signature.
    public func verify(ownerPublicKey: String) throws(StorageProtocolError) {
        for (name, v) in [
            ("allocation_id", allocationID), ("blobber_id", blobberID), ("client_id", clientID),
            ("previous_root", previousRoot), ("root", root),
        ] where !StorageSigning.isHexID(v) {
            throw .malformed("write marker \(name) must be 64 lowercase hex characters")
        }
        try verifySignature(signature, publicKey: ownerPublicKey, clientID: clientID, what: "write marker")
    }
}
