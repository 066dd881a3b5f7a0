import MosaicCrypto
import MosaicProtocol

extension StorageContract {
    /// End of block: fail open challenges past their deadline (in deadline order, at most
    /// `closePerBlock`; the rest in the next blocks), then maybe issue one. seed =
    /// `Challenge.seed(previous block hash, round)`; its hex is the challenge id. A challenge is
    /// issued when word 3 of the seed mod `challenge_every_blocks` is 0; it targets the
    /// challengeable pair at position word 2 mod count (every pair equally likely), unless that
    /// pair already has an open challenge. A pair whose allocation ended or expired is dropped
    /// from the set instead. Every step reads a bounded number of keys, whatever the number of
    /// allocations or challenges.
    func runChallenges(_ state: StorageState, previousBlockHash: String) throws(ContractError) {
        let c = state.context
        // Keys sort by deadline: read a few at a time and stop at the first not yet due.
        var closed = 0
        closing: while closed < StorageContract.closePerBlock {
            let rows = try c.scan(prefix: StorageState.openPrefix, after: nil, limit: 8)
            for row in rows {
                let id = String(decoding: row.value, as: UTF8.self)
                guard let ch = try state.challenge(id), ch.status == .open else {
                    try c.set(row.key, nil)
                    closed += 1
                    continue
                }
                guard ch.deadline < c.now else { break closing }
                try resolve(state, ch, passed: false, reason: "no answer before the deadline \(UTCTime.iso8601(ch.deadline))")
                closed += 1
            }
            if rows.count < 8 { break }
        }
        let id = Hex.encode(Challenge.seed(previousBlockHash: previousBlockHash, round: c.round))
        guard config.challengeEveryBlocks > 0, Challenge.word(id, 3) % config.challengeEveryBlocks == 0 else { return }
        let count = try state.challengeableCount()
        guard count > 0, let pair = try state.challengeable(at: Challenge.word(id, 2) % count) else { return }
        let parts = pair.split(separator: ":").map(String.init)
        guard parts.count == 2 else { return }
        guard let alloc = try state.load(StorageState.allocationKey(parts[0]), as: Allocation.self),
            alloc.status == .active, c.now < alloc.expiration, let bi = alloc.index(of: parts[1]),
            alloc.blobbers[bi].allocationRoot != AllocationTree.emptyRoot
        else {
            try state.setChallengeable(parts[0], parts[1], false)
            return
        }
        let pairKey = StorageState.openPairKey(alloc.id, parts[1])
        guard try c.get(pairKey) == nil, try state.challenge(id) == nil else { return }
        let ch = Challenge(
            id: id, allocationID: alloc.id, blobberID: parts[1], allocationRoot: alloc.blobbers[bi].allocationRoot,
            issuedRound: c.round, issuedAt: c.now,
            deadline: saturatingAdd(c.now, config.challengeTimeoutSeconds))
        try state.save(ch)
        try c.set(StorageState.openKey(deadline: ch.deadline, id: id), Array(id.utf8))
        try c.set(pairKey, Array(id.utf8))
    }

    /// Open challenges an end of block fails at most (deadline order; later ones wait a block).
    static let closePerBlock = 100

    /// `respond_challenge(challenge_id, proof: ChallengeProof)`, caller = the challenged blobber.
    /// A proof that does not verify (or comes after the deadline) fails the challenge; the call
    /// itself succeeds so the failure is recorded.
    func respondChallenge(_ state: StorageState, _ a: ContractArgs) throws(ContractError) -> String {
        let c = state.context
        let id = try a.id("challenge_id")
        guard let ch = try state.challenge(id) else { throw .refused(.notFound, "no challenge \(id)") }
        guard ch.blobberID == c.caller else { throw .refused(.notOwner, "challenge \(id) is for blobber \(ch.blobberID), not the caller") }
        guard ch.status == .open else { throw .refused(.invalidState, "challenge \(id) is already \(ch.status.rawValue)") }
        let proof = try a.decode("proof", as: ChallengeProof.self)
        try c.consumeGas(1000 + UInt64(proof.block.utf8.count / 16) + 100 * UInt64(proof.entrySteps.count + proof.blockSiblings.count))
        if c.now > ch.deadline {
            try resolve(state, ch, passed: false, reason: "answered after the deadline \(UTCTime.iso8601(ch.deadline))")
            return "challenge \(id) failed: answered after the deadline"
        }
        do {
            try proof.verify(challengeID: id, allocationRoot: ch.allocationRoot)
        } catch {
            try resolve(state, ch, passed: false, reason: error.description)
            return "challenge \(id) failed: \(error)"
        }
        let amount = try resolve(state, ch, passed: true, reason: "")
        return "challenge \(id) passed; paid \(tokens(amount))"
    }

    /// Closes a challenge. Pass: the blobber is paid what its challenge pool earned since the last
    /// payment. Fail: that amount returns to the write pool and `challenge_penalty` (at most the
    /// stake) is slashed from the stake into the write pool. Once the allocation is canceled or
    /// finalized, a challenge closes without counting and moves no tokens. Returns the amount paid
    /// or slashed.
    @discardableResult
    func resolve(_ state: StorageState, _ challenge: Challenge, passed: Bool, reason: String) throws(ContractError) -> UInt64 {
        let c = state.context
        var ch = challenge
        ch.status = passed ? .passed : .failed
        ch.closedAt = c.now
        ch.reason = reason
        try c.set(StorageState.openKey(deadline: ch.deadline, id: ch.id), nil)
        try c.set(StorageState.openPairKey(ch.allocationID, ch.blobberID), nil)

        var alloc = try state.allocation(ch.allocationID)
        var blobber = try state.blobber(ch.blobberID)
        if alloc.status != .active {
            // The allocation ended while the challenge was open: close it without counting it.
            ch.reason =
                reason.isEmpty
                ? "allocation \(alloc.status.rawValue); not counted" : "\(reason) (allocation \(alloc.status.rawValue); not counted)"
            try state.save(ch)
            return 0
        }
        if passed {
            alloc.successfulChallenges = incremented(alloc.successfulChallenges)
            if var b = blobber {
                b.successfulChallenges = incremented(b.successfulChallenges)
                blobber = b
            }
        } else {
            alloc.failedChallenges = incremented(alloc.failedChallenges)
            if var b = blobber {
                b.failedChallenges = incremented(b.failedChallenges)
                blobber = b
            }
        }
        alloc.latestClosedChallenge = c.now
        if let bi = alloc.index(of: ch.blobberID) {
            let earned = StorageContract.earned(alloc.blobbers[bi], expiration: alloc.expiration, now: c.now)
            alloc.blobbers[bi].challengePool -= earned
            alloc.blobbers[bi].challengePoolSince = c.now
            alloc.challengePool = try checkedSub(alloc.challengePool, earned, "challenge pool")
            if passed {
                try c.pay(earned, to: ch.blobberID)
                if var b = blobber {
                    b.rewards = try checkedAdd(b.rewards, earned, "rewards")
                    blobber = b
                }
                ch.amount = earned
            } else {
                alloc.writePool = try checkedAdd(alloc.writePool, earned, "write pool")
                if var b = blobber {
                    let slash = min(b.stake, config.challengePenalty)
                    b.stake -= slash
                    b.penalties = try checkedAdd(b.penalties, slash, "penalties")
                    alloc.writePool = try checkedAdd(alloc.writePool, slash, "write pool")
                    ch.amount = slash
                    blobber = b
                }
            }
        }
        try state.save(alloc)
        if let blobber { try state.save(blobber) }
        try state.save(ch)
        try c.emit(
            passed ? "challenge_passed" : "challenge_failed",
            ["challenge": ch.id, "allocation": ch.allocationID, "blobber": ch.blobberID, "amount": String(ch.amount)])
        return ch.amount
    }
}
