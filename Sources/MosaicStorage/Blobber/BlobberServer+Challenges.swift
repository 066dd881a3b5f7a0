import Foundation
import MosaicProtocol

/// Proofs of storage: the blobber builds the answer to a ledger challenge from the files it holds
/// (the allocation tree of its records, one block of one fragment with its Merkle path).
extension BlobberServer {
    /// The proof for `challenge` from what is on disk now. When a block cannot be read (the
    /// fragment is gone or damaged) the proof carries an empty block, which the ledger rejects:
    /// an honest "cannot prove" that closes the challenge at once instead of at its deadline.
    /// A root newer than the challenged one (markers not yet committed) also fails to verify.
    public func challengeProof(for challenge: Challenge) throws -> ChallengeProof {
        let r = try record(challenge.allocationID)
        let tree = try AllocationRoot.tree(of: r.files.values.map(\.meta), index: r.index)
        let files = r.files
        let allocation = r.assignment.allocationID
        return try ChallengeProof.build(challengeID: challenge.id, tree: tree) { entry, blockIndex in
            guard let fragment = files[entry.path]?.fragment,
                  let blocks = try? store.readBlocks(allocation: allocation, file: fragment, range: Int(blockIndex)..<Int(blockIndex) + 1),
                  let block = blocks.first else {
                return ([], [])
            }
            return (block.data, block.proof.siblings)
        }
    }
}
