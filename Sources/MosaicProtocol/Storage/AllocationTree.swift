import MosaicCrypto

/// The tree a blobber's **allocation root** commits to: its file entries sorted by path bytes,
/// as leaves of a `MerkleRules` tree. The root binds the entry count too:
///
///     allocation_root = 64 zeros                                  (no entries)
///                     = SHA-256(0x02 ‖ u64 BE n ‖ tree root)     (n ≥ 1 entries)
///
/// Binding n fixes the tree shape, so a challenge proof cannot pick another leaf count.
/// Write markers carry this root (hex); challenges prove one block against it.
public struct AllocationTree: Sendable, Equatable {
    public static let emptyRoot = String(repeating: "0", count: 64)

    /// Sorted by path (UTF-8 bytes), paths unique.
    public let entries: [AllocationEntry]
    public let leaves: [[UInt8]]
    /// Hex allocation root.
    public let root: String

    /// Sorts `entries`; throws on a duplicate or malformed entry.
    public init(entries: [AllocationEntry]) throws(StorageProtocolError) {
        let sorted = entries.sorted { UTF8Order.less($0.path, $1.path) }
        for (i, e) in sorted.enumerated() {
            try e.validate()
            if i > 0, sorted[i - 1].path == e.path { throw .malformed("duplicate entry path \(e.path)") }
        }
        self.entries = sorted
        leaves = sorted.map(\.leafHash)
        root = AllocationTree.root(entryCount: UInt64(sorted.count), treeRoot: MerkleRules.root(leaves: leaves))
    }

    public static func root(entryCount: UInt64, treeRoot: [UInt8]) -> String {
        guard entryCount > 0 else { return emptyRoot }
        var bytes: [UInt8] = [0x02]
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: entryCount >> UInt64(shift))) }
        return Hex.encode(SHA256.hash(bytes + treeRoot))
    }

    /// Index of the entry at `path`.
    public func index(of path: String) -> Int? { entries.firstIndex { $0.path == path } }

    /// Hex sibling hashes from entry `index` up to the tree root.
    public func siblings(ofEntry index: Int) -> [String] {
        MerkleRules.siblings(leaves: leaves, index: index).map { Hex.encode($0) }
    }

    /// Total bytes the blobber holds: what the write marker's `size` must be.
    public var totalFragmentBytes: UInt64 { entries.reduce(0) { $0 &+ $1.fragmentLength } }
}
