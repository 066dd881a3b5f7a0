import CCrypto

/// SHA-256 through OpenSSL's SHA-256 functions, which use the CPU's SHA instructions (about 5×
/// libsodium here). Not through EVP: an EVP digest init looks the algorithm up in the provider
/// store under a shared lock, 4× the cost of hashing 200 bytes; tries, listings and transactions
/// hash millions of such small inputs (docs/PERFORMANCE.md, folders).
public enum SHA256 {
    public static let byteCount = 32

    public static func hash(_ bytes: [UInt8]) -> [UInt8] {
        var hasher = Hasher()
        hasher.update(bytes)
        return hasher.finalize()
    }

    public static func hash(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var hasher = Hasher()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// Incremental hashing for streams; its state is a plain value (no allocation).
    public struct Hasher: ~Copyable {
        private var ctx = SHA256_CTX()

        public init() {
            // Only fails for a null context.
            SHA256_Init(&ctx)
        }

        public mutating func update(_ bytes: [UInt8]) {
            bytes.withUnsafeBytes { update($0) }
        }

        public mutating func update(_ bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress, bytes.count > 0 else { return }
            SHA256_Update(&ctx, base, bytes.count)
        }

        public consuming func finalize() -> [UInt8] {
            [UInt8](unsafeUninitializedCapacity: SHA256.byteCount) { out, count in
                SHA256_Final(out.baseAddress, &ctx)
                count = SHA256.byteCount
            }
        }
    }
}
