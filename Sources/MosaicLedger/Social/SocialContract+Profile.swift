import MosaicProtocol

/// Identity (docs/SOCIAL.md §8): `set_profile` and the account views — one account, several at
/// once (by client id or profile name), an account's posts, replies and votes.
extension SocialContract {
    /// Args: `name` (3–32 of [a-z0-9-], unique; optional once the account has one), `about`
    /// (≤ 512 bytes, optional: kept when absent). Only the account itself sets its profile (an
    /// app's grant does not cover it).
    func setProfile(_ context: ContractContext, _ a: ContractArgs) throws(ContractError) -> String {
        let store = SocialStore(reader: context)
        let old = try store.profile(context.caller)
        let givenName = try a.optionalString("name")
        let givenAbout = try a.optionalString("about")
        guard givenName != nil || givenAbout != nil else {
            throw .invalidArguments("nothing to change: give \"name\" (3–32 characters of a-z, 0-9 and -) and/or \"about\"")
        }
        guard let name = givenName ?? old?.name else {
            throw .invalidArguments("a first profile needs a \"name\" (3–32 characters of a-z, 0-9 and -)")
        }
        guard SocialProfile.isValidName(name) else {
            throw .invalidArguments("name \"\(name.prefix(40))\" must be 3–32 characters of a-z, 0-9 and -")
        }
        let about = givenAbout ?? old?.about ?? ""
        if let problem = SocialProfile.aboutProblem(about) { throw .invalidArguments(problem) }
        if let owner = try store.nameOwner(name), owner != context.caller {
            throw .refused(.alreadyExists, "the name \(name) is taken by \(owner); choose another name")
        }
        if let old, old.name != name { try context.set(SocialKeys.name(old.name), nil) }
        let profile = SocialProfile(name: name, about: about, updated: context.now)
        try context.set(SocialKeys.profile(context.caller), try SocialCodec.encodeJSON(profile))
        try context.set(SocialKeys.name(name), Array(context.caller.utf8))
        try context.emit("profile", ["account": context.caller, "name": name])
        return old == nil ? "set the profile of \(name)" : "updated the profile of \(name)"
    }

    /// `account`: arg `client_id` or `name`. An unknown name is an error; any client id has an
    /// account (empty before its first action).
    func accountView(_ store: SocialStore, _ a: ContractArgs) throws(ContractError) -> JSONValue {
        if let id = try a.optionalString("client_id") { return try Self.accountJSON(store, try Self.accountID(store, id)) }
        guard let name = try a.optionalString("name") else { throw .invalidArguments("give \"client_id\" or \"name\"") }
        return try Self.accountJSON(store, try Self.accountID(store, name))
    }

    /// `accounts`: arg `accounts`, an array of client ids or profile names (1–100); like the
    /// anchor's get_accounts. `{"accounts":[…] in the order asked,"missing":[names not found]}`.
    func accountsView(_ store: SocialStore, _ a: ContractArgs) throws(ContractError) -> JSONValue {
        let asked = try a.optionalStrings("accounts") ?? []
        guard !asked.isEmpty, asked.count <= SocialRules.maxAccountsPerRead else {
            throw .invalidArguments("\"accounts\" must list 1–\(SocialRules.maxAccountsPerRead) client ids or names (got \(asked.count))")
        }
        var out: [JSONValue] = []
        var missing: [JSONValue] = []
        for item in asked {
            if Transaction.isHexID(item) {
                out.append(try Self.accountJSON(store, item))
                continue
            }
            if let id = try store.nameOwner(item) { out.append(try Self.accountJSON(store, id)) } else { missing.append(.string(item)) }
        }
        return .object(["accounts": .array(out), "missing": .array(missing)])
    }

    /// `account_posts`: args `client_id` or `name`, `kind` (posts | replies, default posts),
    /// `limit` (1–100, default 20), `start` (the `next` of the previous page), `truncate_body`
    /// (default 1,024). Newest first, each with its reward once paid.
    func accountPostsView(_ store: SocialStore, _ a: ContractArgs) throws(ContractError) -> JSONValue {
        let id = try Self.accountID(store, a)
        let kind = try a.optionalString("kind") ?? "posts"
        guard kind == "posts" || kind == "replies" else {
            throw .invalidArguments("kind \"\(kind.prefix(20))\" is unknown: use posts or replies")
        }
        let limit = try Self.limit(a, default: 20)
        let given = try a.optionalInt64("truncate_body")
        let bodyLimit = given == nil ? SocialCodec.cardBodyBytes : try Self.bodyLimit(a)
        let prefix = SocialKeys.accountPosts(id, replies: kind == "replies")
        let after = try Self.pageStart(a, prefix: prefix)
        let rows = try store.reader.scan(prefix: prefix, after: after, limit: limit + 1, reverse: false)
        var out: [JSONValue] = []
        for row in rows.prefix(limit) {
            guard let post = try store.post(path: row.value, bodyLimit: bodyLimit) else { continue }
            out.append(try Self.withReward(store, post))
        }
        return .object(["client_id": .string(id), "kind": .string(kind), "posts": .array(out), "next": Self.next(rows, limit, prefix)])
    }

    /// `account_votes`: args `client_id` or `name`, `limit` (1–100, default 20), `start`. The
    /// account's current votes, on the newest posts first, each with the post's title and root.
    func accountVotesView(_ store: SocialStore, _ a: ContractArgs) throws(ContractError) -> JSONValue {
        let id = try Self.accountID(store, a)
        let limit = try Self.limit(a, default: 20)
        let prefix = SocialKeys.accountVotes(id)
        let after = try Self.pageStart(a, prefix: prefix)
        let rows = try store.reader.scan(prefix: prefix, after: after, limit: limit + 1, reverse: false)
        var out: [JSONValue] = []
        for row in rows.prefix(limit) {
            let path = String(decoding: row.value, as: UTF8.self)
            guard let slash = path.firstIndex(of: "/"), let post = try store.post(path: row.value, bodyLimit: 1),
                let vote = try store.vote(String(path[..<slash]), String(path[path.index(after: slash)...]), id)
            else { continue }
            guard case .object(var o) = vote.jsonValue else { continue }
            o["title"] = .string(post.title)
            o["is_reply"] = .bool(!post.isRoot)
            o["paid_out"] = .bool(post.paidOut)
            out.append(.object(o))
        }
        return .object(["client_id": .string(id), "votes": .array(out), "next": Self.next(rows, limit, prefix)])
    }

    // MARK: Helpers

    /// The account a view names with `client_id` or `name`.
    static func accountID(_ store: SocialStore, _ a: ContractArgs) throws(ContractError) -> String {
        if let id = try a.optionalString("client_id") { return try accountID(store, id) }
        return try accountID(store, try a.string("name"))
    }

    /// A client id as given, or the owner of a profile name.
    static func accountID(_ store: SocialStore, _ idOrName: String) throws(ContractError) -> String {
        if Transaction.isHexID(idOrName) { return idOrName }
        guard SocialProfile.isValidName(idOrName) else {
            throw .invalidArguments("\"\(idOrName.prefix(70))\" is neither a client id (64 lowercase hex characters) nor a profile name")
        }
        guard let id = try store.nameOwner(idOrName) else { throw .invalidArguments("no account has the name \(idOrName)") }
        return id
    }

    /// The `account` view of one account: activity, stake, profile, reputation, rewards.
    static func accountJSON(_ store: SocialStore, _ id: String) throws(ContractError) -> JSONValue {
        let state = try store.account(id)
        let acct = state.view(id, now: store.now, stake: try store.stake(id))
        let profile = try store.profile(id)
        let rewards = try store.rewards(id)
        let rep = state.reputation ?? 0
        let next = state.lastRootPost.map { $0 + SocialRules.rootPostInterval }.flatMap { $0 > store.now ? $0 : nil }
        return .object([
            "client_id": .string(acct.clientID), "post_count": .integer(Int64(clamping: acct.postCount)),
            "stake": .integer(Int64(clamping: acct.stake)),
            "stake_locked_until": acct.stakeLockedUntil.map(JSONValue.integer) ?? .null,
            "voting_power": .integer(Int64(acct.votingPower)), "created": acct.created.map(JSONValue.integer) ?? .null,
            "last_root_post": acct.lastRootPost.map(JSONValue.integer) ?? .null,
            "last_reply": acct.lastReply.map(JSONValue.integer) ?? .null,
            "last_vote": acct.lastVote.map(JSONValue.integer) ?? .null,
            "next_root_post_at": next.map(JSONValue.integer) ?? .null,
            "name": profile.map { .string($0.name) } ?? .null, "about": profile.map { .string($0.about) } ?? .null,
            "reputation": .integer(rep), "reputation_score": .integer(reputationScore(rep)),
            "rewards": .object([
                "pending": .integer(Int64(clamping: rewards.pending)), "author": .integer(Int64(clamping: rewards.author)),
                "curation": .integer(Int64(clamping: rewards.curation)), "claimed": .integer(Int64(clamping: rewards.claimed)),
            ]),
        ])
    }

    /// The familiar reputation scale: 25 + sign(r) × 9 × max(0, log10|r| − 9), in integers
    /// (`log10Fixed`, truncated): 25 for a new account, 34 at 10^10 net rshares received.
    static func reputationScore(_ r: Int64) -> Int64 {
        let order = SocialScore.log10Fixed(r.magnitude) - 9 * 10_000_000
        guard order > 0 else { return 25 }
        let v = order * 9 / 10_000_000
        return r < 0 ? 25 - v : 25 + v
    }

    /// The post as a view result with its author's name, reward (once paid) or pending estimate.
    static func withReward(_ store: SocialStore, _ post: SocialPost) throws(ContractError) -> JSONValue {
        guard case .object(var o) = post.jsonValue else { return post.jsonValue }
        if let name = try store.profile(post.author)?.name { o["author_name"] = .string(name) }
        if let r = try store.load(SocialKeys.postReward(post.author, post.permlink), as: SocialPostReward.self) {
            o["reward"] = .object([
                "author": .integer(Int64(clamping: r.author)), "curation": .integer(Int64(clamping: r.curation)),
                "paid_at": .integer(r.paidAt),
            ])
        } else if let estimate = try estimatedReward(store, post) {
            o["pending_reward"] = .integer(Int64(clamping: estimate))
        }
        return .object(o)
    }

    /// What the post would get if its window closed now: the window's release share by its rshares.
    static func estimatedReward(_ store: SocialStore, _ post: SocialPost) throws(ContractError) -> UInt64? {
        guard post.netRshares > 0, let window = try store.window(SocialRewards.window(of: post.payoutAt)), window.rshares > 0 else {
            return nil
        }
        let free = try store.pool().free
        let release = window.release ?? SocialRewards.release(free: free, window: window)
        return SocialRewards.share(release, UInt64(post.netRshares), of: window.rshares)
    }

    /// The key a page continues after: `start` is the previous page's `next` (the key's tail).
    static func pageStart(_ a: ContractArgs, prefix: String) throws(ContractError) -> String? {
        guard let start = try a.optionalString("start"), !start.isEmpty else { return nil }
        guard start.utf8.count <= 400, !start.contains("\0") else {
            throw .invalidArguments("\"start\" must be the \"next\" of a previous page")
        }
        return prefix + start
    }

    static func next(_ rows: [ContractEntry], _ limit: Int, _ prefix: String) -> JSONValue {
        rows.count > limit ? .string(String(rows[limit - 1].key.dropFirst(prefix.count))) : .null
    }
}
