import MosaicCrypto

/// Shared rules for every signed storage object: the signature is Ed25519 over the 32-byte
/// SHA-256 of the object's canonical signing bytes (as for transactions), hex-encoded.
public enum StorageSigning {
    /// Hex SHA-256 of `bytes`.
    public static func hash(_ bytes: [UInt8]) -> String { Hex.encode(SHA256.hash(bytes)) }

    /// Hex Ed25519 signature of SHA-256(`bytes`).
    public static func sign(_ bytes: [UInt8], with key: Ed25519.SigningKey) -> String {
        Hex.encode(key.signature(for: SHA256.hash(bytes)))
    }

    /// Checks that `publicKey` (hex) belongs to `clientID` and signed SHA-256(`bytes`).
    public static func verify(_ bytes: [UInt8], signature: String, publicKey: String, clientID: String,
                              what: String) throws(StorageProtocolError) {
        guard let key = Ed25519.PublicKey(hex: publicKey) else {
            throw .malformed("\(what): public key must be 64 hex characters (32 bytes)")
        }
        guard key.clientID == clientID else { throw .keyMismatch(what) }
        guard let sig = Hex.decode(signature), sig.count == 64 else {
            throw .malformed("\(what): signature must be 128 hex characters (64 bytes)")
        }
        guard key.isValidSignature(sig, for: SHA256.hash(bytes)) else { throw .invalidSignature(what) }
    }

    /// 32 bytes from 64 hex characters, or the text's UTF-8 bytes when it is not (so signing bytes are
    /// always defined; `verify` rejects such shapes before any signature check).
    static func hash32(_ hex: String) -> [UInt8] {
        if let b = Hex.decode(hex), b.count == 32 { return b }
        return Array(hex.utf8)
    }

    /// True for 64 lowercase hex characters.
    public static func isHexID(_ s: String) -> Bool { Transaction.isHexID(s) }
}
