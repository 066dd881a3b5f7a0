/// One blobber's allocation leaves by path (the `AllocationTree` leaf hash of each entry), kept
/// beside its files so a write hashes only the entries it changes: `root` sorts the paths and
/// builds the same root as `AllocationTree(entries:)` over all entries.
public struct AllocationLeaves: Sendable, Equatable {
    private var leaves: [String: [UInt8]] = [:]

    public init() {}

    public var count: Int { leaves.count }

    /// Sets the leaf of `entry.path`; throws on a malformed entry, as `AllocationTree` would.
    public mutating func set(_ entry: AllocationEntry) throws(StorageProtocolError) {
        try entry.validate()
        leaves[entry.path] = entry.leafHash
    }

    public mutating func remove(_ path: String) { leaves[path] = nil }

    /// Hex allocation root: equal to `AllocationTree(entries:).root` over the same entries.
    public var root: String {
        let paths = leaves.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return AllocationTree.root(entryCount: UInt64(paths.count), treeRoot: StorageMerkle.root(leaves: paths.compactMap { leaves[$0] }))
    }
}
