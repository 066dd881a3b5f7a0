/// One blobber's allocation leaves by path (the `AllocationTree` leaf hash of each entry), kept
/// beside its files so a write hashes only what it changes: `root` builds the same root as
/// `AllocationTree(entries:)` over all entries, from paths kept in byte order as they change.
///
/// The tree's levels are kept too, and `root` rehashes only the nodes above what changed since
/// the last root: a leaf replaced in place costs one path to the top (O(log n)); an insertion or a
/// removal moves every later leaf, so it costs the nodes from its position to the end (O(log n) for
/// a path after all others, as in a folder sent in order; O(n) at worst, which only another tree
/// shape in the protocol removes: docs/STORAGE.md §5).
public struct AllocationLeaves: Sendable {
    /// Every path, in UTF-8 byte order.
    private var paths: [String] = []
    /// `levels[0]` is the leaf hash of each path (same order); `levels[k + 1]` is the level above
    /// `levels[k]` by `MerkleRules.parent`, valid except where `dirtyFrom` / `dirtyAt` say.
    private var levels: [[[UInt8]]] = [[]]
    /// Leaf positions from here on moved or changed since the levels above were last built.
    private var dirtyFrom = 0
    /// Leaf positions before `dirtyFrom` whose hash was replaced in place.
    private var dirtyAt: Set<Int> = []

    public init() {}

    /// All `entries` at once (sorted here, O(n log n)); throws on a malformed entry or a path
    /// given twice, as `AllocationTree` does.
    public init(entries: some Sequence<AllocationEntry>) throws(StorageProtocolError) {
        var sorted = Array(entries)
        sorted.sort { UTF8Order.less($0.path, $1.path) }
        paths.reserveCapacity(sorted.count)
        levels[0].reserveCapacity(sorted.count)
        for (i, e) in sorted.enumerated() {
            try e.validate()
            if i > 0, sorted[i - 1].path == e.path { throw .malformed("duplicate entry path \(e.path)") }
            paths.append(e.path)
            levels[0].append(e.leafHash)
        }
    }

    public var count: Int { paths.count }

    /// Sets the leaf of `entry.path`; throws on a malformed entry, as `AllocationTree` would.
    public mutating func set(_ entry: AllocationEntry) throws(StorageProtocolError) {
        try entry.validate()
        let i = position(of: entry.path)
        if i < paths.count, paths[i] == entry.path {
            levels[0][i] = entry.leafHash
            if i < dirtyFrom { dirtyAt.insert(i) }
        } else {
            paths.insert(entry.path, at: i)
            levels[0].insert(entry.leafHash, at: i)
            moved(from: i)
        }
    }

    public mutating func remove(_ path: String) {
        let i = position(of: path)
        guard i < paths.count, paths[i] == path else { return }
        paths.remove(at: i)
        levels[0].remove(at: i)
        moved(from: i)
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
        if start < end {
            out.append(contentsOf: paths[start..<end])
            paths.removeSubrange(start..<end)
            levels[0].removeSubrange(start..<end)
            moved(from: start)
        }
        let i = position(of: folder)
        if i < paths.count, paths[i] == folder {
            remove(folder)
            out.append(folder)
        }
        return out
    }

    /// Every path below `folder` ("/" for all), in byte order: one range of the sorted paths, so
    /// a folder's listing reads that folder's range, not every path of the allocation.
    public func sortedPaths(within folder: String) -> ArraySlice<String> {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        let start = position(of: prefix)
        var end = start
        while end < paths.count, paths[end].hasPrefix(prefix) { end += 1 }
        return paths[start..<end]
    }

    /// Hex allocation root: equal to `AllocationTree(entries:).root` over the same entries.
    /// Mutating only to bring the kept levels up to date (the entries do not change).
    public var root: String {
        mutating get {
            settle()
            return AllocationTree.root(entryCount: UInt64(paths.count), treeRoot: levels.last?.first ?? MerkleRules.emptyRoot)
        }
    }

    /// Leaves from position `i` on moved (an insertion or removal there).
    private mutating func moved(from i: Int) {
        dirtyFrom = min(dirtyFrom, i)
        dirtyAt = dirtyAt.filter { $0 < dirtyFrom }
    }

    /// Rebuilds the nodes above the dirty leaves, level by level.
    private mutating func settle() {
        var from = dirtyFrom
        var points = dirtyAt
        var k = 0
        while levels[k].count > 1 {
            let below = levels[k]
            func node(_ p: Int) -> [UInt8] {
                2 * p + 1 < below.count ? MerkleRules.nodeHash(below[2 * p], below[2 * p + 1]) : below[2 * p]
            }
            let size = below.count / 2 + below.count % 2
            // Taken out so that it is changed in place, not copied.
            var parent: [[UInt8]] = []
            if levels.count > k + 1 { swap(&parent, &levels[k + 1]) } else { levels.append([]) }
            // Parents before `from / 2` have both children before `from`: they change only where a
            // child was replaced in place.
            let start = min(from / 2, parent.count, size)
            parent.removeSubrange(start...)
            parent.reserveCapacity(size)
            for p in start..<size { parent.append(node(p)) }
            let up = Set(points.lazy.map { $0 / 2 }.filter { $0 < start })
            for p in up { parent[p] = node(p) }
            levels[k + 1] = parent
            from = start
            points = up
            k += 1
        }
        if levels.count > k + 1 { levels.removeSubrange((k + 1)...) }
        dirtyFrom = paths.count
        dirtyAt = []
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
    /// The same entries (paths and leaf hashes); how much of the kept levels is current does not count.
    public static func == (a: AllocationLeaves, b: AllocationLeaves) -> Bool {
        a.paths == b.paths && a.levels[0] == b.levels[0]
    }
}
