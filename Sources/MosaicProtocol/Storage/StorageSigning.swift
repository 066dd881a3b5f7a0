import MosaicCrypto

/// Field rules shared by the signed storage objects (markers, tickets); their hash and signature
/// rules are `CanonicalSigned`'s.
public enum StorageSigning {
    /// 32 bytes from 64 hex characters, or the text's UTF-8 bytes when it is not (so signing bytes are
    /// always defined; `verify` rejects such shapes before any signature check).
    static func hash32(_ hex: String) -> [UInt8] {
        if let b = Hex.decode(hex), b.count == 32 { return b }
        return Array(hex.utf8)
    }

    /// True for 64 lowercase hex characters.
    public static func isHexID(_ s: String) -> Bool { Transaction.isHexID(s) }
}

extension CanonicalSigned {
    /// `signatureFault` as the storage error that names `what` was signed.
    func verifySignature(
        _ signature: String, publicKey: String, clientID: String,
        what: String
    ) throws(StorageProtocolError) {
        switch signatureFault(signature, publicKey: publicKey, clientID: clientID) {
        case nil: return
        case .malformedPublicKey?: throw .malformed("\(what): public key must be 64 hex characters (32 bytes)")
        case .keyMismatch?: throw .keyMismatch(what)
        case .malformedSignature?: throw .malformed("\(what): signature must be 128 hex characters (64 bytes)")
        case .invalidSignature?: throw .invalidSignature(what)
        }
    }
}
