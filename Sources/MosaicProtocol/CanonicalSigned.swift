import MosaicCrypto

/// A message whose identity and signature both come from its canonical signing bytes
/// (docs/PROTOCOL.md §2): the hash is SHA-256 of the bytes, the signature is Ed25519 over that
/// hash, both hex. Transactions, blocks, read and write markers, auth tickets and file metadata
/// share these rules here, so none of them can drift into signing something else.
public protocol CanonicalSigned {
    /// Domain tag at the start of the signing bytes; bumped when the layout changes.
    static var signingDomain: String { get }
    /// Every field the signature covers, written with `CanonicalWriter(domain: Self.signingDomain)`.
    var signingBytes: [UInt8] { get }
}

/// Why a signature check failed, before each message type names it in its own error.
public enum SignatureFault: Error, Sendable, Equatable {
    /// The public key is not 64 hex characters (32 bytes).
    case malformedPublicKey
    /// The key is valid but is not the one of the client id that claims it.
    case keyMismatch
    /// The signature is not 128 hex characters (64 bytes).
    case malformedSignature
    /// Well formed, but not this key's signature over these bytes.
    case invalidSignature
}

extension CanonicalSigned {
    /// SHA-256 of the signing bytes: what the signature covers.
    public var signingDigest: [UInt8] { SHA256.hash(signingBytes) }

    /// Hex SHA-256 of the signing bytes: the message's identity.
    public var signingHash: String { Hex.encode(signingDigest) }

    /// Hex Ed25519 signature by `key` over the signing digest.
    public func signature(by key: Ed25519.SigningKey) -> String {
        Hex.encode(key.signature(for: signingDigest))
    }

    /// Checks that `publicKey` (hex) belongs to `clientID` and made `signature` (hex) over these
    /// bytes; nil when it did.
    public func signatureFault(_ signature: String, publicKey: String, clientID: String) -> SignatureFault? {
        guard let key = Ed25519.PublicKey(hex: publicKey) else { return .malformedPublicKey }
        guard key.clientID == clientID else { return .keyMismatch }
        return signatureFault(signature, by: key)
    }

    /// Checks that `key` made `signature` (hex) over these bytes; nil when it did.
    public func signatureFault(_ signature: String, by key: Ed25519.PublicKey) -> SignatureFault? {
        signatureFault(signature, by: key, digest: signingDigest)
    }

    /// The same with a digest the caller already computed (a transaction checks its hash first).
    public func signatureFault(_ signature: String, by key: Ed25519.PublicKey, digest: [UInt8]) -> SignatureFault? {
        guard let sig = Hex.decode(signature), sig.count == 64 else { return .malformedSignature }
        return key.isValidSignature(sig, for: digest) ? nil : .invalidSignature
    }
}
