import MosaicCrypto

/// The reader's signed, cumulative count of 64 KiB blocks read from one blobber for one
/// allocation. The blobber redeems the latest one (`storage.redeem_read_markers`) and is paid for
/// the blocks above the last redeemed counter.
///
/// Signing bytes: "mosaic-read-marker-v2" ‖ allocation_id ‖ blobber_id ‖ client_id ‖ owner_id ‖
/// u64 counter ‖ i64 timestamp ‖ u64 read_price ‖ ticket_id; signature = Ed25519(SHA-256(bytes))
/// by `public_key`. The reader's signature thus fixes the most it pays per GiB and which auth
/// ticket (if any) the blocks were read under: a blobber can neither raise the price nor attach
/// another ticket to make the owner pay.
public struct ReadMarker: Sendable, Hashable, Codable, CanonicalSigned {
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
    /// Unix seconds when the reader signed (informational: the ledger judges tickets by its own clock).
    public var timestamp: Int64
    /// The most the reader agrees to pay per GiB (base units): the read price the allocation
    /// agreed with this blobber, as the ledger's allocation record gives it. The ledger charges
    /// the agreed price and refuses a marker signed for less.
    public var readPrice: UInt64
    /// Id of the auth ticket the blocks were read under ("" for none). Signed: only the ticket the
    /// reader named can make the owner's write pool pay.
    public var ticketID: String
    public var signature: String
    /// The auth ticket named by `ticket_id`, attached by the blobber (its content carries the
    /// owner's own signature, and its id is covered by the reader's). When the reader's read pool
    /// is short, the ledger charges the allocation's write pool for reads under a valid ticket, up
    /// to the ticket's signed `read_budget` — the owner pays for what it shared, at most what it
    /// said, so public links work for readers with no tokens.
    public var ticket: AuthTicket?

    enum CodingKeys: String, CodingKey {
        case allocationID = "allocation_id"
        case blobberID = "blobber_id"
        case clientID = "client_id"
        case publicKey = "public_key"
        case ownerID = "owner_id"
        case counter, timestamp
        case readPrice = "read_price"
        case ticketID = "ticket_id"
        case signature, ticket
    }

    public init(
        allocationID: String, blobberID: String, clientID: String, publicKey: String, ownerID: String,
        counter: UInt64, timestamp: Int64, readPrice: UInt64 = 0, ticketID: String = "", signature: String = ""
    ) {
        self.allocationID = allocationID
        self.blobberID = blobberID
        self.clientID = clientID
        self.publicKey = publicKey
        self.ownerID = ownerID
        self.counter = counter
        self.timestamp = timestamp
        self.readPrice = readPrice
        self.ticketID = ticketID
        self.signature = signature
    }

    /// `read_price` and `ticket_id` may be absent (0 and ""), so a v1 marker still decodes (and
    /// then fails its signature check with a clear error instead of a decoding one).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        allocationID = try c.decode(String.self, forKey: .allocationID)
        blobberID = try c.decode(String.self, forKey: .blobberID)
        clientID = try c.decode(String.self, forKey: .clientID)
        publicKey = try c.decode(String.self, forKey: .publicKey)
        ownerID = try c.decode(String.self, forKey: .ownerID)
        counter = try c.decode(UInt64.self, forKey: .counter)
        timestamp = try c.decode(Int64.self, forKey: .timestamp)
        readPrice = try c.decodeIfPresent(UInt64.self, forKey: .readPrice) ?? 0
        ticketID = try c.decodeIfPresent(String.self, forKey: .ticketID) ?? ""
        signature = try c.decode(String.self, forKey: .signature)
        ticket = try c.decodeIfPresent(AuthTicket.self, forKey: .ticket)
    }

    public static let signingDomain = "mosaic-read-marker-v2"

    public var signingBytes: [UInt8] {
        var w = CanonicalWriter(domain: ReadMarker.signingDomain)
        w.append(string: allocationID)
        w.append(string: blobberID)
        w.append(string: clientID)
        w.append(string: ownerID)
        w.append(uint64: counter)
        w.append(int64: timestamp)
        w.append(uint64: readPrice)
        w.append(string: ticketID)
        return w.bytes
    }

    public var hash: String { signingHash }

    /// Sets `client_id` and `public_key` from `key` and signs.
    public mutating func sign(with key: Ed25519.SigningKey) {
        clientID = key.publicKey.clientID
        publicKey = key.publicKey.hex
        signature = self.signature(by: key)
    }

    public func verify() throws(StorageProtocolError) {
        for (name, v) in [
            ("allocation_id", allocationID), ("blobber_id", blobberID), ("client_id", clientID),
            ("owner_id", ownerID),
        ] where !StorageSigning.isHexID(v) {
            throw .malformed("read marker \(name) must be 64 lowercase hex characters")
        }
        guard ticketID.isEmpty || StorageSigning.isHexID(ticketID) else {
            throw .malformed("read marker ticket_id must be empty (no ticket) or a 64-hex ticket id")
        }
        try verifySignature(signature, publicKey: publicKey, clientID: clientID, what: "read marker")
    }
}
