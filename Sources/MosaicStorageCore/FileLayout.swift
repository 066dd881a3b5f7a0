import MosaicProtocol

/// Where every byte of a file goes: segments → chunks → fragments → blocks. Pure arithmetic, shared
/// by the uploader, the downloader, repair and the blobber, and fixed by `docs/STORAGE.md`.
///
/// - The plaintext is cut into segments of `plainSegmentSize` = 65536 − overhead bytes; each seals
///   to one 64 KiB block (the last segment seals to its length + overhead).
/// - The sealed stream is cut into chunks of d × 64 KiB (d whole sealed segments).
/// - Chunk c is erasure-coded into d + p fragments of `fragmentSize(ofChunk: c)` bytes: 65536 for
///   every chunk but the last; the last chunk of L sealed bytes uses ⌈L / d⌉ rounded up to a
///   multiple of 64, zero-padded. So small files cost little on each blobber.
/// - Fragment stream i = fragment i of chunk 0 ‖ fragment i of chunk 1 ‖ …; its block c (the
///   Merkle leaf c) is exactly fragment i of chunk c.
package struct FileLayout: Sendable, Equatable, Codable {
    public static let fragmentAlignment = 64
    /// Largest file: 2^48 bytes (256 TiB). The segment cipher allows 2^32 segments of under 64 KiB,
    /// and the bound keeps every product and sum of the layout far inside Int64 whatever size a
    /// (signed, but outside) metadata record claims.
    public static let maxFileSize: Int64 = 1 << 48

    public let fileSize: Int64
    public let dataShards: Int
    public let parityShards: Int
    public let cipherOverhead: Int

    public init(fileSize: Int64, dataShards: Int, parityShards: Int, cipherOverhead: Int) throws {
        guard ErasureCoder.isValid(dataShards: dataShards, parityShards: parityShards) else {
            throw StorageError.invalidShardCounts(data: dataShards, parity: parityShards)
        }
        guard cipherOverhead >= 0, cipherOverhead <= 1024 else { throw StorageError.invalidCipherOverhead(cipherOverhead) }
        guard fileSize >= 0, fileSize <= Self.maxFileSize else { throw StorageError.invalidFileSize(fileSize) }
        self.fileSize = fileSize
        self.dataShards = dataShards
        self.parityShards = parityShards
        self.cipherOverhead = cipherOverhead
    }

    public var totalShards: Int { dataShards + parityShards }
    public var plainSegmentSize: Int { MerkleRules.blockSize - cipherOverhead }
    var chunkCipherCapacity: Int64 { Int64(dataShards * MerkleRules.blockSize) }

    public var segmentCount: Int64 {
        fileSize == 0 ? 0 : (fileSize + Int64(plainSegmentSize) - 1) / Int64(plainSegmentSize)
    }

    /// Bytes of the sealed stream: plaintext plus one overhead per segment.
    public var sealedSize: Int64 { fileSize + segmentCount * Int64(cipherOverhead) }

    public var chunkCount: Int64 { (segmentCount + Int64(dataShards) - 1) / Int64(dataShards) }

    /// Blocks (Merkle leaves) in every fragment stream: one per chunk.
    public var blocksPerFragment: Int { Int(chunkCount) }

    /// Bytes of every fragment stream (all d + p are the same length).
    public var fragmentLength: Int64 {
        chunkCount == 0 ? 0 : (chunkCount - 1) * Int64(MerkleRules.blockSize) + Int64(fragmentSize(ofChunk: chunkCount - 1))
    }

    /// Sealed bytes in chunk c (d × 64 KiB except possibly the last chunk).
    public func sealedLength(ofChunk c: Int64) -> Int {
        Int(max(0, min(chunkCipherCapacity, sealedSize - c * chunkCipherCapacity)))
    }

    public func fragmentSize(ofChunk c: Int64) -> Int {
        Self.fragmentSize(sealedChunkLength: sealedLength(ofChunk: c), dataShards: dataShards)
    }

    static func fragmentSize(sealedChunkLength len: Int, dataShards d: Int) -> Int {
        if len >= d * MerkleRules.blockSize { return MerkleRules.blockSize }
        let perShard = (len + d - 1) / d
        let a = fragmentAlignment
        return max(a, (perShard + a - 1) / a * a)
    }

    /// Plaintext bytes in segment s.
    public func plainLength(ofSegment s: Int64) -> Int {
        Int(max(0, min(Int64(plainSegmentSize), fileSize - s * Int64(plainSegmentSize))))
    }

    /// The chunks a plaintext byte range touches (only these need fetching).
    public func chunks(covering range: Range<Int64>) -> Range<Int64> {
        let r = range.clamped(to: 0..<fileSize)
        guard !r.isEmpty else { return 0..<0 }
        let first = r.lowerBound / Int64(plainSegmentSize) / Int64(dataShards)
        let last = (r.upperBound - 1) / Int64(plainSegmentSize) / Int64(dataShards)
        return first..<(last + 1)
    }
}
