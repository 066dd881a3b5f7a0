/// Seals and opens the fixed-size segments of a file's byte stream; the AEAD lives in MosaicCrypto
/// and is plugged in here, so the layout code never touches keys.
///
/// Contract: plaintext segments are at most `FileLayout.blockSize - overhead` bytes, and
/// `seal` returns exactly `plaintext.count + overhead` bytes, so every full sealed segment is one
/// 64 KiB block. `segmentIndex` (0, 1, 2, …) must be bound into the nonce or associated data, so
/// that blobbers cannot reorder segments. `open` throws when authentication fails.
public protocol SegmentCipher: Sendable {
    var overhead: Int { get }
    func seal(_ plaintext: [UInt8], segmentIndex: UInt64) throws -> [UInt8]
    func open(_ sealed: [UInt8], segmentIndex: UInt64) throws -> [UInt8]
}
