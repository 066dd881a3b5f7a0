import MosaicCrypto

/// The entries a blobber's **allocation root** commits to, with the `AllocationTrie` over them:
///
///     allocation_root = 64 zeros                                            (no entries)
///                     = SHA-256(0x03 ‖ u64 n ‖ u64 size ‖ trie root)       (n ≥ 1 entries)
///
/// Binding n and the fragment bytes fixes what a challenge's "entry i of n" means and makes the
/// write marker's `size` provable. Write markers carry this root (hex); challenges prove one
/// block against it.
public struct AllocationTree: Sendable {
    public static let emptyRoot = String(repeating: "0", count: 64)

    /// Sorted by path (UTF-8 bytes), paths unique.
    public let entries: [AllocationEntry]
    public let trie: AllocationTrie
    private let byPath: [String: AllocationEntry]
    /// Hex allocation root.
    public var root: String { trie.root }

    /// Throws on a duplicate or malformed entry.
    public init(entries: [AllocationEntry]) throws(StorageProtocolError) {
        trie = try AllocationTrie(entries: entries)
        self.entries = entries.sorted { UTF8Order.less($0.path, $1.path) }
        byPath = Dictionary(entries.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// The entry at `path`.
    public func entry(at path: String) -> AllocationEntry? { byPath[path] }

    /// Total bytes the blobber holds: what the write marker's `size` must be.
    public var totalFragmentBytes: UInt64 { trie.size }
}
