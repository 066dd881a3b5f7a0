import MosaicCrypto

/// The reader's signed, cumulative count of 64 KiB blocks read from one blobber for one
/// allocation. The blobber redeems the latest one (`storage.redeem_read_markers`) and is paid for
/// the blocks above the last redeemed counter.
///
/// Signing bytes: "mosaic-read-marker-v1" ‖ allocation_id ‖ blobber_id ‖ client_id ‖ owner_id ‖
/// u64 counter ‖ i64 timestamp; signature = Ed25519(SHA-256(bytes)) by `public_key`.
public struct ReadMarker: Sendable, Hashable, Codable {
    public var allocationID: String
    public var blobberID: String
    /// The reader (signer).
    public var clientID: String
    /// Hex Ed25519 key of the reader (the ledger may never have seen it).
    public var publicKey: String
    /// The allocation owner.
    public var ownerID: String
    /// Cumulative 64 KiB blocks read from this blobber by this reader for this allocation.
    public var counter: UInt64
    public var timestamp: Int64
    public var signature: String
    /// The auth ticket the blocks were served under, attached by the blobber (not signed by the
    /// reader: the ticket carries the owner's own signature). When the reader's read pool is short,
    /// the ledger charges the allocation's write pool for reads under a valid ticket — the owner
    /// pays for what it shared, so public links work for readers with no tokens.
    public var ticket: AuthTicket?

    enum CodingKeys: String, CodingKey {
        case allocationID = "allocation_id"
        case blobberID = "blobber_id"
        case clientID = "client_id"
        case publicKey = "public_key"
        case ownerID = "owner_id"
        case counter, timestamp, signature, ticket
    }

    public init(allocationID: String, blobberID: String, clientID: String, publicKey: String, ownerID: String,
                counter: UInt64, timestamp: Int64, signature: String = "") {
        self.allocationID = allocationID
        self.blobberID = blobberID
        self.clientID = clientID
        self.publicKey = publicKey
        self.ownerID = ownerID
        self.counter = counter
        self.timestamp = timestamp
        self.signature = signature
    }

    public static let signingDomain = "mosaic-read-marker-v1"

    public var signingBytes: [UInt8] {
        var w = CanonicalWriter(domain: ReadMarker.signingDomain)
        w.append(string: allocationID)
        w.append(string: blobberID)
        w.append(string: clientID)
        w.append(string: ownerID)
        w.append(uint64: counter)
        w.append(int64: timestamp)
        return w.bytes
    }

    public var hash: String { StorageSigning.hash(signingBytes) }

    /// Sets `client_id` and `public_key` from `key` and signs.
    public mutating func sign(with key: Ed25519.SigningKey) {
        clientID = key.publicKey.clientID
        publicKey = key.publicKey.hex
        signature = StorageSigning.sign(signingBytes, with: key)
    }

    public func verify() throws(StorageProtocolError) {
        for (name, v) in [("allocation_id", allocationID), ("blobber_id", blobberID), ("client_id", clientID),
                          ("owner_id", ownerID)] where !StorageSigning.isHexID(v) {
            throw .malformed("read marker \(name) must be 64 lowercase hex characters")
        }
        try StorageSigning.verify(signingBytes, signature: signature, publicKey: publicKey, clientID: clientID, what: "read marker")
    }
}
