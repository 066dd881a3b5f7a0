import CSodium

/// X25519 keys for key wrapping. A wallet's X25519 pair is derived from its Ed25519 key
/// (libsodium's birational map), so content keys can be addressed to a known account public key.
public enum X25519 {
    public static let keyCount = 32

    public struct PublicKey: Sendable, Hashable, CustomStringConvertible {
        public let bytes: [UInt8]

        public init?(bytes: [UInt8]) {
            guard bytes.count == X25519.keyCount else { return nil }
            self.bytes = bytes
        }

        /// The X25519 form of an Ed25519 account key; fails for keys not on the curve.
        public init(ed25519 key: Ed25519.PublicKey) throws(CryptoError) {
            guard Ed25519.ready else { throw .libraryUnavailable("libsodium") }
            var out = [UInt8](repeating: 0, count: X25519.keyCount)
            guard crypto_sign_ed25519_pk_to_curve25519(&out, key.bytes) == 0 else {
                throw .invalidInput("public key \(key.hex) is not a valid Ed25519 point")
            }
            bytes = out
        }

        public var hex: String { Hex.encode(bytes) }
        public var description: String { hex }
    }

    /// A secret/public X25519 pair; the secret half is never printed.
    public struct KeyPair: Sendable, CustomStringConvertible {
        public let publicKey: PublicKey
        public let secretKey: SecretBytes

        /// The pair matching `signingKey`'s Ed25519 public key.
        public init(ed25519 signingKey: Ed25519.SigningKey) throws(CryptoError) {
            guard Ed25519.ready else { throw .libraryUnavailable("libsodium") }
            var sk = [UInt8](repeating: 0, count: X25519.keyCount)
            defer { SecretBytes.wipe(&sk) }
            let rc = signingKey.withSecretKey { esk in
                crypto_sign_ed25519_sk_to_curve25519(&sk, esk.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
            guard rc == 0 else { throw .invalidInput("the Ed25519 key could not be converted to X25519") }
            secretKey = SecretBytes(sk)
            publicKey = try PublicKey(ed25519: signingKey.publicKey)
        }

        /// A fresh random pair (for ephemeral use).
        public static func generate() -> KeyPair {
            _ = Ed25519.ready
            var pk = [UInt8](repeating: 0, count: X25519.keyCount)
            var sk = [UInt8](repeating: 0, count: X25519.keyCount)
            defer { SecretBytes.wipe(&sk) }
            crypto_box_keypair(&pk, &sk)
            return KeyPair(publicKey: PublicKey(uncheckedBytes: pk), secretKey: SecretBytes(sk))
        }

        private init(publicKey: PublicKey, secretKey: SecretBytes) {
            self.publicKey = publicKey
            self.secretKey = secretKey
        }

        public var description: String { "X25519.KeyPair(public: \(publicKey.hex), secret: <redacted>)" }
    }
}

extension X25519.PublicKey {
    fileprivate init(uncheckedBytes: [UInt8]) { bytes = uncheckedBytes }
}
