/// One block of a fragment stream and its Merkle path, as a blobber serves it.
package struct FragmentBlock: Sendable, Equatable {
    public let data: [UInt8]
    public let proof: MerkleProof

    public init(data: [UInt8], proof: MerkleProof) {
        self.data = data
        self.proof = proof
    }
}

/// Where a download reads fragment stream i from. It may fail or lie: the decoder checks every
/// block against the fragment's root and switches to another source when one misbehaves.
package protocol FragmentSource: Sendable {
    /// Blocks `range` (Merkle leaf indices = chunk indices) in order; asking for several at once
    /// lets a network source batch them into one request.
    func blocks(_ range: Range<Int>) async throws -> [FragmentBlock]
}
