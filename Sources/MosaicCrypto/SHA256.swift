import CCrypto

/// SHA-256 through OpenSSL's EVP, which uses the CPU's SHA instructions (about 5× libsodium here).
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

    /// Incremental hashing for streams.
    public struct Hasher: ~Copyable {
        private let ctx: OpaquePointer

        public init() {
            // EVP_MD_CTX_new only fails when memory is exhausted, where nothing else can go on either.
            guard let ctx = EVP_MD_CTX_new() else { fatalError("OpenSSL could not allocate a digest context") }
            self.ctx = ctx
            EVP_DigestInit_ex(ctx, EVP_sha256(), nil)
        }

        public mutating func update(_ bytes: [UInt8]) {
            bytes.withUnsafeBytes { update($0) }
        }

        public mutating func update(_ bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress, bytes.count > 0 else { return }
            EVP_DigestUpdate(ctx, base, bytes.count)
        }

        public consuming func finalize() -> [UInt8] {
            var out = [UInt8](repeating: 0, count: SHA256.byteCount)
            var len: UInt32 = 0
            EVP_DigestFinal_ex(ctx, &out, &len)
            return out
        }

        deinit { EVP_MD_CTX_free(ctx) }
    }
}
