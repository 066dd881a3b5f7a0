import Foundation
import MosaicProtocol
import MosaicSDK
import MosaicStorageCore
import Synchronization

/// The blobber's side of proofs of storage: polls the node for this blobber's open challenges
/// and answers each once with `storage.respond_challenge`, the proof built from the fragments on
/// disk. Started with the blobber process; a missed deadline would cost the stake, so it polls
/// often (each poll is one cheap GET).
package final class ChallengeResponder: Sendable {
    package let server: BlobberServer
    package let prover: ChallengeProver
    package let wallet: Wallet
    package let interval: Duration
    private let answered = Mutex<Set<String>>([])
    private let task = Mutex<Task<Void, Never>?>(nil)
    private let log: (@Sendable (String) -> Void)?

    package init(server: BlobberServer, wallet: Wallet, interval: Duration = .seconds(1), log: (@Sendable (String) -> Void)? = nil) {
        self.server = server
        prover = ChallengeProver(server: server)
        self.wallet = wallet
        self.interval = interval
        self.log = log
    }

    package func start() {
        let t = Task { [weak self] in
            while !Task.isCancelled {
                guard let self else { return }
                _ = await self.respondOnce()
                try? await Task.sleep(for: self.interval)
            }
        }
        task.withLock {
            $0?.cancel()
            $0 = t
        }
    }

    package func stop() {
        task.withLock {
            $0?.cancel()
            $0 = nil
        }
    }

    /// Answers every open challenge not answered yet; returns the ids submitted now with the
    /// transaction hash, or the error that stopped the answer.
    @discardableResult
    package func respondOnce() async -> [String: String] {
        prover.rememberAll()
        let open: [Challenge]
        do { open = try await wallet.client.storageOpenChallenges(blobber: server.blobberID) } catch { return [:] }
        let openIDs = Set(open.map(\.id))
        let todo = answered.withLock { done -> [Challenge] in
            done.formIntersection(openIDs)
            let fresh = open.filter { !done.contains($0.id) }
            done.formUnion(fresh.map(\.id))
            return fresh
        }
        var out: [String: String] = [:]
        await withTaskGroup(of: (String, String).self) { group in
            for c in todo {
                group.addTask { [prover, wallet, log] in
                    do {
                        let proof = try prover.proof(for: c)
                        let view = try await wallet.respondChallenge(c.id, proof: proof)
                        return (c.id, view.hash)
                    } catch {
                        log?("challenge \(c.id) of allocation \(c.allocationID): cannot answer: \(error)")
                        return (c.id, "error: \(error)")
                    }
                }
            }
            for await (id, result) in group { out[id] = result }
        }
        // A failure to submit (node down) is retried at the next poll while the challenge is open.
        let failed = out.filter { $0.value.hasPrefix("error:") }.map(\.key)
        if !failed.isEmpty { answered.withLock { $0.subtract(failed) } }
        return out
    }
}
