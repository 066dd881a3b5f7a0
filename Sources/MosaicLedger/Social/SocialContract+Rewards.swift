import MosaicProtocol

/// Rewards (docs/SOCIAL.md §8). The pool is the part of the contract's balance that is neither a
/// voting stake nor already credited: set in genesis (an allocation to the contract's address)
/// and grown by anything sent to that address. Posts and replies are paid by payout window, the
/// hour holding their payout time: when it closes (votes are closed on all its posts by then), it
/// releases `shareBps` of the free pool, each post gets the release × its net rshares / the
/// window's, its curators `curationBps` of that by their vote's rshares, the author the rest.
/// Credits are integers rounded down; what rounding leaves stays in the pool. Credited tokens
/// stay in the contract until the account claims them (`claim_rewards`), a transaction in its history.
extension SocialContract {
    /// `claim_rewards`: pays the caller everything credited to it.
    func claimRewards(_ context: ContractContext, _ a: ContractArgs) throws(ContractError) -> String {
        let store = SocialStore(reader: context)
        var rewards = try store.rewards(context.caller)
        guard rewards.pending > 0 else {
            throw .refused(
                .notEligible, "this account has no rewards to claim; rewards are credited when a voted post's payout window closes")
        }
        let amount = rewards.pending
        var pool = try store.pool()
        pool.pending = pool.pending >= amount ? pool.pending - amount : 0
        rewards.pending = 0
        rewards.claimed = rewards.claimed.addingReportingOverflow(amount).overflow ? .max : rewards.claimed + amount
        try context.set(SocialKeys.rewards(context.caller), try SocialCodec.encodeJSON(rewards))
        try context.set(SocialKeys.pool, try SocialCodec.encodeJSON(pool))
        try context.pay(amount, to: context.caller)
        try context.emit("claim_rewards", ["account": context.caller, "to": context.caller, "amount": String(amount)])
        return "claimed \(TokenAmount(baseUnits: amount)) of rewards"
    }

    /// `rewards`: no args; the pool (`SocialRewardPool`) as of the last block.
    func rewardsView(_ store: SocialStore, _ a: ContractArgs) throws(ContractError) -> JSONValue {
        let p = try store.pool()
        return .object([
            "free": .integer(Int64(clamping: p.free)), "reserved": .integer(Int64(clamping: p.reserved)),
            "pending": .integer(Int64(clamping: p.pending)), "staked": .integer(Int64(clamping: p.staked)),
            "share_bps": .integer(Int64(SocialRules.rewardShareBps)), "curation_bps": .integer(Int64(SocialRules.curationBps)),
            "window_seconds": .integer(SocialRules.rewardWindowSeconds),
        ])
    }

    /// The end-of-block turn: counts the pool from the contract's balance, then pays the posts
    /// whose window closed, oldest first, while gas lasts (a post with many voters is paid over
    /// several blocks, 100 curators a step, from `pc`), and takes them out of trending and hot.
    func payOut(_ context: ContractContext) throws(ContractError) {
        let store = SocialStore(reader: context)
        var pool = try store.pool()
        let before = pool
        let balance = try context.balance(of: context.address)
        let held = pool.reserved.saturatingAdd(pool.pending).saturatingAdd(pool.staked)
        pool.free = balance > held ? balance - held : 0
        // Each step below costs well under 200,000 gas.
        while context.gasUsed + 200_000 < context.gasLimit {
            if let cursor = try store.load(SocialKeys.payoutCursor, as: SocialPayoutCursor.self) {
                try payCurators(context, store, &pool, cursor)
                continue
            }
            guard let entry = try context.scan(prefix: SocialKeys.payoutPrefix, after: nil, limit: 1, reverse: false).first,
                Self.isDue(entry.key, now: context.now)
            else { break }
            try startPayout(context, store, &pool, entry)
        }
        if pool != before { try context.set(SocialKeys.pool, try SocialCodec.encodeJSON(pool)) }
    }

    /// A payout queue entry "q/<16 hex payout time>/…" is due once its payout window has closed.
    static func isDue(_ key: String, now: Int64) -> Bool {
        let hex = key.utf8.dropFirst(SocialKeys.payoutPrefix.utf8.count).prefix(16)
        guard let at = UInt64(String(decoding: hex, as: UTF8.self), radix: 16) else { return true }
        return SocialRewards.windowEnd(SocialRewards.window(of: Int64(clamping: at))) <= now
    }

    /// The first step of a post's payout: out of trending and hot, the window's release taken
    /// from the pool (at its first post), the author credited; curators next, or the post is done.
    private func startPayout(_ context: ContractContext, _ store: SocialStore, _ pool: inout SocialPoolState, _ entry: ContractEntry)
        throws(ContractError)
    {
        guard let post = try store.post(path: entry.value) else {
            try context.set(entry.key, nil)
            return
        }
        for key in SocialKeys.feedKeys(post, sorts: [.trending, .hot], ignoringPayout: true) { try context.set(key, nil) }
        let index = SocialRewards.window(of: post.payoutAt)
        var window = try store.window(index) ?? SocialRewardWindow()
        let release: UInt64
        if let r = window.release {
            release = r
        } else {
            release = SocialRewards.release(free: pool.free, window: window)
            window.release = release
            pool.free -= release
            pool.reserved = pool.reserved.saturatingAdd(release)
        }
        let total = SocialRewards.share(release, UInt64(max(0, post.netRshares)), of: window.rshares)
        let curation = SocialRewards.share(total, SocialRules.curationBps, of: 10_000)
        let authorPart = total - curation
        try credit(context, store, &pool, &window, post.author, authorPart, curation: false)
        let up = try store.upRshares(post.author, post.permlink)
        if curation > 0, up > 0 {
            try context.set(SocialKeys.window(index), try SocialCodec.encodeJSON(window))
            let cursor = SocialPayoutCursor(
                queueKey: entry.key, path: post.path, window: index, curation: curation, up: up,
                after: nil, paid: 0, author: authorPart)
            try context.set(SocialKeys.payoutCursor, try SocialCodec.encodeJSON(cursor))
        } else {
            try finish(context, &pool, &window, index: index, post: post, queueKey: entry.key, author: authorPart, curation: 0)
        }
    }

    /// One step of curator payments: up to 100 votes of the post in voter order.
    private func payCurators(_ context: ContractContext, _ store: SocialStore, _ pool: inout SocialPoolState, _ c: SocialPayoutCursor)
        throws(ContractError)
    {
        var cursor = c
        var window = try store.window(cursor.window) ?? SocialRewardWindow()
        guard let slash = cursor.path.firstIndex(of: "/") else {
            try context.set(SocialKeys.payoutCursor, nil)
            return
        }
        let author = String(cursor.path[..<slash])
        let permlink = String(cursor.path[cursor.path.index(after: slash)...])
        let prefix = SocialKeys.votes(author, permlink)
        let page = 100
        let rows = try context.scan(prefix: prefix, after: cursor.after.map { prefix + $0 }, limit: page, reverse: false)
        for row in rows {
            let vote = try SocialCodec.decodeJSON(row.value, as: SocialVote.self, key: row.key)
            cursor.after = String(row.key.dropFirst(prefix.count))
            guard vote.rshares > 0 else { continue }
            let amount = SocialRewards.share(cursor.curation, UInt64(vote.rshares), of: cursor.up)
            try credit(context, store, &pool, &window, vote.voter, amount, curation: true)
            cursor.paid = cursor.paid.saturatingAdd(amount)
        }
        if rows.count == page {
            try context.set(SocialKeys.window(cursor.window), try SocialCodec.encodeJSON(window))
            try context.set(SocialKeys.payoutCursor, try SocialCodec.encodeJSON(cursor))
            return
        }
        try context.set(SocialKeys.payoutCursor, nil)
        guard let post = try store.post(author, permlink) else {
            try context.set(cursor.queueKey, nil)
            return
        }
        try finish(
            context, &pool, &window, index: cursor.window, post: post, queueKey: cursor.queueKey, author: cursor.author,
            curation: cursor.paid)
    }

    /// Records the post's reward and leaves the queue; the window's last post returns what
    /// rounding left of the release to the free pool.
    private func finish(
        _ context: ContractContext, _ pool: inout SocialPoolState, _ window: inout SocialRewardWindow, index: UInt64,
        post: SocialPost, queueKey: String, author: UInt64, curation: UInt64
    ) throws(ContractError) {
        try context.set(
            SocialKeys.postReward(post.author, post.permlink),
            try SocialCodec.encodeJSON(SocialPostReward(author: author, curation: curation, paidAt: context.now)))
        try context.set(SocialKeys.upRshares(post.author, post.permlink), nil)
        try context.set(queueKey, nil)
        window.posts = window.posts > 0 ? window.posts - 1 : 0
        if window.posts == 0 {
            let left = (window.release ?? 0) > window.paid ? (window.release ?? 0) - window.paid : 0
            let back = min(left, pool.reserved)
            pool.reserved -= back
            pool.free = pool.free.saturatingAdd(back)
            try context.set(SocialKeys.window(index), nil)
        } else {
            try context.set(SocialKeys.window(index), try SocialCodec.encodeJSON(window))
        }
    }

    /// Moves `amount` from the window's release to the account's pending rewards.
    private func credit(
        _ context: ContractContext, _ store: SocialStore, _ pool: inout SocialPoolState, _ window: inout SocialRewardWindow,
        _ id: String, _ amount: UInt64, curation: Bool
    ) throws(ContractError) {
        guard amount > 0 else { return }
        let moved = min(amount, pool.reserved)
        var r = try store.rewards(id)
        r.pending = r.pending.saturatingAdd(moved)
        if curation { r.curation = r.curation.saturatingAdd(moved) } else { r.author = r.author.saturatingAdd(moved) }
        try context.set(SocialKeys.rewards(id), try SocialCodec.encodeJSON(r))
        pool.reserved -= moved
        pool.pending = pool.pending.saturatingAdd(moved)
        window.paid = window.paid.saturatingAdd(moved)
    }
}

/// The reward arithmetic (docs/SOCIAL.md §8): integers only, every share rounded down.
enum SocialRewards {
    /// The payout window holding `payoutAt`: ⌊payoutAt / 3600⌋.
    static func window(of payoutAt: Int64) -> UInt64 { UInt64(max(0, payoutAt)) / UInt64(SocialRules.rewardWindowSeconds) }

    /// Ledger time the window closes: (index + 1) × 3600.
    static func windowEnd(_ index: UInt64) -> Int64 {
        let (end, overflow) = (index + 1).multipliedReportingOverflow(by: UInt64(SocialRules.rewardWindowSeconds))
        return overflow ? .max : Int64(clamping: end)
    }

    /// What a window releases from the free pool: ⌊free × shareBps / 10000⌋, nothing when no post of it has positive rshares.
    static func release(free: UInt64, window: SocialRewardWindow) -> UInt64 {
        guard window.rshares > 0 else { return 0 }
        return share(free, SocialRules.rewardShareBps, of: 10_000)
    }

    /// ⌊amount × part / whole⌋ in 128-bit arithmetic (0 when whole is 0; part is capped at whole).
    static func share(_ amount: UInt64, _ part: UInt64, of whole: UInt64) -> UInt64 {
        guard whole > 0 else { return 0 }
        return UInt64(UInt128(amount) * UInt128(min(part, whole)) / UInt128(whole))
    }
}

/// A payout window (key `w/<index>`): its posts still unpaid, the sum of their positive net
/// rshares (kept by `vote`), the release taken from the pool at its close, and what was credited.
struct SocialRewardWindow: Codable, Sendable, Equatable {
    var posts: UInt64 = 0
    var rshares: UInt64 = 0
    var release: UInt64?
    var paid: UInt64 = 0
}

/// Where the contract's tokens are (key `pool`); `free` is recounted from the balance each block.
struct SocialPoolState: Codable, Sendable, Equatable {
    var free: UInt64 = 0
    var reserved: UInt64 = 0
    var pending: UInt64 = 0
    var staked: UInt64 = 0
}

/// A post whose curators are being paid over several blocks (key `pc`).
struct SocialPayoutCursor: Codable, Sendable {
    var queueKey: String
    var path: String
    var window: UInt64
    var curation: UInt64
    var up: UInt64
    var after: String?
    var paid: UInt64
    var author: UInt64

    enum CodingKeys: String, CodingKey {
        case queueKey = "queue_key"
        case path, window, curation, up, after, paid, author
    }
}

extension UInt64 {
    fileprivate func saturatingAdd(_ other: UInt64) -> UInt64 {
        let (s, o) = addingReportingOverflow(other)
        return o ? .max : s
    }
}
