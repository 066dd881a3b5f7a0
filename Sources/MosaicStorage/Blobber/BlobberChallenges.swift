import Foundation
import MosaicCrypto
import MosaicProtocol

/// Proof of storage: the ledger challenges this blobber to show one block of one file of an
/// allocation, chosen from the challenge id, against the allocation root it committed. The answer
/// is the block, its path to the file's fragment root, and the entry's path to the allocation root.
extension BlobberServer {
    /// Answers every open challenge it can; returns the ones it could not answer (id → why).
    /// A challenge issued for a root this blobber has since moved past cannot be proven (commit
    /// write markers promptly so the ledger's root stays current).
    @discardableResult
    public func answerChallenges() async -> [String: String] {
        guard let ledger = configuration.ledger else { return [:] }
        var failures: [String: String] = [:]
        let open: [Challenge]
        do { open = try await ledger.openChallenges() } catch { return ["": "cannot read challenges: \(error)"] }
        for ch in open where ch.blobberID == blobberID && ch.status == .open {
            do {
                let proof = try proof(for: ch)
                try await ledger.respondChallenge(ch.id, proof: proof)
            } catch {
                failures[ch.id] = "\(error)"
            }
        }
        return failures
    }

    /// The two-level proof for a challenge, from the files this blobber holds now.
    func proof(for ch: Challenge) throws -> ChallengeProof {
        guard let r = records.withLock({ $0[ch.allocationID] }) else {
            throw StorageRequestError.notFound("allocation \(ch.allocationID) is not held here")
        }
        guard r.root == ch.allocationRoot else {
            throw StorageRequestError.conflict("challenge is for root \(ch.allocationRoot), this blobber is at \(r.root)")
        }
        let tree = try AllocationRoot.tree(of: r.files.values.map(\.meta), index: r.index)
        return try ChallengeProof.build(challengeID: ch.id, tree: tree) { entry, index in
            guard let fragment = r.files[entry.path]?.fragment else {
                throw StorageRequestError.notFound("no fragment stored for \(entry.path)")
            }
            let blocks = try store.readBlocks(allocation: ch.allocationID, file: fragment, range: Int(index)..<Int(index) + 1)
            guard let block = blocks.first else { throw StorageRequestError.notFound("block \(index) of \(entry.path) is missing") }
            return (block.data, block.proof.siblings)
        }
    }
}
