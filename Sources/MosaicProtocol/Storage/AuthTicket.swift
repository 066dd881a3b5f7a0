import MosaicCrypto

/// The owner's signed permission for one client (or anyone) to read one file or folder until
/// `expiration`. Blobbers check it (and that the ledger has not revoked `id`) before serving.
///
/// The wrapped content key is **not** part of the signed bytes: it travels beside the ticket
/// (`SharedFile`-style envelope of the SDK, or the link's fragment for public links). A wrong key
/// cannot do harm: the data is verified against owner-signed roots and decryption (AEAD) fails.
/// Keeping it out lets one ticket be re-wrapped without re-signing, and keeps public-link keys
/// off every server that sees the ticket.
///
/// Signing bytes: "mosaic-auth-ticket-v2" ‖ allocation_id ‖ owner_id ‖ path ‖ kind ‖ recipient_id ‖
/// i64 expiration ‖ nonce ‖ u64 read_budget; `id` = hex SHA-256(signing bytes); signature =
/// Ed25519(SHA-256(bytes)) by `owner_public_key`.
public struct AuthTicket: Sendable, Hashable, Codable, CanonicalSigned {
    public enum Kind: String, Sendable, Hashable, Codable { case file, dir }

    public var id: String
    public var allocationID: String
    public var ownerID: String
    public var ownerPublicKey: String
    /// The shared path; for `dir` everything under it.
    public var path: String
    public var kind: Kind
    /// The one client allowed to use it, or "" for anyone holding the ticket.
    public var recipientID: String
    /// Unix seconds after which it is invalid (0 = never).
    public var expiration: Int64
    /// Random hex, so two tickets for the same file differ (and are revoked separately).
    public var nonce: String
    /// The most the allocation's write pool pays (base units), over all readers and blobbers
    /// together, for reads under this ticket; 0 = readers pay from their own read pools. Signed by
    /// the owner, counted by the ledger: a blobber signing markers as throwaway readers of a
    /// public ticket can take no more than this.
    public var readBudget: UInt64
    public var signature: String

    enum CodingKeys: String, CodingKey {
        case id
        case allocationID = "allocation_id"
        case ownerID = "owner_id"
        case ownerPublicKey = "owner_public_key"
        case path, kind
        case recipientID = "recipient_id"
        case expiration, nonce
        case readBudget = "read_budget"
        case signature
    }

    public init(
        allocationID: String, ownerID: String, ownerPublicKey: String, path: String, kind: Kind,
        recipientID: String, expiration: Int64, nonce: String, readBudget: UInt64 = 0
    ) {
        self.id = ""
        self.allocationID = allocationID
        self.ownerID = ownerID
        self.ownerPublicKey = ownerPublicKey
        self.path = path
        self.kind = kind
        self.recipientID = recipientID
        self.expiration = expiration
        self.nonce = nonce
        self.readBudget = readBudget
        self.signature = ""
        self.id = computedID
    }

    /// `read_budget` may be absent (0), so a v1 ticket still decodes (and then fails its id and
    /// signature checks with a clear error).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        allocationID = try c.decode(String.self, forKey: .allocationID)
        ownerID = try c.decode(String.self, forKey: .ownerID)
        ownerPublicKey = try c.decode(String.self, forKey: .ownerPublicKey)
        path = try c.decode(String.self, forKey: .path)
        kind = try c.decode(Kind.self, forKey: .kind)
        recipientID = try c.decode(String.self, forKey: .recipientID)
        expiration = try c.decode(Int64.self, forKey: .expiration)
        nonce = try c.decode(String.self, forKey: .nonce)
        readBudget = try c.decodeIfPresent(UInt64.self, forKey: .readBudget) ?? 0
        signature = try c.decode(String.self, forKey: .signature)
    }

    public static let signingDomain = "mosaic-auth-ticket-v2"

    public var signingBytes: [UInt8] {
        var w = CanonicalWriter(domain: AuthTicket.signingDomain)
        w.append(string: allocationID)
        w.append(string: ownerID)
        w.append(string: path)
        w.append(string: kind.rawValue)
        w.append(string: recipientID)
        w.append(int64: expiration)
        w.append(string: nonce)
        w.append(uint64: readBudget)
        return w.bytes
    }

    public var computedID: String { signingHash }

    /// Fills `owner_id`, `owner_public_key`, `id` and `signature` from `key`.
    public mutating func sign(with key: Ed25519.SigningKey) {
        ownerID = key.publicKey.clientID
        ownerPublicKey = key.publicKey.hex
        id = computedID
        signature = self.signature(by: key)
    }

    /// Shapes, id, signature; and, when `now` is given, the expiry; when `reader` is given, the recipient.
    public func verify(now: Int64? = nil, reader: String? = nil) throws(StorageProtocolError) {
        for (name, v) in [("allocation_id", allocationID), ("owner_id", ownerID)] where !StorageSigning.isHexID(v) {
            throw .malformed("auth ticket \(name) must be 64 lowercase hex characters")
        }
        guard recipientID.isEmpty || StorageSigning.isHexID(recipientID) else {
            throw .malformed("auth ticket recipient_id must be empty (anyone) or a 64-hex client id")
        }
        guard !path.isEmpty else { throw .malformed("auth ticket path is empty") }
        guard id == computedID else { throw .malformed("auth ticket id does not match its contents") }
        try verifySignature(signature, publicKey: ownerPublicKey, clientID: ownerID, what: "auth ticket")
        if let now, expiration != 0, now > expiration { throw .malformed("auth ticket expired at \(expiration)") }
        if let reader, !recipientID.isEmpty, reader != recipientID, reader != ownerID {
            throw .malformed("auth ticket is for client \(recipientID), not \(reader)")
        }
    }
}
