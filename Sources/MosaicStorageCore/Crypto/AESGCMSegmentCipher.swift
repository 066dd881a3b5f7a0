import Foundation
import MosaicCrypto
import MosaicProtocol

/// The real `SegmentCipher`: AES-256-GCM (OpenSSL through MosaicCrypto) with one random content
/// key per file.
///
/// - Nonce of segment s: the file's random 8-byte prefix ‖ s as u32 BE, so no nonce repeats under
///   one key (2^32 segments ≈ 281 TB per file).
/// - Associated data: `"mosaic-segment-v1" ‖ u64 BE s ‖ u8 final ‖ u64 BE file size`, where final
///   is 1 only for the file's last segment. A blobber that reorders segments fails the index, one
///   that drops the tail cannot pass a non-final segment off as the last, and a wrong total length
///   fails every segment.
///
/// Sealing runs on several threads at once; EVP contexts are not thread-safe, so each call borrows
/// one from a small pool instead of building a new key schedule per 64 KiB.
package final class AESGCMSegmentCipher: SegmentCipher, @unchecked Sendable {
    // @unchecked: the only mutable state is the context pools (`sealers`, `openers`), guarded by `lock`; a borrowed context is used
    // by exactly one thread until it is returned.
    public static let keyCount = AES256GCM.keyCount
    public static let noncePrefixCount = 8
    static let aadDomain = Array("mosaic-segment-v1".utf8)

    public let fileSize: Int64
    public let noncePrefix: [UInt8]
    private let key: SecretBytes
    private let lock = NSLock()
    private var sealers: [AES256GCM.Sealer] = []
    private var openers: [AES256GCM.Opener] = []

    public var overhead: Int { AES256GCM.tagCount }

    /// - Parameters:
    ///   - key: the file's 32-byte content key.
    ///   - noncePrefix: the file's random 8 bytes (stored in the signed file metadata).
    ///   - fileSize: plaintext bytes of the whole file, bound into every segment.
    public init(key: SecretBytes, noncePrefix: [UInt8], fileSize: Int64) throws {
        guard key.count == Self.keyCount else { throw CryptoError.invalidKeyLength(expected: Self.keyCount, got: key.count) }
        guard noncePrefix.count == Self.noncePrefixCount else {
            throw CryptoError.invalidInput("a segment nonce prefix must be 8 bytes, got \(noncePrefix.count)")
        }
        guard fileSize >= 0 else { throw StorageError.invalidFileSize(fileSize) }
        let segments =
            (fileSize + Int64(MerkleRules.blockSize - AES256GCM.tagCount) - 1) / Int64(MerkleRules.blockSize - AES256GCM.tagCount)
        guard segments <= Int64(UInt32.max) + 1 else {
            throw CryptoError.invalidInput("a file of \(fileSize) bytes has more than 2^32 segments; split it")
        }
        self.key = key
        self.noncePrefix = noncePrefix
        self.fileSize = fileSize
    }

    /// A new random key and nonce prefix for one file.
    public static func random(fileSize: Int64) throws -> AESGCMSegmentCipher {
        try AESGCMSegmentCipher(key: SecretBytes(Random.bytes(keyCount)), noncePrefix: Random.bytes(noncePrefixCount), fileSize: fileSize)
    }

    /// The content key, e.g. to wrap it for the owner.
    public var contentKey: SecretBytes { key }

    var segmentCount: Int64 {
        let p = Int64(MerkleRules.blockSize - overhead)
        return (fileSize + p - 1) / p
    }

    func nonce(_ index: UInt64) throws -> [UInt8] {
        guard index < UInt64(max(0, segmentCount)) else {
            throw CryptoError.invalidInput("segment \(index) is beyond the file's \(segmentCount) segments")
        }
        return try AES256GCM.segmentNonce(prefix: noncePrefix, index: UInt32(index))
    }

    func aad(_ index: UInt64) -> [UInt8] {
        var out = Self.aadDomain
        appendBE(index, to: &out)
        out.append(index + 1 == UInt64(segmentCount) ? 1 : 0)
        appendBE(UInt64(fileSize), to: &out)
        return out
    }

    public func seal(_ plaintext: [UInt8], segmentIndex: UInt64) throws -> [UInt8] {
        let nonce = try nonce(segmentIndex)
        let sealer = try borrowSealer()
        defer { give(sealer) }
        let (c, t) = try sealer.seal(plaintext, nonce: nonce, aad: aad(segmentIndex))
        return c + t
    }

    /// Ciphertext then tag, written in place: the upload path's form (no allocation per segment).
    public func seal(_ plaintext: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, segmentIndex: UInt64) throws {
        guard output.count == plaintext.count + overhead else {
            throw StorageError.cipherSizeMismatch(segment: Int64(segmentIndex), expected: plaintext.count + overhead, got: output.count)
        }
        let nonce = try nonce(segmentIndex)
        let sealer = try borrowSealer()
        defer { give(sealer) }
        let aad = aad(segmentIndex)
        let tag = try aad.withUnsafeBytes { a in
            try sealer.seal(plaintext, into: UnsafeMutableRawBufferPointer(rebasing: output[..<plaintext.count]), nonce: nonce, aad: a)
        }
        tag.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: output[plaintext.count...]).copyMemory(from: $0) }
    }

    public func open(_ sealed: [UInt8], segmentIndex: UInt64) throws -> [UInt8] {
        try sealed.withUnsafeBytes { try open($0, segmentIndex: segmentIndex) }
    }

    /// Plaintext written straight into the returned array: no copy of the ciphertext and no zeroing
    /// first (together 5 % of a download's CPU). On a failed tag the opener zeroes what it wrote.
    public func open(_ sealed: UnsafeRawBufferPointer, segmentIndex: UInt64) throws -> [UInt8] {
        guard sealed.count >= overhead else { throw CryptoError.authenticationFailed }
        let nonce = try nonce(segmentIndex)
        let opener = try borrowOpener()
        defer { give(opener) }
        let split = sealed.count - overhead
        let tag = Array(sealed[split...])
        let aad = aad(segmentIndex)
        return try [UInt8](unsafeUninitializedCapacity: split) { out, initialized in
            try aad.withUnsafeBytes { a in
                try opener.open(
                    UnsafeRawBufferPointer(rebasing: sealed[..<split]), tag: tag, into: UnsafeMutableRawBufferPointer(out), nonce: nonce,
                    aad: a)
            }
            initialized = split
        }
    }

    private func borrowSealer() throws -> AES256GCM.Sealer {
        if let s = lock.withLock({ sealers.popLast() }) { return s }
        return try AES256GCM.Sealer(key: key)
    }

    private func borrowOpener() throws -> AES256GCM.Opener {
        if let o = lock.withLock({ openers.popLast() }) { return o }
        return try AES256GCM.Opener(key: key)
    }

    private func give(_ s: AES256GCM.Sealer) { lock.withLock { if sealers.count < 8 { sealers.append(s) } } }
    private func give(_ o: AES256GCM.Opener) { lock.withLock { if openers.count < 8 { openers.append(o) } } }
}
