import MosaicCrypto

/// A signed ledger transaction as it travels on the wire (snake_case JSON).
///
/// `hash` is the hex SHA-256 of `signingBytes`; `signature` is the hex Ed25519 signature of the
/// 32 hash bytes (see docs/PROTOCOL.md, section 2). JSON is only the transport: the hash never
/// depends on how the JSON was written.
public struct Transaction: Sendable, Hashable, Codable, CanonicalSigned {
    public var hash: String
    public var clientID: String
    public var publicKey: String
    public var toClientID: String
    public var value: UInt64
    public var fee: UInt64
    public var nonce: UInt64
    public var transactionType: TransactionType
    public var transactionData: String
    public var creationDate: Int64
    public var chainID: String
    public var signature: String

    enum CodingKeys: String, CodingKey {
        case hash
        case clientID = "client_id"
        case publicKey = "public_key"
        case toClientID = "to_client_id"
        case value, fee, nonce
        case transactionType = "transaction_type"
        case transactionData = "transaction_data"
        case creationDate = "creation_date"
        case chainID = "chain_id"
        case signature
    }

    public init(
        hash: String, clientID: String, publicKey: String, toClientID: String, value: UInt64, fee: UInt64,
        nonce: UInt64, transactionType: TransactionType, transactionData: String, creationDate: Int64,
        chainID: String, signature: String
    ) {
        self.hash = hash
        self.clientID = clientID
        self.publicKey = publicKey
        self.toClientID = toClientID
        self.value = value
        self.fee = fee
        self.nonce = nonce
        self.transactionType = transactionType
        self.transactionData = transactionData
        self.creationDate = creationDate
        self.chainID = chainID
        self.signature = signature
    }

    /// Domain tag at the start of the signing bytes; bump it when the layout changes.
    public static let signingDomain = "mosaic-tx-v1"

    /// The canonical bytes covered by the hash, field by field (docs/PROTOCOL.md §2.2).
    /// `public_key` must be hex; if it is not, its text bytes are used (the signature check then fails).
    public var signingBytes: [UInt8] {
        var w = CanonicalWriter(domain: Transaction.signingDomain)
        w.append(string: chainID)
        w.append(string: clientID)
        w.append(bytes: Hex.decode(publicKey) ?? Array(publicKey.utf8))
        w.append(string: toClientID)
        w.append(uint64: value)
        w.append(uint64: fee)
        w.append(uint64: nonce)
        w.append(uint8: transactionType.code)
        w.append(string: transactionData)
        w.append(int64: creationDate)
        return w.bytes
    }

    /// Bytes of this transaction in a binary batch (and the node's pending table): a 4-byte length,
    /// the signing bytes and the 64 signature bytes. Computed from the field lengths, without
    /// building the bytes; what the pool's byte limits count.
    public var wireSize: Int {
        let key = Hex.decode(publicKey)?.count ?? publicKey.utf8.count
        let strings =
            Transaction.signingDomain.utf8.count + chainID.utf8.count + clientID.utf8.count + key
            + toClientID.utf8.count + transactionData.utf8.count
        // 6 length prefixes, 3 u64 + u8 + i64, then the batch's length prefix and the signature.
        return strings + 6 * 4 + 3 * 8 + 1 + 8 + 4 + 64
    }

    /// Hex SHA-256 of the signing bytes: what `hash` must equal.
    public var computedHash: String { signingHash }

    /// Builds and signs a transaction; `clientID` and `publicKey` come from `key`.
    public static func signed(
        by key: Ed25519.SigningKey, chainID: String, to toClientID: String,
        value: UInt64, fee: UInt64, nonce: UInt64, type: TransactionType = .transfer,
        data: String = "", creationDate: Int64
    ) -> Transaction {
        var tx = Transaction(
            hash: "", clientID: key.publicKey.clientID, publicKey: key.publicKey.hex,
            toClientID: toClientID, value: value, fee: fee, nonce: nonce, transactionType: type,
            transactionData: data, creationDate: creationDate, chainID: chainID, signature: "")
        tx.sign(with: key)
        return tx
    }

    /// Recomputes `hash` and `signature` with `key` after fields were changed.
    public mutating func sign(with key: Ed25519.SigningKey) {
        let digest = signingDigest
        hash = Hex.encode(digest)
        signature = Hex.encode(key.signature(for: digest))
    }

    /// Checks everything that needs no ledger state: field shapes, hash, key ↔ client id, signature.
    /// Chain id, fee, nonce and balance are checked by the ledger.
    public func verify() throws(LedgerError) {
        guard Transaction.isHexID(clientID) else { throw .malformed("client_id must be 64 lowercase hex characters") }
        guard Transaction.isHexID(toClientID) else { throw .malformed("to_client_id must be 64 lowercase hex characters") }
        guard let key = Ed25519.PublicKey(hex: publicKey) else { throw .malformed("public_key must be 64 hex characters (32 bytes)") }
        guard nonce >= 1, nonce <= UInt64(Int64.max) else { throw .malformed("nonce must be between 1 and \(Int64.max)") }
        guard transactionData.utf8.count <= Transaction.maxDataBytes else {
            throw .malformed("transaction_data is \(transactionData.utf8.count) bytes; at most \(Transaction.maxDataBytes) allowed")
        }
        guard key.clientID == clientID else { throw .keyMismatch }
        let digest = signingDigest
        guard Hex.encode(digest) == hash else { throw .invalidHash }
        switch signatureFault(signature, by: key, digest: digest) {
        case nil: return
        case .malformedSignature?: throw .malformed("signature must be 128 hex characters (64 bytes)")
        case .invalidSignature?, .malformedPublicKey?, .keyMismatch?: throw .invalidSignature
        }
    }

    /// Upper bound on `transaction_data`, so one transaction cannot bloat a block. 128 KiB: a storage
    /// challenge answer carries one 64 KiB block (base64) and its proofs.
    public static let maxDataBytes = 128 * 1024

    /// A transfer's description limit on a network with default genesis (`max_transfer_data_bytes`);
    /// wallets check it before signing.
    public static let defaultMaxTransferDataBytes = 1024

    /// True for 64 lowercase hex characters (a client id, contract address or hash).
    public static func isHexID(_ s: String) -> Bool {
        s.utf8.count == 64 && s.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }
    }
}
