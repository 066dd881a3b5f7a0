import MosaicProtocol

/// Builds a `MerkleTree` while a fragment stream goes by, one 64 KiB block at a time.
///
/// The root needs only O(log n) state: a stack of perfect subtrees, merged whenever two of the
/// same height meet and folded right to left at the end (which gives the promote-odd-node shape).
/// The leaf hashes are kept as well, because challenges and downloads need proofs for any block.
package struct MerkleTreeBuilder: Sendable {
    private var stack: [(height: Int, hash: [UInt8])] = []
    private var leaves: [UInt8] = []
    /// Bytes of a block not yet complete, when fed through `append(stream:)`.
    private var pending: [UInt8] = []

    public init() {}

    public var leafCount: Int { leaves.count / MerkleRules.hashSize }

    /// Adds a whole block (64 KiB, or shorter only for the fragment's last block).
    public mutating func append(block: [UInt8]) {
        append(leafHash: MerkleRules.leafHash(block))
    }

    /// Adds a leaf hashed elsewhere (e.g. in parallel); leaves must arrive in block order.
    public mutating func append(leafHash: [UInt8]) {
        precondition(leafHash.count == MerkleRules.hashSize, "leaf hashes are 32 bytes")
        leaves.append(contentsOf: leafHash)
        var node = (height: 0, hash: leafHash)
        while let top = stack.last, top.height == node.height {
            stack.removeLast()
            node = (top.height + 1, MerkleRules.nodeHash(top.hash, node.hash))
        }
        stack.append(node)
    }

    /// Adds raw stream bytes, cutting them into 64 KiB blocks; a short tail waits for more bytes or `finish`.
    public mutating func append(stream bytes: [UInt8]) {
        bytes.withUnsafeBytes { append(stream: $0) }
    }

    /// The same from memory the caller owns (a blobber's receive buffer), without an array copy:
    /// whole blocks are hashed where they are; only a block split across calls is gathered.
    public mutating func append(stream bytes: UnsafeRawBufferPointer) {
        var offset = 0
        if !pending.isEmpty {
            let take = min(MerkleRules.blockSize - pending.count, bytes.count)
            pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[0..<take]))
            offset = take
            if pending.count == MerkleRules.blockSize {
                append(block: pending)
                pending.removeAll(keepingCapacity: true)
            }
        }
        while bytes.count - offset >= MerkleRules.blockSize {
            append(leafHash: MerkleRules.leafHash(UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + MerkleRules.blockSize)])))
            offset += MerkleRules.blockSize
        }
        if offset < bytes.count { pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[offset...])) }
    }

    /// The root of the leaves so far (a stream's short tail counts as its last block).
    public var root: [UInt8] {
        var copy = self
        copy.flushPending()
        guard var acc = copy.stack.last?.hash else { return MerkleRules.emptyRoot }
        for entry in copy.stack.dropLast().reversed() { acc = MerkleRules.nodeHash(entry.hash, acc) }
        return acc
    }

    public consuming func finish() -> MerkleTree {
        flushPending()
        let r = root
        return MerkleTree(verifiedLeafHashes: leaves, root: r)
    }

    private mutating func flushPending() {
        guard !pending.isEmpty else { return }
        let block = pending
        pending = []
        append(block: block)
    }
}
