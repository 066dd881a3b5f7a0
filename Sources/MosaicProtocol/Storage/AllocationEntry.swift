import MosaicCrypto

/// One file as one blobber holds it: a leaf of that blobber's allocation tree.
///
/// Canonical bytes (docs/STORAGE.md §5): "mosaic-alloc-entry-v1" ‖ path ‖ fragment_root (32) ‖
/// u64 fragment_length ‖ u64 file_size ‖ metadata_hash (32), with `CanonicalWriter` framing;
/// leaf hash = SHA-256(0x00 ‖ canonical bytes).
public struct AllocationEntry: Sendable, Hashable, Codable {
    /// Absolute remote path, e.g. "/photos/cat.jpg" (UTF-8; entries sort by its bytes).
    public var path: String
    /// Hex Merkle root of this blobber's fragment stream of the file (docs/STORAGE.md §2).
    public var fragmentRoot: String
    /// Bytes of that fragment stream (what the blobber stores; sums to the write marker's size).
    public var fragmentLength: UInt64
    /// Plaintext size of the file.
    public var fileSize: UInt64
    /// Hex SHA-256 of the owner-signed file metadata (layout, all fragment roots, wrapped key), so
    /// the committed root also pins the metadata; 64 zeros if the blobber keeps none.
    public var metadataHash: String

    enum CodingKeys: String, CodingKey {
        case path
        case fragmentRoot = "fragment_root"
        case fragmentLength = "fragment_length"
        case fileSize = "file_size"
        case metadataHash = "metadata_hash"
    }

    public init(
        path: String, fragmentRoot: String, fragmentLength: UInt64, fileSize: UInt64,
        metadataHash: String = AllocationTree.emptyRoot
    ) {
        self.path = path
        self.fragmentRoot = fragmentRoot
        self.fragmentLength = fragmentLength
        self.fileSize = fileSize
        self.metadataHash = metadataHash
    }

    public static let domain = "mosaic-alloc-entry-v1"

    public var canonicalBytes: [UInt8] {
        Self.canonicalBytes(
            path: path, fragmentRoot: StorageSigning.hash32(fragmentRoot), fragmentLength: fragmentLength, fileSize: fileSize,
            metadataHash: StorageSigning.hash32(metadataHash))
    }

    /// The canonical bytes from binary roots (a listing read in place has no hex to decode).
    package static func canonicalBytes(
        path: String, fragmentRoot: some Collection<UInt8>, fragmentLength: UInt64, fileSize: UInt64,
        metadataHash: some Collection<UInt8>
    ) -> [UInt8] {
        var w = CanonicalWriter(domain: AllocationEntry.domain)
        w.append(string: path)
        w.append(bytes: Array(fragmentRoot))
        w.append(uint64: fragmentLength)
        w.append(uint64: fileSize)
        w.append(bytes: Array(metadataHash))
        return w.bytes
    }

    public var leafHash: [UInt8] { MerkleRules.leafHash(canonicalBytes) }

    /// 64 KiB blocks in the fragment stream (0 for an empty file).
    public var blockCount: UInt64 {
        let b = UInt64(MerkleRules.blockSize)
        return fragmentLength / b + (fragmentLength % b == 0 ? 0 : 1)
    }

    /// Length of block `index` of the fragment stream (0 past its end).
    public func blockLength(_ index: UInt64) -> UInt64 {
        let b = UInt64(MerkleRules.blockSize)
        let count = blockCount
        guard index < count else { return 0 }
        return index < count - 1 ? b : fragmentLength - b * index
    }

    func validate() throws(StorageProtocolError) {
        guard !path.isEmpty else { throw .malformed("entry path is empty") }
        guard StorageSigning.isHexID(fragmentRoot) else { throw .malformed("entry fragment_root must be 64 lowercase hex characters") }
        guard StorageSigning.isHexID(metadataHash) else { throw .malformed("entry metadata_hash must be 64 lowercase hex characters") }
    }
}
