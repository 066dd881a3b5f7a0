import MosaicCrypto
import MosaicStorageCore

/// A file's content key wrapped for the Locker (docs/LOCKER.md §2): 80 bytes in the owner-signed
/// metadata's `wrapped_key`,
///
///     u8 version (1) ‖ u8 Argon2id passes ‖ u8 log2(memory KiB) ‖ u8 0 ‖ salt (16) ‖ nonce (12) ‖
///     AES-256-GCM(KEK, nonce, content key (32), AAD = the 32 bytes before the ciphertext) (32 + 16 tag)
///
///     KEK = HKDF-SHA256(ikm = Argon2id(PIN, salt, passes, memory) (32) ‖ wallet secret (32),
///                       salt = salt, info = "mosaic-locker-kek-v1" ‖ the 4 header bytes)
///     wallet secret = HKDF-SHA256(ikm = the owner's Ed25519 seed, salt = "mosaic-locker",
///                                 info = "mosaic-locker-wallet-secret-v1")
///
/// Opening needs both the PIN and the wallet's seed; a wrong PIN (or wallet) fails the AEAD tag.
/// Nothing derived from the PIN alone is stored.
struct LockerKeyWrap: Sendable, Equatable {
    static let version: UInt8 = 1
    static let count = FileMeta.lockerWrappedKeyCount
    static let headerCount = 4
    /// 3 passes over 64 MiB: a fraction of a second per try (measured in docs/LOCKER.md §2).
    static let defaultParameters = Argon2id.Parameters(opsLimit: 3, memLimitBytes: 64 << 20)
    static let kekInfo = Array("mosaic-locker-kek-v1".utf8)

    let passes: UInt8
    let memoryLog2KiB: UInt8
    let salt: [UInt8]
    let nonce: [UInt8]
    let sealed: [UInt8]

    var header: [UInt8] { [Self.version, passes, memoryLog2KiB, 0] }
    var bytes: [UInt8] { header + salt + nonce + sealed }
    var hex: String { Hex.encode(bytes) }
    var parameters: Argon2id.Parameters {
        Argon2id.Parameters(opsLimit: UInt64(passes), memLimitBytes: UInt64(1) << (UInt64(memoryLog2KiB) + 10))
    }

    /// Parses and range-checks a stored wrap (the cost bounds stop a crafted record from asking
    /// for gigabytes of memory).
    init(bytes b: [UInt8]) throws(LockerError) {
        guard b.count == Self.count else { throw .damaged(name: "", reason: "it is \(b.count) bytes, not \(Self.count)") }
        guard b[0] == Self.version else { throw .damaged(name: "", reason: "unknown wrap version \(b[0]); update mosaic") }
        guard (1...16).contains(b[1]), (3...20).contains(b[2]), b[3] == 0 else {
            throw .damaged(name: "", reason: "its Argon2id cost is out of range")
        }
        passes = b[1]
        memoryLog2KiB = b[2]
        salt = Array(b[4..<20])
        nonce = Array(b[20..<32])
        sealed = Array(b[32..<80])
    }

    private init(passes: UInt8, memoryLog2KiB: UInt8, salt: [UInt8], nonce: [UInt8], sealed: [UInt8]) {
        self.passes = passes
        self.memoryLog2KiB = memoryLog2KiB
        self.salt = salt
        self.nonce = nonce
        self.sealed = sealed
    }

    /// Wraps `contentKey` under a fresh salt and nonce.
    static func seal(
        _ contentKey: SecretBytes, pin: LockerPIN, walletSecret: SecretBytes,
        parameters: Argon2id.Parameters = defaultParameters
    ) throws -> LockerKeyWrap {
        guard contentKey.count == AES256GCM.keyCount else { throw CryptoError.invalidInput("a content key is 32 bytes") }
        let kib = parameters.memLimitBytes >> 10
        guard kib.nonzeroBitCount == 1, parameters.opsLimit >= 1, parameters.opsLimit <= 16 else {
            throw CryptoError.invalidInput("locker Argon2id memory must be a power of two KiB and passes 1…16")
        }
        var w = LockerKeyWrap(
            passes: UInt8(parameters.opsLimit), memoryLog2KiB: UInt8(kib.trailingZeroBitCount),
            salt: Random.bytes(Argon2id.saltCount), nonce: Random.bytes(AES256GCM.nonceCount), sealed: [])
        let kek = try w.kek(pin: pin, walletSecret: walletSecret)
        let aad = w.header + w.salt + w.nonce
        w = LockerKeyWrap(
            passes: w.passes, memoryLog2KiB: w.memoryLog2KiB, salt: w.salt, nonce: w.nonce,
            sealed: try contentKey.withUnsafeBytes { k in
                var plain = Array(k)
                defer { for i in plain.indices { plain[i] = 0 } }
                return try AES256GCM.sealCombined(plain, key: kek, nonce: w.nonce, aad: aad)
            })
        return w
    }

    /// The content key, or nil when the PIN (or the wallet) is not the one it was wrapped with.
    func open(pin: LockerPIN, walletSecret: SecretBytes) throws -> SecretBytes? {
        let kek = try kek(pin: pin, walletSecret: walletSecret)
        var plain: [UInt8]
        do { plain = try AES256GCM.openCombined(sealed, key: kek, nonce: nonce, aad: header + salt + nonce) } catch .authenticationFailed {
            return nil
        }
        defer { for i in plain.indices { plain[i] = 0 } }
        return SecretBytes(plain)
    }

    private func kek(pin: LockerPIN, walletSecret: SecretBytes) throws -> SecretBytes {
        let stretched = try Argon2id.deriveKey(password: pin.secret, salt: salt, parameters: parameters)
        var ikm = stretched.copyBytes() + walletSecret.copyBytes()
        defer { for i in ikm.indices { ikm[i] = 0 } }
        return try HKDF.deriveKey(from: SecretBytes(ikm), salt: salt, info: Self.kekInfo + header)
    }

    /// The owner's Locker secret: derived from the wallet seed, so only the wallet's holder has it.
    static func walletSecret(_ key: Ed25519.SigningKey) throws -> SecretBytes {
        try HKDF.deriveKey(from: key.seed, salt: Array("mosaic-locker".utf8), info: Array("mosaic-locker-wallet-secret-v1".utf8))
    }
}
