import MosaicErrors

/// Why a storage object (marker, ticket, proof) failed its stateless checks. The message names the
/// field, so a blobber or client can log it as is.
public enum StorageProtocolError: CodedError, Sendable, Equatable, CustomStringConvertible {
    /// A field has the wrong shape (not hex, wrong length, empty).
    case malformed(String)
    /// `client_id` is not the SHA-256 of the public key that must have signed.
    case keyMismatch(String)
    case invalidSignature(String)
    /// A challenge proof does not lead to the committed root.
    case invalidProof(String)

    /// Stable code: callers decide on it, never on the message.
    public var code: String {
        switch self {
        case .malformed: return "malformed"
        case .keyMismatch: return "key_mismatch"
        case .invalidSignature: return "invalid_signature"
        case .invalidProof: return "invalid_proof"
        }
    }

    public var description: String {
        switch self {
        case .malformed(let why): return why
        case .keyMismatch(let what): return "\(what): client_id does not match the signing public key"
        case .invalidSignature(let what): return "\(what): signature does not verify"
        case .invalidProof(let why): return "invalid challenge proof: \(why)"
        }
    }
}
