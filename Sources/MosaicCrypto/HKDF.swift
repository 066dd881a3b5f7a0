import CCrypto

/// HKDF-SHA256 (RFC 5869) through OpenSSL's EVP_KDF, for deriving independent sub-keys
/// (per-file, per-purpose) from one secret with a distinct `info` label each.
public enum HKDF {
    /// Derives `count` bytes (at most 255 × 32) from `key`, an optional `salt`, and `info`.
    public static func deriveKey(from key: SecretBytes, salt: [UInt8] = [], info: [UInt8], count: Int = 32) throws(CryptoError)
        -> SecretBytes
    {
        guard key.count > 0 else { throw .invalidInput("HKDF needs a non-empty input key") }
        guard count > 0, count <= 255 * 32 else { throw .invalidInput("HKDF-SHA256 output must be 1…8160 bytes, got \(count)") }
        var out = [UInt8](repeating: 0, count: count)
        defer { SecretBytes.wipe(&out) }
        let s = salt.isEmpty ? [0] : salt
        let i = info.isEmpty ? [0] : info
        let ok = key.withUnsafeBytes { k in
            ccrypto_hkdf_sha256(
                k.baseAddress!.assumingMemoryBound(to: UInt8.self), key.count,
                s, salt.count, i, info.count, &out, count)
        }
        guard ok == 1 else { throw .libraryUnavailable("OpenSSL HKDF") }
        return SecretBytes(out)
    }
}
