/// The sibling hashes from one block to its fragment's root, bottom-up. `leafCount` is part of the
/// proof because it fixes where odd nodes were promoted (and so which levels carry no sibling).
///
/// Wire form (`encoded()`): u64 BE leafIndex ‖ u64 BE leafCount ‖ u8 sibling count ‖ 32 × siblings.
package struct MerkleProof: Sendable, Equatable, Codable {
    public let leafIndex: Int
    public let leafCount: Int
    public let siblings: [[UInt8]]

    public init(leafIndex: Int, leafCount: Int, siblings: [[UInt8]]) {
        self.leafIndex = leafIndex
        self.leafCount = leafCount
        self.siblings = siblings
    }

    /// Bytes of `encoded()`.
    public var encodedCount: Int { 17 + siblings.reduce(0) { $0 + $1.count } }

    public func encoded() -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(17 + 32 * siblings.count)
        appendBE(UInt64(leafIndex), to: &out)
        appendBE(UInt64(leafCount), to: &out)
        out.append(UInt8(siblings.count))
        for s in siblings { out.append(contentsOf: s) }
        return out
    }

    public init(encoded bytes: [UInt8]) throws {
        guard bytes.count >= 17 else { throw StorageError.invalidProofEncoding }
        let index = readBE(bytes, at: 0)
        let count = readBE(bytes, at: 8)
        let n = Int(bytes[16])
        guard bytes.count == 17 + 32 * n, index < count, count <= UInt64(Int.max) else { throw StorageError.invalidProofEncoding }
        leafIndex = Int(index)
        leafCount = Int(count)
        siblings = (0..<n).map { Array(bytes[(17 + 32 * $0)..<(17 + 32 * ($0 + 1))]) }
    }
}

package func appendBE(_ v: UInt64, to out: inout [UInt8]) {
    for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: v >> UInt64(shift))) }
}

package func readBE(_ bytes: [UInt8], at offset: Int) -> UInt64 {
    var v: UInt64 = 0
    for i in 0..<8 { v = v << 8 | UInt64(bytes[offset + i]) }
    return v
}
