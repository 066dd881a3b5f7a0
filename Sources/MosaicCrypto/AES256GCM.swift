import CCrypto

/// AES-256-GCM through OpenSSL's EVP (AES-NI/VAES: several GB/s here). Nonces are 12 bytes and
/// must never repeat under one key; tags are 16 bytes. Bulk file encryption uses `Sealer`/`Opener`,
/// which keep one EVP context and key schedule for all segments of a file.
public enum AES256GCM {
    public static let keyCount = 32
    public static let nonceCount = 12
    public static let tagCount = 16

    /// Encrypts `plaintext`; returns the ciphertext (same length) and the detached tag.
    public static func seal(_ plaintext: [UInt8], key: SecretBytes, nonce: [UInt8], aad: [UInt8] = []) throws(CryptoError) -> (
        ciphertext: [UInt8], tag: [UInt8]
    ) {
        try Sealer(key: key).seal(plaintext, nonce: nonce, aad: aad)
    }

    /// Decrypts and authenticates; throws `.authenticationFailed` when anything was altered.
    public static func open(_ ciphertext: [UInt8], tag: [UInt8], key: SecretBytes, nonce: [UInt8], aad: [UInt8] = []) throws(CryptoError)
        -> [UInt8]
    {
        try Opener(key: key).open(ciphertext, tag: tag, nonce: nonce, aad: aad)
    }

    /// Combined form: ciphertext ‖ tag.
    public static func sealCombined(_ plaintext: [UInt8], key: SecretBytes, nonce: [UInt8], aad: [UInt8] = []) throws(CryptoError)
        -> [UInt8]
    {
        let (c, t) = try seal(plaintext, key: key, nonce: nonce, aad: aad)
        return c + t
    }

    /// Opens the combined form ciphertext ‖ tag.
    public static func openCombined(_ combined: [UInt8], key: SecretBytes, nonce: [UInt8], aad: [UInt8] = []) throws(CryptoError) -> [UInt8]
    {
        guard combined.count >= tagCount else { throw .authenticationFailed }
        let split = combined.count - tagCount
        return try open(Array(combined[..<split]), tag: Array(combined[split...]), key: key, nonce: nonce, aad: aad)
    }

    /// The nonce of segment `index` of a file: an 8-byte per-file random prefix ‖ index as 4 bytes
    /// big-endian, so one key can seal 2^32 segments without a repeated nonce.
    public static func segmentNonce(prefix: [UInt8], index: UInt32) throws(CryptoError) -> [UInt8] {
        guard prefix.count == 8 else { throw .invalidInput("a segment nonce prefix must be 8 bytes, got \(prefix.count)") }
        return prefix + [UInt8(index >> 24), UInt8(index >> 16 & 0xff), UInt8(index >> 8 & 0xff), UInt8(index & 0xff)]
    }

    static func checkKeyAndNonce(_ key: SecretBytes, _ nonce: [UInt8]) throws(CryptoError) {
        guard key.count == keyCount else { throw .invalidKeyLength(expected: keyCount, got: key.count) }
        guard nonce.count == nonceCount else { throw .invalidInput("an AES-GCM nonce must be \(nonceCount) bytes, got \(nonce.count)") }
    }

    /// A new EVP context keyed for AES-256-GCM sealing (`encrypt`) or opening; the caller frees it.
    static func context(key: SecretBytes, encrypt: Bool) throws(CryptoError) -> OpaquePointer {
        guard key.count == keyCount else { throw .invalidKeyLength(expected: keyCount, got: key.count) }
        guard let ctx = EVP_CIPHER_CTX_new() else { throw .libraryUnavailable("OpenSSL libcrypto") }
        let ok = key.withUnsafeBytes { k -> Int32 in
            guard let base = k.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return 0 }
            return encrypt
                ? EVP_EncryptInit_ex(ctx, EVP_aes_256_gcm(), nil, base, nil) : EVP_DecryptInit_ex(ctx, EVP_aes_256_gcm(), nil, base, nil)
        }
        guard ok == 1 else {
            EVP_CIPHER_CTX_free(ctx)
            throw .libraryUnavailable("OpenSSL AES-256-GCM")
        }
        return ctx
    }

    /// Seals many messages under one key, reusing its EVP context and key schedule.
    /// Not thread-safe (it owns mutable C state): use one per task.
    public final class Sealer {
        private let ctx: OpaquePointer

        public init(key: SecretBytes) throws(CryptoError) { ctx = try AES256GCM.context(key: key, encrypt: true) }

        /// Encrypts `plaintext` into `output` (at least as large) and returns the 16-byte tag.
        /// The buffer form lets storage seal 64 KiB segments without allocating per segment.
        public func seal(
            _ plaintext: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer,
            nonce: [UInt8], aad: UnsafeRawBufferPointer
        ) throws(CryptoError) -> [UInt8] {
            try AES256GCM.update(ctx, plaintext, into: output, nonce: nonce, aad: aad, what: "plaintext")
            var len: Int32 = 0
            var scratch = [UInt8](repeating: 0, count: 16)
            guard EVP_EncryptFinal_ex(ctx, &scratch, &len) == 1 else { throw .libraryUnavailable("OpenSSL AES-256-GCM") }
            var tag = [UInt8](repeating: 0, count: AES256GCM.tagCount)
            guard EVP_CIPHER_CTX_ctrl(ctx, ccrypto_gcm_get_tag(), Int32(AES256GCM.tagCount), &tag) == 1 else {
                throw .libraryUnavailable("OpenSSL AES-256-GCM")
            }
            return tag
        }

        /// Array convenience: returns ciphertext and detached tag.
        public func seal(_ plaintext: [UInt8], nonce: [UInt8], aad: [UInt8] = []) throws(CryptoError) -> (ciphertext: [UInt8], tag: [UInt8])
        {
            var out = [UInt8](repeating: 0, count: plaintext.count)
            // withUnsafeBytes rethrows untyped errors, so carry the typed error out in a Result.
            let result = plaintext.withUnsafeBytes { p in
                aad.withUnsafeBytes { a in
                    out.withUnsafeMutableBytes { o in
                        Result { () throws(CryptoError) in try seal(p, into: o, nonce: nonce, aad: a) }
                    }
                }
            }
            let tag = try result.get()
            return (out, tag)
        }

        deinit { EVP_CIPHER_CTX_free(ctx) }
    }

    /// What sealing and opening share, on a context initialised for one direction: the argument
    /// checks (`tag` only when opening; a wrong tag length fails as authentication), the fresh
    /// nonce, the AAD and `input` into `output`. `EVP_Cipher*` with direction -1 keeps the
    /// context's own, so this is the encrypt or the decrypt path as the context was made.
    fileprivate static func update(
        _ ctx: OpaquePointer, _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer,
        nonce: [UInt8], aad: UnsafeRawBufferPointer, what name: String, tag: [UInt8]? = nil
    ) throws(CryptoError) {
        guard nonce.count == nonceCount else { throw .invalidInput("an AES-GCM nonce must be 12 bytes, got \(nonce.count)") }
        if let tag, tag.count != tagCount { throw .authenticationFailed }
        guard output.count >= input.count else { throw .invalidInput("output buffer is smaller than the \(name)") }
        guard input.count <= Int(Int32.max), aad.count <= Int(Int32.max) else {
            throw .invalidInput("a segment must be below 2 GiB")
        }
        var len: Int32 = 0
        guard EVP_CipherInit_ex(ctx, nil, nil, nil, nonce, -1) == 1 else { throw .libraryUnavailable("OpenSSL AES-256-GCM") }
        if aad.count > 0 {
            guard EVP_CipherUpdate(ctx, nil, &len, aad.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(aad.count)) == 1 else {
                throw .libraryUnavailable("OpenSSL AES-256-GCM")
            }
        }
        if input.count > 0 {
            guard
                EVP_CipherUpdate(
                    ctx, output.baseAddress!.assumingMemoryBound(to: UInt8.self), &len,
                    input.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(input.count)) == 1
            else {
                throw .libraryUnavailable("OpenSSL AES-256-GCM")
            }
        }
    }

    /// Opens many messages under one key, reusing its EVP context. Not thread-safe.
    public final class Opener {
        private let ctx: OpaquePointer

        public init(key: SecretBytes) throws(CryptoError) { ctx = try AES256GCM.context(key: key, encrypt: false) }

        /// Decrypts `ciphertext` into `output` and checks the tag; on `.authenticationFailed`
        /// the output holds unauthenticated bytes and is zeroed before throwing.
        public func open(
            _ ciphertext: UnsafeRawBufferPointer, tag: [UInt8], into output: UnsafeMutableRawBufferPointer,
            nonce: [UInt8], aad: UnsafeRawBufferPointer
        ) throws(CryptoError) {
            try AES256GCM.update(ctx, ciphertext, into: output, nonce: nonce, aad: aad, what: "ciphertext", tag: tag)
            var len: Int32 = 0
            var t = tag
            guard EVP_CIPHER_CTX_ctrl(ctx, ccrypto_gcm_set_tag(), Int32(AES256GCM.tagCount), &t) == 1 else {
                throw .libraryUnavailable("OpenSSL AES-256-GCM")
            }
            var scratch = [UInt8](repeating: 0, count: 16)
            guard EVP_DecryptFinal_ex(ctx, &scratch, &len) == 1 else {
                if ciphertext.count > 0 { output.baseAddress!.initializeMemory(as: UInt8.self, repeating: 0, count: ciphertext.count) }
                throw .authenticationFailed
            }
        }

        /// Array convenience with a detached tag.
        public func open(_ ciphertext: [UInt8], tag: [UInt8], nonce: [UInt8], aad: [UInt8] = []) throws(CryptoError) -> [UInt8] {
            var out = [UInt8](repeating: 0, count: ciphertext.count)
            let result = ciphertext.withUnsafeBytes { c in
                aad.withUnsafeBytes { a in
                    out.withUnsafeMutableBytes { o in
                        Result { () throws(CryptoError) in try open(c, tag: tag, into: o, nonce: nonce, aad: a) }
                    }
                }
            }
            try result.get()
            return out
        }

        deinit { EVP_CIPHER_CTX_free(ctx) }
    }
}
