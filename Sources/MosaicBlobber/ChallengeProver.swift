import Foundation
import MosaicProtocol
import MosaicStorageCore
import Synchronization

/// Builds a blobber's answers to ledger challenges from the files it holds.
///
/// A challenge names the root the ledger had when it was issued, which lags the blobber's own
/// root while write markers wait to be committed. So the prover remembers the file set behind
/// recent roots (`remember`, called just before markers go to the ledger and at every poll) and
/// proves against the set of the challenged root; block bytes come from any current fragment with
/// the same Merkle root (a moved or copied file still proves), else from the remembered one.
package final class ChallengeProver: Sendable {
    struct Snapshot: Sendable {
        let root: String
        let index: Int
        let files: [String: AllocationRecord.StoredFile]
    }

    package let server: BlobberServer
    /// Roots remembered per allocation, newest last.
    static let depth = 64
    private let history = Mutex<[String: [Snapshot]]>([:])

    package init(server: BlobberServer) { self.server = server }

    /// Remembers the current file set of `allocation` under its current root.
    package func remember(allocation: String) {
        guard let r = try? server.record(allocation) else { return }
        history.withLock { all in
            var list = all[allocation] ?? []
            if list.last?.root == r.root { return }
            list.removeAll { $0.root == r.root }
            list.append(Snapshot(root: r.root, index: r.index, files: r.files))
            if list.count > ChallengeProver.depth { list.removeFirst(list.count - ChallengeProver.depth) }
            all[allocation] = list
        }
    }

    /// Remembers every allocation this blobber stores.
    package func rememberAll() {
        // From the records in memory (the per-allocation JSON files of earlier versions are gone).
        for id in server.records.withLock({ Array($0.keys) }) { remember(allocation: id) }
    }

    /// The proof for `challenge`. When a block cannot be read (the fragment is gone or damaged) the
    /// proof carries an empty block, which the ledger rejects: an honest "cannot prove" that closes
    /// the challenge at once rather than at its deadline.
    package func proof(for challenge: Challenge) throws -> ChallengeProof {
        remember(allocation: challenge.allocationID)
        let current = try server.record(challenge.allocationID)
        let snapshot =
            history.withLock { $0[challenge.allocationID]?.last { $0.root == challenge.allocationRoot } }
            ?? Snapshot(root: current.root, index: current.index, files: current.files)
        let tree = try AllocationRoot.tree(of: snapshot.files.values.map(\.meta), index: snapshot.index)
        let index = snapshot.index
        let store = server.store
        let allocation = challenge.allocationID
        return try ChallengeProof.build(challengeID: challenge.id, tree: tree) { entry, blockIndex in
            var candidates = current.files.values.filter {
                $0.meta.kind == .file && $0.meta.fragmentRoots[safe: index] == entry.fragmentRoot
            }
            .compactMap(\.fragment)
            if let f = snapshot.files[entry.path]?.fragment { candidates.append(f) }
            for fragment in candidates {
                if let block = try? store.readBlocks(allocation: allocation, file: fragment, range: Int(blockIndex)..<Int(blockIndex) + 1)
                    .first
                {
                    return (block.data, block.proof.siblings)
                }
            }
            return ([], [])
        }
    }
}
