/// SLIP-0010 hierarchical derivation for ed25519: the BIP-32 scheme with the HMAC key
/// "ed25519 seed" and hardened children only (ed25519 has no public-key derivation).
public enum SLIP10 {
    /// Marks an index as hardened (i').
    public static let hardenedOffset: UInt32 = 0x8000_0000

    /// The Mosaic account path m/44'/1337'/0'/0'/0' (purpose 44, coin 1337, account 0, change 0, index 0).
    public static let mosaicAccountPath: [UInt32] = [44, 1337, 0, 0, 0].map { $0 | hardenedOffset }

    /// A node of the tree: 32-byte private key (the Ed25519 seed) and 32-byte chain code.
    public struct ExtendedKey: Sendable, CustomStringConvertible {
        public let privateKey: SecretBytes
        public let chainCode: SecretBytes

        init(_ i: SecretBytes) {
            privateKey = i.withUnsafeBytes { SecretBytes(Array($0[0..<32])) }
            chainCode = i.withUnsafeBytes { SecretBytes(Array($0[32..<64])) }
        }

        /// The hardened child `index` (the hardened bit is added if missing).
        public func child(_ index: UInt32) -> ExtendedKey {
            let i = index | SLIP10.hardenedOffset
            var data = [UInt8](repeating: 0, count: 1)
            data += privateKey.copyBytes()
            data += [UInt8(i >> 24), UInt8(i >> 16 & 0xff), UInt8(i >> 8 & 0xff), UInt8(i & 0xff)]
            defer { SecretBytes.wipe(&data) }
            var key = chainCode.copyBytes()
            defer { SecretBytes.wipe(&key) }
            return ExtendedKey(HMACSHA512.authenticationCode(key: key, message: data))
        }

        public var signingKey: Ed25519.SigningKey {
            // The private key is always 32 bytes, the only thing SigningKey(seed:) checks.
            do { return try Ed25519.SigningKey(seed: privateKey) } catch { fatalError("\(error)") }
        }

        public var description: String { "SLIP10.ExtendedKey(<redacted>)" }
    }

    /// The master node from a BIP-39 seed (or any 16–64 byte seed).
    public static func master(seed: SecretBytes) -> ExtendedKey {
        var s = seed.copyBytes()
        defer { SecretBytes.wipe(&s) }
        return ExtendedKey(HMACSHA512.authenticationCode(key: Array("ed25519 seed".utf8), message: s))
    }

    /// The node at `path` (every index is hardened).
    public static func derive(seed: SecretBytes, path: [UInt32]) -> ExtendedKey {
        path.reduce(master(seed: seed)) { $0.child($1) }
    }

    /// The Ed25519 key at `path`.
    public static func signingKey(seed: SecretBytes, path: [UInt32] = mosaicAccountPath) -> Ed25519.SigningKey {
        derive(seed: seed, path: path).signingKey
    }

    /// Parses "m/44'/1337'/0'" (also "H" or "h" for hardened). Non-hardened steps are rejected
    /// because SLIP-0010 ed25519 defines hardened derivation only.
    public static func parsePath(_ text: String) throws(CryptoError) -> [UInt32] {
        var parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.first == "m" else { throw .invalidInput("a derivation path starts with \"m\", like m/44'/1337'/0'/0'/0'") }
        parts.removeFirst()
        var out: [UInt32] = []
        for part in parts {
            guard let last = part.last, "'hH".contains(last) else {
                throw .invalidInput("path step \"\(part)\" must be hardened (end with '): ed25519 has hardened derivation only")
            }
            guard let n = UInt32(part.dropLast()), n < hardenedOffset else {
                throw .invalidInput("path step \"\(part)\" is not a number below 2^31")
            }
            out.append(n | hardenedOffset)
        }
        return out
    }
}
