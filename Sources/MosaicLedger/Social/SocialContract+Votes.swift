import MosaicProtocol

/// `social.vote` (docs/SOCIAL.md §3): weight −10000…10000, 0 removes the vote; at most 5
/// changes, 3 seconds between a voter's votes, none after payout. A vote spends voting power
/// and its rshares are the voter's locked voting stake (`social.stake`, base units) × the power
/// spent / 10000; a vote locks that stake until the post's payout.
extension SocialContract {
    /// Args: `author`, `permlink`, `weight`, optional `voter` (default the caller; another user
    /// needs a grant with scope vote).
    func vote(_ context: ContractContext, _ a: ContractArgs) throws(ContractError) -> String {
        let store = SocialStore(reader: context)
        let voter = try a.optionalClientID("voter") ?? context.caller
        let author = try a.clientID("author")
        let permlink = try Self.permlink(a)
        let weight = try a.int64("weight")
        guard weight >= -SocialRules.maxVoteWeight, weight <= SocialRules.maxVoteWeight else {
            throw .invalidArguments("weight \(weight) is out of range: give -10000…10000 (10000 = a full upvote, 0 removes your vote)")
        }
        try authorize(context, store, actor: voter, scope: .vote)
        let now = context.now
        guard var post = try store.post(author, permlink) else { throw .refused(.notFound, "post \(author)/\(permlink) does not exist") }
        if post.paidOut {
            throw .refused(.expired, "post \(post.path) was paid out at \(UTCTime.iso8601(post.payoutAt)); votes are closed after payout")
        }
        var account = try store.account(voter)
        if let last = account.lastVote, now < saturatingAdd(last, SocialRules.voteInterval) {
            throw .refused(
                .rateLimited,
                "votes must be at least 3 seconds apart: your last was at \(UTCTime.iso8601(last)); vote again at \(Self.when(saturatingAdd(last, SocialRules.voteInterval), now: now))"
            )
        }
        let old = try store.vote(author, permlink, voter)
        if let old {
            if Int64(old.weight) == weight {
                throw .refused(
                    .alreadyExists,
                    weight == 0 ? "your vote on \(post.path) is already removed" : "your vote on \(post.path) already has weight \(weight)")
            }
            guard old.changes < SocialRules.maxVoteChanges else {
                throw .refused(
                    .limitExceeded,
                    "your vote on \(post.path) was changed \(old.changes) times already; at most \(SocialRules.maxVoteChanges) changes are allowed"
                )
            }
        } else if weight == 0 {
            throw .refused(.notFound, "weight 0 removes a vote, but you have not voted on \(post.path)")
        }

        // Voting power: regenerate, then spend 2 % of it for a full vote (rounded up).
        if account.created == nil {
            account.created = now
            account.powerTime = now
        }
        let power = account.power(at: now)
        let used = Self.powerUsed(power: power, weight: weight)
        var stake = try store.stake(voter)
        let rshares = Self.rshares(stake: stake.amount, used: used, weight: weight)
        account.power = power - used
        account.powerTime = now
        account.lastVote = now
        try saveAccount(context, voter, account)
        if weight != 0, stake.amount > 0, (stake.lockedUntil ?? .min) < post.payoutAt {
            // The stake that counted stays until this post pays out (votes close then).
            stake.lockedUntil = post.payoutAt
            try context.set(SocialKeys.stake(voter), try SocialCodec.encodeJSON(stake))
        }

        let before = post
        let (sum, overflow) = post.netRshares.subtractingReportingOverflow(old?.rshares ?? 0).partialValue
            .addingReportingOverflow(rshares)
        guard !overflow else { throw .refused(.overflow, "net rshares of \(post.path) would overflow") }
        post.netRshares = sum
        if let old, old.weight != 0, post.voteCount > 0 { post.voteCount -= 1 }
        if weight != 0, post.voteCount < UInt32.max { post.voteCount += 1 }
        if post.isRoot {
            post.trendingScore = SocialScore.trending(rshares: post.netRshares, created: post.created)
            post.hotScore = SocialScore.hot(rshares: post.netRshares, created: post.created)
        }
        try save(context, post, replacing: before)
        try recordVote(
            context, store, before: before, after: post, oldRshares: old?.rshares ?? 0, rshares: rshares, voter: voter, removed: weight == 0
        )
        let record = SocialVote(
            voter: voter, author: author, permlink: permlink, weight: Int32(weight), rshares: rshares,
            changes: old.map { $0.changes + 1 } ?? 0, time: now)
        try context.set(SocialKeys.vote(author, permlink, voter), try SocialCodec.encodeJSON(record))
        try context.emit(
            "vote", ["voter": voter, "author": author, "permlink": permlink, "weight": String(weight), "rshares": String(rshares)])
        if weight != 0, stake.amount == 0 {
            return
                "voted \(weight) on \(post.path): 0 rshares (votes count the voting stake and this account has none; lock tokens with social.stake)"
        }
        return weight == 0 ? "removed vote on \(post.path)" : "voted \(weight) on \(post.path): \(rshares) rshares"
    }

    /// What a vote changes beyond the post: the author's reputation (net rshares received), the
    /// payout window's and the post's positive rshares (the reward split, §8), and the voter's
    /// list of votes.
    func recordVote(
        _ context: ContractContext, _ store: SocialStore, before: SocialPost, after: SocialPost, oldRshares: Int64,
        rshares: Int64, voter: String, removed: Bool
    ) throws(ContractError) {
        let delta = rshares.subtractingReportingOverflow(oldRshares)
        if !delta.overflow, delta.partialValue != 0 {
            var author = try store.account(after.author)
            let (rep, o) = (author.reputation ?? 0).addingReportingOverflow(delta.partialValue)
            author.reputation = o ? (delta.partialValue > 0 ? .max : .min) : rep
            try saveAccount(context, after.author, author)
        }
        let wasPositive = UInt64(max(0, before.netRshares))
        let isPositive = UInt64(max(0, after.netRshares))
        if wasPositive != isPositive {
            let index = SocialRewards.window(of: after.payoutAt)
            var window = try store.window(index) ?? SocialRewardWindow()
            window.rshares = Self.moved(window.rshares, from: wasPositive, to: isPositive)
            try context.set(SocialKeys.window(index), try SocialCodec.encodeJSON(window))
        }
        let wasUp = UInt64(max(0, oldRshares))
        let isUp = UInt64(max(0, rshares))
        if wasUp != isUp {
            let up = Self.moved(try store.upRshares(after.author, after.permlink), from: wasUp, to: isUp)
            try context.set(SocialKeys.upRshares(after.author, after.permlink), up == 0 ? nil : Array(String(up).utf8))
        }
        let key = SocialKeys.accountVote(voter, after)
        try context.set(key, removed ? nil : Array(after.path.utf8))
    }

    /// `total − old + new`, never below 0 nor past UInt64.max.
    static func moved(_ total: UInt64, from old: UInt64, to new: UInt64) -> UInt64 {
        let less = total >= old ? total - old : 0
        let (sum, o) = less.addingReportingOverflow(new)
        return o ? .max : sum
    }

    /// Power a vote spends: ⌈power × |weight| / 10000 / 50⌉ (a full vote spends 2 % of the
    /// current power); nothing for weight 0.
    static func powerUsed(power: UInt32, weight: Int64) -> UInt32 {
        guard weight != 0 else { return 0 }
        let share = Int64(power) * weight.magnitude.asInt64 / 10_000
        return UInt32(min(Int64(power), (share + 49) / 50))
    }

    /// `sign(weight) × stake × used / 10000`, in 128-bit arithmetic (fits Int64: used ≤ 200).
    static func rshares(stake: UInt64, used: UInt32, weight: Int64) -> Int64 {
        let magnitude = UInt128(stake) * UInt128(used) / 10_000
        let clamped = Int64(min(magnitude, UInt128(Int64.max)))
        return weight < 0 ? -clamped : clamped
    }
}

extension UInt64 {
    fileprivate var asInt64: Int64 { Int64(clamping: self) }
}
