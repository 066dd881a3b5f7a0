import CSodium

/// Anonymous public-key encryption (libsodium sealed boxes: ephemeral X25519 + XSalsa20-Poly1305)
/// for wrapping content keys to a recipient; only the recipient's secret key opens them.
public enum SealedBox {
    /// Bytes a sealed box adds to the message (ephemeral public key + MAC).
    public static let overhead = 48

    public static func seal(_ message: SecretBytes, to recipient: X25519.PublicKey) throws(CryptoError) -> [UInt8] {
        guard Ed25519.ready else { throw .libraryUnavailable("libsodium") }
        var out = [UInt8](repeating: 0, count: message.count + overhead)
        let rc = message.withUnsafeBytes { m -> Int32 in
            let dummy: [UInt8] = [0]
            return dummy.withUnsafeBufferPointer { d in
                let p = message.count > 0 ? m.baseAddress!.assumingMemoryBound(to: UInt8.self) : d.baseAddress!
                return crypto_box_seal(&out, p, UInt64(message.count), recipient.bytes)
            }
        }
        guard rc == 0 else { throw .invalidInput("the recipient key \(recipient.hex) is not usable for sealing") }
        return out
    }

    /// Seals to an account's Ed25519 public key (converted to X25519).
    public static func seal(_ message: SecretBytes, to account: Ed25519.PublicKey) throws(CryptoError) -> [UInt8] {
        try seal(message, to: X25519.PublicKey(ed25519: account))
    }

    /// Opens a box addressed to `keyPair`; `.authenticationFailed` if it was for another key or altered.
    public static func open(_ box: [UInt8], with keyPair: X25519.KeyPair) throws(CryptoError) -> SecretBytes {
        guard Ed25519.ready else { throw .libraryUnavailable("libsodium") }
        guard box.count >= overhead else { throw .authenticationFailed }
        var out = [UInt8](repeating: 0, count: max(box.count - overhead, 1))
        defer { SecretBytes.wipe(&out) }
        let rc = keyPair.secretKey.withUnsafeBytes { sk in
            crypto_box_seal_open(
                &out, box, UInt64(box.count), keyPair.publicKey.bytes,
                sk.baseAddress!.assumingMemoryBound(to: UInt8.self))
        }
        guard rc == 0 else { throw .authenticationFailed }
        return SecretBytes(Array(out.prefix(box.count - overhead)))
    }

    /// Opens a box addressed to the wallet's Ed25519 account key.
    public static func open(_ box: [UInt8], with signingKey: Ed25519.SigningKey) throws(CryptoError) -> SecretBytes {
        try open(box, with: X25519.KeyPair(ed25519: signingKey))
    }
}
