import MosaicProtocol

/// Seals and opens the fixed-size segments of a file's byte stream; the AEAD lives in MosaicCrypto
/// and is plugged in here, so the layout code never touches keys.
///
/// Contract: plaintext segments are at most `MerkleRules.blockSize - overhead` bytes, and
/// `seal` returns exactly `plaintext.count + overhead` bytes, so every full sealed segment is one
/// 64 KiB block. `segmentIndex` (0, 1, 2, …) must be bound into the nonce or associated data, so
/// that blobbers cannot reorder segments. `open` throws when authentication fails.
package protocol SegmentCipher: Sendable {
    var overhead: Int { get }
    func seal(_ plaintext: [UInt8], segmentIndex: UInt64) throws -> [UInt8]
    func open(_ sealed: [UInt8], segmentIndex: UInt64) throws -> [UInt8]
    /// Seals `plaintext` straight into `output` (exactly `plaintext.count + overhead` bytes), so the
    /// encoder can write sealed segments where they belong in its fragment buffer without an
    /// allocation and two copies per 64 KiB segment. The default goes through the array form.
    func seal(_ plaintext: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, segmentIndex: UInt64) throws
    /// Opens a sealed segment where it lies (in a fetched block or a rebuilt chunk), so the
    /// decoder does not copy it into an array of its own first. The default goes through the array form.
    func open(_ sealed: UnsafeRawBufferPointer, segmentIndex: UInt64) throws -> [UInt8]
}

extension SegmentCipher {
    public func seal(_ plaintext: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, segmentIndex: UInt64) throws {
        let sealed = try seal(Array(plaintext), segmentIndex: segmentIndex)
        guard sealed.count == plaintext.count + overhead, output.count == sealed.count else {
            throw StorageError.cipherSizeMismatch(segment: Int64(segmentIndex), expected: output.count, got: sealed.count)
        }
        sealed.withUnsafeBytes { output.copyMemory(from: $0) }
    }

    public func open(_ sealed: UnsafeRawBufferPointer, segmentIndex: UInt64) throws -> [UInt8] {
        try open(Array(sealed), segmentIndex: segmentIndex)
    }
}
