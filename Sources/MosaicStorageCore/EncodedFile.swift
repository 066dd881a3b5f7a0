import MosaicProtocol

/// What an upload produces and a download needs: the layout and the Merkle root of each of the
/// d + p fragment streams. The SDK signs this (with the wrapped key) as the file's metadata.
package struct EncodedFile: Sendable, Equatable, Codable {
    public let layout: FileLayout
    public let fragmentRoots: [[UInt8]]

    public init(layout: FileLayout, fragmentRoots: [[UInt8]]) throws {
        guard fragmentRoots.count == layout.totalShards else {
            throw StorageError.invalidRootCount(expected: layout.totalShards, got: fragmentRoots.count)
        }
        guard fragmentRoots.allSatisfy({ $0.count == MerkleRules.hashSize }) else {
            throw StorageError.invalidLeafHashes(byteCount: fragmentRoots.first { $0.count != MerkleRules.hashSize }?.count ?? 0)
        }
        self.layout = layout
        self.fragmentRoots = fragmentRoots
    }
}
