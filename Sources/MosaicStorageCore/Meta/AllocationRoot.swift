import MosaicCrypto
import MosaicProtocol

/// One blobber's allocation root over the files it holds, by the storage contract's
/// `AllocationTree` rules (entries sorted by path; each entry commits to this blobber's fragment
/// root, the fragment length, the file size and the hash of the signed `FileMeta`). Owner and
/// blobber both compute it: the owner signs it in the write marker, the blobber checks it, and the
/// ledger's challenges prove blocks against it.
package enum AllocationRoot {
    public static let empty = AllocationTree.emptyRoot

    /// Blobber `index`'s entry for `meta` (folders: zero fragment root, length 0).
    public static func entry(_ meta: FileMeta, index: Int) -> AllocationEntry {
        let root = meta.kind == .file ? (meta.fragmentRoots[safe: index] ?? empty) : empty
        return AllocationEntry(
            path: meta.path, fragmentRoot: root, fragmentLength: UInt64(max(0, meta.fragmentLength)),
            fileSize: UInt64(max(0, meta.size)), metadataHash: meta.hash)
    }

    /// `entry` with the metadata's signing digest already known (no re-encoding).
    public static func entry(_ meta: FileMeta, index: Int, digest: [UInt8]) -> AllocationEntry {
        let root = meta.kind == .file ? (meta.fragmentRoots[safe: index] ?? empty) : empty
        return AllocationEntry(
            path: meta.path, fragmentRoot: root, fragmentLength: UInt64(max(0, meta.fragmentLength)),
            fileSize: UInt64(max(0, meta.size)), metadataHash: Hex.encode(digest))
    }

    /// The tree of blobber `index` holding `metas`; throws on duplicate paths or malformed roots.
    public static func tree(of metas: [FileMeta], index: Int) throws(StorageProtocolError) -> AllocationTree {
        try AllocationTree(entries: metas.map { entry($0, index: index) })
    }

    /// Hex allocation root of blobber `index` holding `metas`.
    public static func root(of metas: [FileMeta], index: Int) throws(StorageProtocolError) -> String {
        try tree(of: metas, index: index).root
    }

    /// The leaves of blobber `index` holding `metas`, to update per write instead of rehashing all;
    /// throws on duplicate paths or malformed roots.
    public static func leaves(of metas: some Sequence<FileMeta>, index: Int) throws(StorageProtocolError) -> AllocationLeaves {
        try AllocationLeaves(entries: metas.map { entry($0, index: index) })
    }

    /// Fragment bytes a blobber holds for `metas` (the write marker's `size`), saturating at
    /// 2^64 − 1: such a sum fits no allocation and is refused as too large, not a crash.
    public static func size(of metas: some Sequence<FileMeta>) -> UInt64 {
        var total: UInt64 = 0
        for m in metas {
            let (sum, overflow) = total.addingReportingOverflow(UInt64(max(0, m.fragmentLength)))
            if overflow { return .max }
            total = sum
        }
        return total
    }
}
