import MosaicCrypto

/// The allocation root's tree (docs/STORAGE.md §5): a compacted binary trie over 512-bit entry
/// keys, so one put or delete rehashes only the nodes on its key's path (O(log n)), whatever the
/// other paths are, and its shape depends only on the set of keys, never on the order of writes.
///
/// A key is SHA-256 of the entry's parent folder followed by SHA-256 of its name, so the entries
/// of one folder form one subtree: a folder's listing is proven against the root by that subtree
/// and the siblings above it, without reading any other folder.
///
/// Nodes are immutable and shared, so a copy of a trie (a snapshot for challenges, the state
/// before a commit to undo to) costs nothing and a change copies only its path.
public struct AllocationTrie: Sendable {
    public static let keyBits = 512
    /// Bits of the folder part of a key: the depth below which one folder's entries sit.
    public static let folderBits = 256

    final class Node: Sendable {
        enum Kind: Sendable {
            case leaf(path: String)
            /// `depth` is the first bit at which the two sides' keys differ (left 0, right 1).
            case inner(depth: Int, left: Node, right: Node)
        }
        let kind: Kind
        /// Some key below (the leftmost): the bits above the node's depth are every key's.
        let key: [UInt8]
        let hash: [UInt8]
        let count: UInt64
        let bytes: UInt64

        convenience init(leaf entry: AllocationEntry, key: [UInt8]) {
            self.init(leaf: entry.path, key: key, hash: AllocationTrie.leafHash(key: key, entry: entry), bytes: entry.fragmentLength)
        }

        init(leaf path: String, key: [UInt8], hash: [UInt8], bytes: UInt64) {
            kind = .leaf(path: path)
            self.key = key
            self.hash = hash
            count = 1
            self.bytes = bytes
        }

        init(depth: Int, left: Node, right: Node) {
            kind = .inner(depth: depth, left: left, right: right)
            key = left.key
            hash = AllocationTrie.innerHash(
                depth: depth, left: (left.hash, left.count, left.bytes), right: (right.hash, right.count, right.bytes))
            count = left.count &+ right.count
            bytes = AllocationTrie.add(left.bytes, right.bytes)
        }
    }

    var top: Node?

    public init() {}

    /// All `entries` at once: sorted by key, then split at each first differing bit (n − 1 inner
    /// hashes); throws on a malformed entry or a path given twice.
    public init(entries: some Sequence<AllocationEntry>) throws(StorageProtocolError) {
        var leaves: [Node] = []
        // A listing's entries share their folder: its half of the key is hashed once per run.
        var folder: (path: String, key: [UInt8])?
        for e in entries {
            try e.validate()
            let (parent, name) = Self.split(e.path)
            if folder?.path != parent { folder = (parent, Self.folderKey(parent)) }
            leaves.append(Node(leaf: e, key: (folder?.key ?? Self.folderKey(parent)) + Self.nameKey(name)))
        }
        try self.init(leaves: leaves)
    }

    /// The trie over leaves made elsewhere (see `Leaf`); throws on a key given twice.
    private init(leaves: [Node]) throws(StorageProtocolError) {
        var leaves = leaves
        leaves.sort { Self.precedes($0.key, $1.key) }
        for i in leaves.indices.dropFirst() where leaves[i - 1].key == leaves[i].key {
            if case .leaf(let p) = leaves[i].kind { throw .malformed("duplicate entry path \(p)") }
        }
        top = leaves.isEmpty ? nil : Self.build(leaves[...])
    }

    private static func build(_ leaves: ArraySlice<Node>) -> Node {
        if leaves.count == 1, let only = leaves.first { return only }
        let lo = leaves.startIndex
        let d = firstDifference(leaves[lo].key, leaves[leaves.endIndex - 1].key)
        var a = lo
        var b = leaves.endIndex
        while a < b {
            let mid = (a + b) / 2
            if bit(leaves[mid].key, d) == 0 { a = mid + 1 } else { b = mid }
        }
        return Node(depth: d, left: build(leaves[lo..<a]), right: build(leaves[a...]))
    }

    public var count: Int { Int(top?.count ?? 0) }
    /// Sum of the entries' fragment lengths (saturating at 2^64 − 1): the write marker's `size`.
    public var size: UInt64 { top?.bytes ?? 0 }

    /// Hex allocation root: 64 zeros when empty, else SHA-256(0x03 ‖ u64 n ‖ u64 size ‖ trie root).
    public var root: String {
        guard let top else { return AllocationTree.emptyRoot }
        return Self.root(count: top.count, size: top.bytes, trieRoot: top.hash)
    }

    /// Puts `entry` (replacing the entry of its path); throws on a malformed entry.
    public mutating func set(_ entry: AllocationEntry) throws(StorageProtocolError) {
        try entry.validate()
        let leaf = Node(leaf: entry, key: Self.key(path: entry.path))
        top = top.map { Self.inserting(leaf, into: $0) } ?? leaf
    }

    /// Removes the entry of `path`, if there is one.
    public mutating func remove(_ path: String) {
        guard let top else { return }
        self.top = Self.removing(Self.key(path: path), from: top)
    }

    private static func inserting(_ leaf: Node, into node: Node) -> Node {
        switch node.kind {
        case .leaf:
            let d = firstDifference(leaf.key, node.key)
            if d == keyBits { return leaf }
            return bit(leaf.key, d) == 0 ? Node(depth: d, left: leaf, right: node) : Node(depth: d, left: node, right: leaf)
        case .inner(let depth, let left, let right):
            let d = firstDifference(leaf.key, node.key, below: depth)
            if d < depth {
                return bit(leaf.key, d) == 0 ? Node(depth: d, left: leaf, right: node) : Node(depth: d, left: node, right: leaf)
            }
            return bit(leaf.key, depth) == 0
                ? Node(depth: depth, left: inserting(leaf, into: left), right: right)
                : Node(depth: depth, left: left, right: inserting(leaf, into: right))
        }
    }

    /// `node` without `key` (nil when that was all it held); the same node when `key` is absent.
    private static func removing(_ key: [UInt8], from node: Node) -> Node? {
        switch node.kind {
        case .leaf: return node.key == key ? nil : node
        case .inner(let depth, let left, let right):
            guard firstDifference(key, node.key, below: depth) == depth else { return node }
            if bit(key, depth) == 0 {
                guard let l = removing(key, from: left) else { return right }
                return l === left ? node : Node(depth: depth, left: l, right: right)
            }
            guard let r = removing(key, from: right) else { return left }
            return r === right ? node : Node(depth: depth, left: left, right: r)
        }
    }

    // MARK: Proofs

    /// Path of entry `index` (in key order) and the steps from its leaf up to the top, bottom-up.
    public func proof(ofEntry index: UInt64) -> (path: String, steps: [TrieStep])? {
        guard var node = top, index < node.count else { return nil }
        var i = index
        var steps: [TrieStep] = []
        while case .inner(let depth, let left, let right) = node.kind {
            if i < left.count {
                steps.append(TrieStep(depth: depth, sibling: right))
                node = left
            } else {
                i -= left.count
                steps.append(TrieStep(depth: depth, sibling: left))
                node = right
            }
        }
        guard case .leaf(let path) = node.kind else { return nil }
        return (path, steps.reversed())
    }

    /// The steps from the subtree holding exactly the entries of `folder` up to the top,
    /// bottom-up; nil when the folder has no entries.
    public func proof(ofFolder folder: String) -> [TrieStep]? { walk(toFolder: folder)?.steps.reversed() }

    /// Paths of the entries directly in `folder`, in key order (no order a reader wants).
    public func paths(inFolder folder: String) -> [String] {
        guard let node = walk(toFolder: folder)?.node else { return [] }
        var out: [String] = []
        out.reserveCapacity(Int(node.count))
        var stack = [node]
        while let n = stack.popLast() {
            switch n.kind {
            case .leaf(let path): out.append(path)
            case .inner(_, let left, let right): stack.append(contentsOf: [right, left])
            }
        }
        return out
    }

    /// The subtree of `folder`'s entries and the steps down to it, top-down.
    private func walk(toFolder folder: String) -> (node: Node, steps: [TrieStep])? {
        let prefix = Self.folderKey(folder)
        guard var node = top else { return nil }
        var steps: [TrieStep] = []
        while true {
            switch node.kind {
            case .leaf:
                guard Self.firstDifference(prefix, node.key, below: Self.folderBits) == Self.folderBits else { return nil }
                return (node, steps)
            case .inner(let depth, let left, let right):
                let d = Self.firstDifference(prefix, node.key, below: min(depth, Self.folderBits))
                if depth >= Self.folderBits { return d >= Self.folderBits ? (node, steps) : nil }
                guard d >= depth else { return nil }
                if Self.bit(prefix, depth) == 0 {
                    steps.append(TrieStep(depth: depth, sibling: right))
                    node = left
                } else {
                    steps.append(TrieStep(depth: depth, sibling: left))
                    node = right
                }
            }
        }
    }

    /// The top after climbing `steps` (bottom-up) from a subtree of `count` entries, `bytes`
    /// fragment bytes and hash `hash`, whose keys begin as `key` does, with each step's depth below
    /// the one before and below `under`; also how many entries lie left of the subtree (the index
    /// of its first entry). Nil when a step is out of order.
    public static func climb(
        hash: [UInt8], count: UInt64, bytes: UInt64, key: [UInt8], under: Int, steps: [TrieStep]
    ) -> (hash: [UInt8], count: UInt64, bytes: UInt64, before: UInt64)? {
        var (h, n, b, before) = (hash, count, bytes, UInt64(0))
        var limit = under
        for s in steps {
            guard s.depth >= 0, s.depth < limit, let sibling = s.siblingHash else { return nil }
            limit = s.depth
            let (sum, overflow) = n.addingReportingOverflow(s.count)
            guard !overflow else { return nil }
            let side = (sibling, s.count, s.bytes)
            if bit(key, s.depth) == 0 {
                h = innerHash(depth: s.depth, left: (h, n, b), right: side)
            } else {
                h = innerHash(depth: s.depth, left: side, right: (h, n, b))
                let (left, over) = before.addingReportingOverflow(s.count)
                guard !over else { return nil }
                before = left
            }
            n = sum
            b = add(b, s.bytes)
        }
        return (h, n, b, before)
    }

    /// The hash, entry count and fragment bytes of a trie over exactly `entries` (the subtree a
    /// folder proof starts from), and the depth of its top (512 for one leaf).
    public static func subtree(of entries: [AllocationEntry]) throws(StorageProtocolError) -> (
        hash: [UInt8], count: UInt64, bytes: UInt64, depth: Int
    )? {
        try AllocationTrie(entries: entries).subtree
    }

    /// `subtree(of:)` over leaves built from binary fields (`Leaf.init`), for a reader that
    /// proves a listing without turning it into `AllocationEntry` values.
    package static func subtree(of leaves: [Leaf]) throws(StorageProtocolError) -> (
        hash: [UInt8], count: UInt64, bytes: UInt64, depth: Int
    )? {
        try AllocationTrie(leaves: leaves.map(\.node)).subtree
    }

    private var subtree: (hash: [UInt8], count: UInt64, bytes: UInt64, depth: Int)? {
        guard let top else { return nil }
        if case .inner(let depth, _, _) = top.kind { return (top.hash, top.count, top.bytes, depth) }
        return (top.hash, top.count, top.bytes, Self.keyBits)
    }

    /// One entry's leaf, from the binary fields of `AllocationEntry`: the same key and hash.
    package struct Leaf: Sendable {
        let node: Node

        /// - Parameters:
        ///   - folderKey: `AllocationTrie.folderKey` of the path's parent (shared by a listing).
        ///   - fragmentRoot, metadataHash: 32 bytes each.
        package init(
            path: String, name: String, folderKey: [UInt8], fragmentRoot: some Collection<UInt8>, fragmentLength: UInt64,
            fileSize: UInt64, metadataHash: some Collection<UInt8>
        ) {
            let key = folderKey + AllocationTrie.nameKey(name)
            let bytes = AllocationEntry.canonicalBytes(
                path: path, fragmentRoot: fragmentRoot, fragmentLength: fragmentLength, fileSize: fileSize, metadataHash: metadataHash)
            node = Node(leaf: path, key: key, hash: AllocationTrie.leafHash(key: key, entryBytes: bytes), bytes: fragmentLength)
        }
    }

    // MARK: Rules

    public static func root(count: UInt64, size: UInt64, trieRoot: [UInt8]) -> String {
        var w = CanonicalWriter()
        w.append(uint8: 0x03)
        w.append(uint64: count)
        w.append(uint64: size)
        return Hex.encode(SHA256.hash(w.bytes + trieRoot))
    }

    /// 512-bit key: SHA-256(domain "mosaic-alloc-dir-v2" ‖ parent) ‖ SHA-256(domain "mosaic-alloc-name-v2" ‖ name).
    public static func key(path: String) -> [UInt8] {
        let (parent, name) = split(path)
        return folderKey(parent) + nameKey(name)
    }

    /// The last 256 bits of a key.
    static func nameKey(_ name: String) -> [UInt8] {
        var n = CanonicalWriter(domain: "mosaic-alloc-name-v2")
        n.append(string: name)
        return SHA256.hash(n.bytes)
    }

    /// Key order (bytewise), eight bytes at a time: the keys of one folder share their first 32
    /// bytes, which a byte-by-byte comparison walks on every one of a sort's n log n steps.
    static func precedes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == 64, b.count == 64 else { return a.lexicographicallyPrecedes(b) }
        return a.withUnsafeBytes { x in
            b.withUnsafeBytes { y in
                for offset in stride(from: 0, to: 64, by: 8) {
                    let u = UInt64(bigEndian: x.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                    let v = UInt64(bigEndian: y.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                    if u != v { return u < v }
                }
                return false
            }
        }
    }

    /// The first 256 bits of the key of every entry directly in `folder`.
    public static func folderKey(_ folder: String) -> [UInt8] {
        var w = CanonicalWriter(domain: "mosaic-alloc-dir-v2")
        w.append(string: folder)
        return SHA256.hash(w.bytes)
    }

    /// Parent folder and name: "/a/b" → ("/a", "b"), "/a" → ("/", "a"); a path without "/" has
    /// the parent "" (no valid path has, but every string gets one key).
    package static func split(_ path: String) -> (parent: String, name: String) {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return ("", path) }
        let name = String(path[path.index(after: slash)...])
        let parent = slash == path.startIndex ? "/" : String(path[..<slash])
        return (parent, name)
    }

    public static func leafHash(key: [UInt8], entry: AllocationEntry) -> [UInt8] {
        leafHash(key: key, entryBytes: entry.canonicalBytes)
    }

    /// SHA-256(0x00 ‖ key ‖ the entry's canonical bytes).
    static func leafHash(key: [UInt8], entryBytes: [UInt8]) -> [UInt8] {
        var h = SHA256.Hasher()
        h.update([0x00])
        h.update(key)
        h.update(entryBytes)
        return h.finalize()
    }

    static func innerHash(
        depth: Int, left: (hash: [UInt8], count: UInt64, bytes: UInt64), right: (hash: [UInt8], count: UInt64, bytes: UInt64)
    ) -> [UInt8] {
        var w = CanonicalWriter()
        w.append(uint8: 0x01)
        w.append(uint8: UInt8(truncatingIfNeeded: depth >> 8))
        w.append(uint8: UInt8(truncatingIfNeeded: depth))
        var bytes = w.bytes + left.hash + right.hash
        var tail = CanonicalWriter()
        tail.append(uint64: left.count)
        tail.append(uint64: right.count)
        tail.append(uint64: left.bytes)
        tail.append(uint64: right.bytes)
        bytes += tail.bytes
        return SHA256.hash(bytes)
    }

    /// Fragment bytes add saturating: such a sum fits no allocation and is refused as too large.
    static func add(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let (s, o) = a.addingReportingOverflow(b)
        return o ? .max : s
    }

    static func bit(_ key: [UInt8], _ i: Int) -> UInt8 {
        guard i >= 0, i / 8 < key.count else { return 0 }
        return (key[i / 8] >> UInt8(7 - i % 8)) & 1
    }

    /// First bit at which `a` and `b` differ, looking at bits before `below` only (`below` when
    /// none does).
    static func firstDifference(_ a: [UInt8], _ b: [UInt8], below: Int = keyBits) -> Int {
        let n = min(a.count, b.count, (below + 7) / 8)
        var i = 0
        while i < n {
            let x = a[i] ^ b[i]
            if x != 0 { return min(i * 8 + x.leadingZeroBitCount, below) }
            i += 1
        }
        return below
    }
}

/// One inner node on the way from a leaf (or a folder's subtree) to the top of an
/// `AllocationTrie`: its depth, and the other side's hash, entry count and fragment bytes. Which
/// side is the other one follows from the key's bit at `depth`.
public struct TrieStep: Sendable, Hashable, Codable {
    public var depth: Int
    /// Hex hash of the other side.
    public var sibling: String
    public var count: UInt64
    public var bytes: UInt64

    public init(depth: Int, sibling: String, count: UInt64, bytes: UInt64) {
        self.depth = depth
        self.sibling = sibling
        self.count = count
        self.bytes = bytes
    }

    init(depth: Int, sibling: AllocationTrie.Node) {
        self.init(depth: depth, sibling: Hex.encode(sibling.hash), count: sibling.count, bytes: sibling.bytes)
    }

    var siblingHash: [UInt8]? {
        guard sibling.utf8.count == 64, let b = Hex.decode(sibling) else { return nil }
        return b
    }
}
