import CCrypto

/// HMAC-SHA512 through OpenSSL, the PRF of BIP-32/SLIP-0010 key derivation.
public enum HMACSHA512 {
    public static let byteCount = 64

    public static func authenticationCode(key: [UInt8], message: [UInt8]) -> SecretBytes {
        var out = [UInt8](repeating: 0, count: byteCount)
        defer { SecretBytes.wipe(&out) }
        var len: UInt32 = 0
        // A dummy byte keeps the pointers non-nil for empty inputs; lengths stay 0.
        let k = key.isEmpty ? [0] : key
        let m = message.isEmpty ? [0] : message
        let result = HMAC(EVP_sha512(), k, Int32(key.count), m, message.count, &out, &len)
        // HMAC only fails when memory is exhausted.
        precondition(result != nil && len == 64, "OpenSSL HMAC-SHA512 failed")
        return SecretBytes(out)
    }
}
