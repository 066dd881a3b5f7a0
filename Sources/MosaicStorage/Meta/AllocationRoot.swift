import MosaicCrypto
import MosaicProtocol

/// One blobber's allocation root over its entries, by the storage contract's rules
/// (branch storage-contract, `AllocationTree`): entries sorted by path bytes; entry leaf =
/// SHA-256(0x00 ‖ "mosaic-alloc-entry-v1" ‖ path ‖ fragment_root (32) ‖ u64 fragment_length ‖
/// u64 file_size ‖ metadata_hash (32)) with `CanonicalWriter` framing; tree as docs/STORAGE.md §2;
/// root = 64 zeros for no entries, else SHA-256(0x02 ‖ u64 BE n ‖ tree root).
/// Owner and blobber both compute it: the owner signs it in the write marker, the blobber checks it.
public enum AllocationRoot {
    public static let empty = String(repeating: "0", count: 64)

    /// What one blobber holds of one file (folders have a zero fragment root and length).
    public struct Entry: Sendable, Equatable {
        public var path: String
        public var fragmentRoot: [UInt8]
        public var fragmentLength: UInt64
        public var fileSize: UInt64
        public var metadataHash: [UInt8]

        /// Blobber `index`'s entry for `meta`.
        public init(meta: FileMeta, index: Int) {
            path = meta.path
            fragmentRoot = meta.kind == .file && index < meta.fragmentRoots.count
                ? (Hex.decode(meta.fragmentRoots[index]) ?? MerkleTree.emptyRoot) : MerkleTree.emptyRoot
            fragmentLength = UInt64(max(0, meta.fragmentLength))
            fileSize = UInt64(max(0, meta.size))
            metadataHash = Hex.decode(meta.hash) ?? MerkleTree.emptyRoot
        }

        var leaf: [UInt8] {
            var w = CanonicalWriter(domain: "mosaic-alloc-entry-v1")
            w.append(string: path)
            w.append(bytes: fragmentRoot)
            w.append(uint64: fragmentLength)
            w.append(uint64: fileSize)
            w.append(bytes: metadataHash)
            return MerkleTree.leafHash(w.bytes)
        }
    }

    /// Hex allocation root of blobber `index` holding `metas`.
    public static func root(of metas: [FileMeta], index: Int) -> String {
        root(entries: metas.map { Entry(meta: $0, index: index) })
    }

    public static func root(entries: [Entry]) -> String {
        guard !entries.isEmpty else { return empty }
        let sorted = entries.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        var leaves: [UInt8] = []
        for e in sorted { leaves += e.leaf }
        let treeRoot = (try? MerkleTree(leafHashes: leaves).root) ?? MerkleTree.emptyRoot
        var bytes: [UInt8] = [0x02]
        appendBE(UInt64(sorted.count), to: &bytes)
        return Hex.encode(SHA256.hash(bytes + treeRoot))
    }

    /// Fragment bytes a blobber holds for `metas` (the write marker's `size`).
    public static func size(of metas: [FileMeta]) -> UInt64 {
        metas.reduce(0) { $0 + UInt64(max(0, $1.fragmentLength)) }
    }
}
