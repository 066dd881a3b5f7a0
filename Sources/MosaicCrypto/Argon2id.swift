import CSodium

/// Argon2id password hashing (libsodium crypto_pwhash) for turning a passphrase or PIN into a key.
/// The cost parameters are explicit so they can be recorded next to the salt and reproduced.
public enum Argon2id {
    public static let saltCount = 16

    /// Cost of one derivation: passes over memory and memory size in bytes.
    public struct Parameters: Sendable, Hashable, Codable {
        public var opsLimit: UInt64
        public var memLimitBytes: UInt64

        public init(opsLimit: UInt64, memLimitBytes: UInt64) {
            self.opsLimit = opsLimit
            self.memLimitBytes = memLimitBytes
        }

        /// libsodium INTERACTIVE: 2 passes, 64 MiB (about 65 ms here). For frequent unlocks.
        public static let interactive = Parameters(opsLimit: 2, memLimitBytes: 64 << 20)
        /// libsodium MODERATE: 3 passes, 256 MiB (about 0.45 s here). For keystores.
        public static let moderate = Parameters(opsLimit: 3, memLimitBytes: 256 << 20)
        /// Smallest libsodium accepts (1 pass, 8 KiB); only for tests.
        public static let testing = Parameters(opsLimit: 1, memLimitBytes: 8 << 10)

        enum CodingKeys: String, CodingKey {
            case opsLimit = "ops_limit"
            case memLimitBytes = "mem_limit"
        }
    }

    /// Derives `count` key bytes from `password` and a 16-byte `salt`.
    public static func deriveKey(password: SecretBytes, salt: [UInt8], parameters: Parameters, count: Int = 32) throws(CryptoError)
        -> SecretBytes
    {
        guard Ed25519.ready else { throw .libraryUnavailable("libsodium") }
        guard salt.count == saltCount else { throw .invalidInput("an Argon2id salt must be \(saltCount) bytes, got \(salt.count)") }
        guard count >= 16 else { throw .invalidInput("an Argon2id output must be at least 16 bytes") }
        guard parameters.opsLimit >= 1, parameters.opsLimit <= 64,
            parameters.memLimitBytes >= 8192, parameters.memLimitBytes <= 4 << 30
        else {
            throw .invalidInput(
                "Argon2id parameters out of range (ops 1…64, memory 8 KiB…4 GiB): ops \(parameters.opsLimit), memory \(parameters.memLimitBytes)"
            )
        }
        var out = [UInt8](repeating: 0, count: count)
        defer { SecretBytes.wipe(&out) }
        let rc = password.withUnsafeBytes { p -> Int32 in
            let ptr = p.baseAddress!.assumingMemoryBound(to: CChar.self)
            return crypto_pwhash(
                &out, UInt64(count), ptr, UInt64(password.count), salt,
                parameters.opsLimit, Int(parameters.memLimitBytes), crypto_pwhash_alg_argon2id13())
        }
        // libsodium fails only when it cannot allocate the requested memory.
        guard rc == 0 else {
            throw .invalidInput("Argon2id could not allocate \(parameters.memLimitBytes >> 20) MiB; free memory or lower the cost")
        }
        return SecretBytes(out)
    }

    /// Convenience for a passphrase held in a String (NFC-normalised is the caller's choice).
    public static func deriveKey(password: String, salt: [UInt8], parameters: Parameters, count: Int = 32) throws(CryptoError)
        -> SecretBytes
    {
        try deriveKey(password: SecretBytes(Array(password.utf8)), salt: salt, parameters: parameters, count: count)
    }
}
