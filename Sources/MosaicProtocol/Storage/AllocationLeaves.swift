/// One blobber's allocation leaves by path (the `AllocationTree` leaf hash of each entry), kept
/// beside its files so a write hashes only the entries it changes: `root` builds the same root
/// as `AllocationTree(entries:)` over all entries, from paths kept in byte order as they change.
public struct AllocationLeaves: Sendable, Equatable {
    private var leaves: [String: [UInt8]] = [:]
    /// The keys of `leaves` in UTF-8 byte order.
    private var paths: [String] = []

    public init() {}

    public var count: Int { leaves.count }

    /// Sets the leaf of `entry.path`; throws on a malformed entry, as `AllocationTree` would.
    public mutating func set(_ entry: AllocationEntry) throws(StorageProtocolError) {
        try entry.validate()
        if leaves.updateValue(entry.leafHash, forKey: entry.path) == nil {
            paths.insert(entry.path, at: position(of: entry.path))
        }
    }

    public mutating func remove(_ path: String) {
        guard leaves.removeValue(forKey: path) != nil else { return }
        let i = position(of: path)
        if i < paths.count, paths[i] == path { paths.remove(at: i) }
    }

    /// Removes `folder` and every path below it, and returns them. The paths below a folder are
    /// one range of the sorted paths (all those starting with "folder/"), so this costs one pass,
    /// not one removal (and array shift) per path.
    public mutating func removeAll(within folder: String) -> [String] {
        var out: [String] = []
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        let start = position(of: prefix)
        var end = start
        while end < paths.count, paths[end].hasPrefix(prefix) { end += 1 }
        out.append(contentsOf: paths[start..<end])
        paths.removeSubrange(start..<end)
        for p in out { leaves[p] = nil }
        if leaves[folder] != nil {
            remove(folder)
            out.append(folder)
        }
        return out
    }

    /// Hex allocation root: equal to `AllocationTree(entries:).root` over the same entries.
    public var root: String {
        AllocationTree.root(entryCount: UInt64(paths.count), treeRoot: MerkleRules.root(leaves: paths.compactMap { leaves[$0] }))
    }

    /// First index whose path is not below `path` in byte order.
    private func position(of path: String) -> Int {
        var low = 0
        var high = paths.count
        while low < high {
            let mid = (low + high) / 2
            if UTF8Order.less(paths[mid], path) { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
