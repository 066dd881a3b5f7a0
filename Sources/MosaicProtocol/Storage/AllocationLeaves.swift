/// One blobber's allocation entries as the client and the blobber keep them between writes: the
/// `AllocationTrie` (so a write rehashes only its key's path, O(log n), whatever else is stored)
/// beside the paths in byte order for listings. `root` is the same root as
/// `AllocationTree(entries:)` over the same entries, whatever the order of the changes.
///
/// The sorted paths are a local index, not part of the root: an insertion moves the later
/// references in memory (a copy of 16 bytes per path) but hashes nothing.
public struct AllocationLeaves: Sendable {
    public private(set) var trie = AllocationTrie()
    /// Every path, in UTF-8 byte order.
    private var paths: [String] = []

    public init() {}

    /// All `entries` at once; throws on a malformed entry or a path given twice, as
    /// `AllocationTree` does.
    public init(entries: some Sequence<AllocationEntry>) throws(StorageProtocolError) {
        let all = Array(entries)
        trie = try AllocationTrie(entries: all)
        paths = all.map(\.path)
        paths.sort { UTF8Order.less($0, $1) }
    }

    public var count: Int { paths.count }

    /// Sets the entry of `entry.path`; throws on a malformed entry, as `AllocationTree` would.
    public mutating func set(_ entry: AllocationEntry) throws(StorageProtocolError) {
        try trie.set(entry)
        let i = position(of: entry.path)
        if i == paths.count || paths[i] != entry.path { paths.insert(entry.path, at: i) }
    }

    public mutating func remove(_ path: String) {
        let i = position(of: path)
        guard i < paths.count, paths[i] == path else { return }
        paths.remove(at: i)
        trie.remove(path)
    }

    /// Removes `folder` and every path below it, and returns them. The paths below a folder are
    /// one range of the sorted paths (all those starting with "folder/").
    public mutating func removeAll(within folder: String) -> [String] {
        let range = self.range(within: folder)
        var out = Array(paths[range])
        paths.removeSubrange(range)
        for p in out { trie.remove(p) }
        let i = position(of: folder)
        if i < paths.count, paths[i] == folder {
            remove(folder)
            out.append(folder)
        }
        return out
    }

    /// Every path below `folder` ("/" for all), in byte order: one range of the sorted paths, so
    /// a folder's listing reads that folder's range, not every path of the allocation.
    public func sortedPaths(within folder: String) -> ArraySlice<String> { paths[range(within: folder)] }

    /// Hex allocation root: equal to `AllocationTree(entries:).root` over the same entries.
    public var root: String { trie.root }

    private func range(within folder: String) -> Range<Int> {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        let start = position(of: prefix)
        var end = start
        while end < paths.count, paths[end].hasPrefix(prefix) { end += 1 }
        return start..<end
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

extension AllocationLeaves: Equatable {
    /// The same entries: the same paths and root.
    public static func == (a: AllocationLeaves, b: AllocationLeaves) -> Bool { a.paths == b.paths && a.root == b.root }
}
