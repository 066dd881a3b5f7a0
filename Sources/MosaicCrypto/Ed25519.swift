import CSodium

/// Ed25519 signatures through libsodium.
public enum Ed25519 {
    public static let publicKeyCount = 32
    public static let seedCount = 32
    public static let signatureCount = 64

    static let ready: Bool = sodium_init() >= 0

    /// A public verification key; `clientID` names the account on the ledger.
    public struct PublicKey: Sendable, Hashable, Codable, CustomStringConvertible {
        public let bytes: [UInt8]

        /// Fails when the byte count is not 32.
        public init?(bytes: [UInt8]) {
            guard bytes.count == Ed25519.publicKeyCount else { return nil }
            self.bytes = bytes
        }

        public init?(hex: String) {
            guard let b = Hex.decode(hex) else { return nil }
            self.init(bytes: b)
        }

        public var hex: String { Hex.encode(bytes) }

        /// The account id: hex SHA-256 of the public key bytes.
        public var clientID: String { Hex.encode(SHA256.hash(bytes)) }

        public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
            guard signature.count == Ed25519.signatureCount, Ed25519.ready else { return false }
            return crypto_sign_verify_detached(signature, message, UInt64(message.count), bytes) == 0
        }

        public var description: String { hex }

        public init(from decoder: any Decoder) throws {
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let key = PublicKey(hex: text) else {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: decoder.codingPath,
                        debugDescription: "public key must be 64 hex characters (32 bytes)"))
            }
            self = key
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.singleValueContainer()
            try c.encode(hex)
        }
    }

    /// A signing key; its secret half is held in `SecretBytes` and never printed.
    public struct SigningKey: Sendable, CustomStringConvertible {
        private let secret: SecretBytes  // libsodium's 64-byte form: seed ‖ public key
        public let publicKey: PublicKey

        /// Derives the key pair from a 32-byte seed (RFC 8032 private key).
        public init(seed: SecretBytes) throws(CryptoError) {
            guard seed.count == Ed25519.seedCount else { throw .invalidKeyLength(expected: 32, got: seed.count) }
            guard Ed25519.ready else { throw .libraryUnavailable("libsodium") }
            var pk = [UInt8](repeating: 0, count: 32)
            var sk = [UInt8](repeating: 0, count: 64)
            _ = seed.withUnsafeBytes { s in
                crypto_sign_seed_keypair(&pk, &sk, s.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
            secret = SecretBytes(sk)
            sodium_memzero(&sk, sk.count)
            publicKey = PublicKey(bytes: pk)!
        }

        /// A new key pair from system randomness.
        public static func generate() -> SigningKey {
            // A 32-byte seed always has the right length, so this cannot throw.
            do { return try SigningKey(seed: SecretBytes(Random.bytes(32))) } catch { fatalError("\(error)") }
        }

        /// The 32-byte seed, for storing in an encrypted keystore.
        public var seed: SecretBytes {
            secret.withUnsafeBytes { SecretBytes(Array($0.prefix(32))) }
        }

        public func signature(for message: [UInt8]) -> [UInt8] {
            var sig = [UInt8](repeating: 0, count: Ed25519.signatureCount)
            secret.withUnsafeBytes { sk in
                _ = crypto_sign_detached(
                    &sig, nil, message, UInt64(message.count),
                    sk.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
            return sig
        }

        /// Read access to libsodium's 64-byte secret key, for conversions inside this module.
        func withSecretKey<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
            try secret.withUnsafeBytes(body)
        }

        public var description: String { "SigningKey(public: \(publicKey.hex), secret: <redacted>)" }
    }
}

/// Randomness from the operating system (libsodium's randombytes, getrandom(2) on Linux).
public enum Random {
    public static func bytes(_ count: Int) -> [UInt8] {
        _ = Ed25519.ready
        var out = [UInt8](repeating: 0, count: count)
        if count > 0 { randombytes_buf(&out, count) }
        return out
    }
}
