import Foundation
import MosaicProtocol

/// The social network (docs/SOCIAL.md) through a node: free reads from the `social` contract's
/// views and signed operations (`social.*` contract calls) waited on until sealed.
///
///     let social = SocialClient(wallet: wallet)
///     let id = try await social.post(title: "Hello", body: "First post", tags: ["intro"])
///     try await social.vote(id, weight: 10_000)
///     let page = try await social.feed(.trending, limit: 20)
///     let more = try await social.feed(.trending, limit: 20, after: page)   // same round, no repeats
///
/// An app acts for a user who granted it scopes: `SocialClient(wallet: appWallet).acting(for: userID)`
/// signs with the app's key and names the user as author or voter; the ledger checks the grant.
///
/// Writes check the shape rules first (`SocialError.invalid`, nothing signed); the chain's
/// refusals come back as `SocialError.refused` with its message.
public struct SocialClient: Sendable {
    /// The node reads and writes go to.
    public let client: LedgerClient
    /// The wallet that signs writes; nil for a read-only client.
    public let wallet: Wallet?
    /// The user operations are made for when the wallet is an app's; nil: the wallet's own account.
    public let user: String?

    /// Read-only: feeds, posts, accounts, grants.
    /// - Parameter client: the node to read from.
    public init(client: LedgerClient) {
        self.client = client
        wallet = nil
        user = nil
    }

    /// Reads and writes as `wallet`'s account.
    /// - Parameter wallet: the wallet that signs (its node is used for reads).
    public init(wallet: Wallet) {
        client = wallet.client
        self.wallet = wallet
        user = nil
    }

    private init(client: LedgerClient, wallet: Wallet?, user: String?) {
        self.client = client
        self.wallet = wallet
        self.user = user
    }

    /// The same wallet (an app's) signing for `user`, who must have granted it the scopes used.
    /// - Parameter user: the user's client id.
    /// - Returns: a client whose writes name `user`.
    public func acting(for user: String) -> SocialClient { SocialClient(client: client, wallet: wallet, user: user) }

    /// The account operations are made for: `user`, else the wallet's own.
    public var actor: String? { user ?? wallet?.clientID }

    // MARK: Operations

    /// A root post in `category` (default: the first tag, else "general"). Without `permlink` one
    /// is made from the title (with "-<time>" appended if the author already used it).
    /// Returns the post's id once sealed.
    /// - Parameters:
    ///   - title: the post's title.
    ///   - body: its body (Markdown).
    ///   - tags: up to the contract's limit, 1–24 characters of a-z, 0-9 and - each.
    ///   - category: the post's category; nil takes the first tag or "general".
    ///   - permlink: the post's URL name; nil makes one.
    ///   - jsonMetadata: app data stored with the post.
    ///   - until: the status to wait for.
    /// - Returns: the post's id (author and permlink).
    /// - Throws: `SocialError.invalid` for a bad tag, category or permlink before anything is signed;
    ///   `.refused` with the contract's reason; `.wallet` when sending or waiting fails; `.noWallet`
    ///   on a read-only client.
    @discardableResult
    public func post(
        title: String, body: String, tags: [String] = [], category: String? = nil, permlink: String? = nil,
        jsonMetadata: String = "", until: TransactionStatus = .sealed
    ) async throws(SocialError) -> SocialPostID {
        let actor = try requireActor()
        let lowered = tags.map { $0.lowercased() }
        let cat = (category ?? lowered.first ?? "general").lowercased()
        guard SocialRules.isValidTag(cat) else {
            throw .invalid("category \"\(cat.prefix(40))\" must be 1–24 characters of a-z, 0-9 and -")
        }
        for t in lowered where !SocialRules.isValidTag(t) {
            throw .invalid("tag \"\(t.prefix(40))\" must be 1–24 characters of a-z, 0-9 and -")
        }
        let link = try await choosePermlink(permlink, author: actor, base: SocialRules.permlink(fromTitle: title))
        try checkShape(title: title, body: body, metadata: jsonMetadata)
        var args: [String: JSONValue] = [
            "permlink": .string(link), "parent_author": .string(""), "parent_permlink": .string(cat),
            "title": .string(title), "body": .string(body),
            "tags": .array(lowered.map(JSONValue.string)),
        ]
        if !jsonMetadata.isEmpty { args["json_metadata"] = .string(jsonMetadata) }
        _ = try await call("comment", args, author: actor, until: until)
        return SocialPostID(author: actor, permlink: link)
    }

    /// A reply to `parent`. Without `permlink` one is made: "re-<parent permlink>-<ledger time>".
    /// - Parameters:
    ///   - parent: the post replied to.
    ///   - body: the reply's body.
    ///   - title: an optional title.
    ///   - permlink: the reply's URL name; nil makes one.
    ///   - jsonMetadata: app data stored with it.
    ///   - until: the status to wait for.
    /// - Returns: the reply's id.
    /// - Throws: as `post`.
    @discardableResult
    public func reply(
        to parent: SocialPostID, body: String, title: String = "", permlink: String? = nil, jsonMetadata: String = "",
        until: TransactionStatus = .sealed
    ) async throws(SocialError) -> SocialPostID {
        let actor = try requireActor()
        let link: String
        if let permlink {
            link = try checkPermlink(permlink)
        } else {
            let time: Int64
            do { time = try await client.network().time } catch { throw .node(error) }
            link = "re-\(parent.permlink.prefix(200))-\(time)"
        }
        try checkShape(title: title, body: body, metadata: jsonMetadata)
        var args: [String: JSONValue] = [
            "permlink": .string(link), "parent_author": .string(parent.author),
            "parent_permlink": .string(parent.permlink), "title": .string(title), "body": .string(body),
        ]
        if !jsonMetadata.isEmpty { args["json_metadata"] = .string(jsonMetadata) }
        _ = try await call("comment", args, author: actor, until: until)
        return SocialPostID(author: actor, permlink: link)
    }

    /// Changes a post's title, body, metadata or tags (nil keeps it) before its payout.
    /// - Parameters:
    ///   - id: the post.
    ///   - title: the new title; nil keeps it.
    ///   - body: the new body; nil keeps it.
    ///   - jsonMetadata: the new metadata; nil keeps it.
    ///   - tags: the new tags; nil keeps them.
    ///   - until: the status to wait for.
    /// - Returns: the transaction once it is `until`.
    /// - Throws: `SocialError.invalid` when nothing changes, otherwise as `post`.
    @discardableResult
    public func edit(
        _ id: SocialPostID, title: String? = nil, body: String? = nil, jsonMetadata: String? = nil, tags: [String]? = nil,
        until: TransactionStatus = .sealed
    ) async throws(SocialError) -> TransactionView {
        _ = try requireActor()
        guard title != nil || body != nil || jsonMetadata != nil || tags != nil else {
            throw .invalid("nothing to change: give a new title, body, metadata or tags")
        }
        try checkShape(title: title ?? "", body: body ?? "x", metadata: jsonMetadata ?? "")
        var args: [String: JSONValue] = ["permlink": .string(id.permlink)]
        if let title { args["title"] = .string(title) }
        if let body { args["body"] = .string(body) }
        if let jsonMetadata { args["json_metadata"] = .string(jsonMetadata) }
        if let tags { args["tags"] = .array(tags.map { .string($0.lowercased()) }) }
        return try await call("edit", args, author: id.author, until: until)
    }

    /// Votes on a post: `weight` −10000…10000 (10000 a full upvote, negative a downvote, 0
    /// removes the vote).
    /// - Parameters:
    ///   - id: the post.
    ///   - weight: −10000…10000.
    ///   - until: the status to wait for.
    /// - Returns: the transaction once it is `until`.
    /// - Throws: `SocialError.invalid` for a weight out of range, otherwise as `post`.
    @discardableResult
    public func vote(_ id: SocialPostID, weight: Int, until: TransactionStatus = .sealed) async throws(SocialError) -> TransactionView {
        let actor = try requireActor()
        guard (-10_000...10_000).contains(weight) else {
            throw .invalid("weight \(weight) is out of range: give -10000…10000 (10000 = a full upvote, 0 removes your vote)")
        }
        return try await call(
            "vote", ["author": .string(id.author), "permlink": .string(id.permlink), "weight": .integer(Int64(weight))],
            voter: actor, until: until)
    }

    /// Locks `amount` base units of the wallet's own tokens as its voting stake: votes count the
    /// stake, and each vote keeps it locked until the voted post pays out (docs/SOCIAL.md §3).
    /// - Parameters:
    ///   - amount: base units to lock.
    ///   - until: the status to wait for.
    /// - Returns: the transaction once it is `until`.
    /// - Throws: `SocialError.refused` with the contract's reason, `.wallet`, `.noWallet`.
    @discardableResult
    public func stake(_ amount: UInt64, until: TransactionStatus = .sealed) async throws(SocialError) -> TransactionView {
        guard amount > 0 else { throw .invalid("stake a positive amount of tokens") }
        return try await call("stake", [:], value: amount, until: until)
    }

    /// Returns `amount` (nil: all) of the wallet's voting stake, once its votes no longer lock it.
    /// - Parameters:
    ///   - amount: base units to return; nil returns all that is free.
    ///   - until: the status to wait for.
    /// - Returns: the transaction once it is `until`.
    /// - Throws: `SocialError.refused` when votes still lock it, `.wallet`, `.noWallet`.
    @discardableResult
    public func unstake(_ amount: UInt64? = nil, until: TransactionStatus = .sealed) async throws(SocialError) -> TransactionView {
        var args: [String: JSONValue] = [:]
        if let amount { args["amount"] = .string(String(amount)) }
        return try await call("unstake", args, until: until)
    }

    /// Registers the wallet's account as an app named `name` (3–32 of a-z, 0-9, -) with the URL a
    /// consent page returns to. Calling again changes the URL.
    /// - Parameters:
    ///   - name: the app's name.
    ///   - redirectURL: where the consent page sends the user back (http or https).
    ///   - until: the status to wait for.
    /// - Returns: the app as registered.
    /// - Throws: `SocialError.invalid` for a bad name or URL, otherwise as `post`.
    @discardableResult
    public func registerApp(name: String, redirectURL: String, until: TransactionStatus = .sealed) async throws(SocialError) -> SocialApp {
        guard SocialRules.isValidAppName(name) else {
            throw .invalid("app name \"\(name.prefix(40))\" must be 3–32 characters of a-z, 0-9 and -")
        }
        guard redirectURL.hasPrefix("http://") || redirectURL.hasPrefix("https://") else {
            throw .invalid("redirect URL \"\(redirectURL.prefix(80))\" must start with http:// or https://")
        }
        let view = try await call("register_app", ["name": .string(name), "redirect_url": .string(redirectURL)], until: until)
        guard let wallet else { throw .noWallet }
        return try await app(wallet.clientID)
            ?? SocialApp(
                clientID: wallet.clientID, name: name, redirectURL: redirectURL,
                registered: view.transaction.creationDate)
    }

    /// Grants app `app` (client id or name) the `scopes` for this wallet's account until
    /// `expiresAt` (unix seconds, ledger time). Replaces an earlier grant to that app.
    /// - Parameters:
    ///   - app: the app's client id or name.
    ///   - scopes: what it may do for this account.
    ///   - expiresAt: unix seconds (ledger time) when the grant ends.
    ///   - until: the status to wait for.
    /// - Returns: the grant as sealed.
    /// - Throws: `SocialError.refused` (e.g. unknown app), `.wallet`, `.noWallet`, `.node` when the
    ///   grant cannot be read back.
    @discardableResult
    public func authorize(app: String, scopes: [SocialScope], expiresAt: Int64, until: TransactionStatus = .sealed)
        async throws(SocialError) -> SocialGrant
    {
        guard !scopes.isEmpty else { throw .invalid("give at least one scope: vote, comment") }
        guard let wallet else { throw .noWallet }
        _ = try await call(
            "grant", ["app": .string(app), "scopes": .array(scopes.map { .string($0.rawValue) }), "expires_at": .integer(expiresAt)],
            until: until)
        let all = try await grants(of: wallet.clientID)
        guard let g = all.first(where: { $0.app == app || $0.appName == app }) else {
            throw .node(.invalidResponse("the grant to \(app) was sealed but cannot be read back"))
        }
        return g
    }

    /// The same grant for `seconds` from the ledger's current time (e.g. 7 × 86,400).
    /// - Parameters:
    ///   - app: the app's client id or name.
    ///   - scopes: what it may do for this account.
    ///   - seconds: how long the grant lasts.
    ///   - until: the status to wait for.
    /// - Returns: the grant as sealed.
    /// - Throws: as `authorize(app:scopes:expiresAt:until:)`.
    @discardableResult
    public func authorize(app: String, scopes: [SocialScope], expiresIn seconds: Int64, until: TransactionStatus = .sealed)
        async throws(SocialError) -> SocialGrant
    {
        guard seconds > 0 else { throw .invalid("a grant must last more than 0 seconds") }
        let now: Int64
        do { now = try await client.network().time } catch { throw .node(error) }
        return try await authorize(app: app, scopes: scopes, expiresAt: now + seconds, until: until)
    }

    /// Ends this wallet's grant to `app` (client id or name).
    /// - Parameters:
    ///   - app: the app's client id or name.
    ///   - until: the status to wait for.
    /// - Returns: the transaction once it is `until`.
    /// - Throws: `SocialError.refused` when there is no such grant, `.wallet`, `.noWallet`.
    @discardableResult
    public func revoke(app: String, until: TransactionStatus = .sealed) async throws(SocialError) -> TransactionView {
        try await call("revoke", ["app": .string(app)], until: until)
    }

    /// Sets this wallet's profile: `name` (3–32 of a-z, 0-9, -, unique; nil keeps the current one)
    /// and `about` (≤ 512 bytes; nil keeps it). Returns the account as sealed.
    /// - Parameters:
    ///   - name: the profile name; nil keeps it.
    ///   - about: the profile text; nil keeps it.
    ///   - until: the status to wait for.
    /// - Returns: the account as sealed.
    /// - Throws: `SocialError.invalid` for a bad name, `.refused` when it is taken, `.wallet`, `.noWallet`.
    @discardableResult
    public func setProfile(name: String?, about: String?, until: TransactionStatus = .sealed) async throws(SocialError) -> SocialAccount {
        guard let wallet else { throw .noWallet }
        if let name, !SocialProfile.isValidName(name) {
            throw .invalid("name \"\(name.prefix(40))\" must be 3–32 characters of a-z, 0-9 and -")
        }
        if let about, let problem = SocialProfile.aboutProblem(about) { throw .invalid(problem) }
        guard name != nil || about != nil else { throw .invalid("nothing to change: give a name and/or an about text") }
        var args: [String: JSONValue] = [:]
        if let name { args["name"] = .string(name) }
        if let about { args["about"] = .string(about) }
        _ = try await call("set_profile", args, until: until)
        return try await account(wallet.clientID)
    }

    /// Pays this wallet the rewards credited to it (docs/SOCIAL.md §8); the receipt's
    /// `claim_rewards` event holds the amount.
    /// - Parameter until: the status to wait for.
    /// - Returns: the transaction once it is `until`.
    /// - Throws: `SocialError.refused` when there is nothing to claim, `.wallet`, `.noWallet`.
    @discardableResult
    public func claimRewards(until: TransactionStatus = .sealed) async throws(SocialError) -> TransactionView {
        try await call("claim_rewards", [:], until: until)
    }

    // MARK: Reads

    /// One page of a feed: `sort`, optional `tag`, `limit` 1–100, starting strictly after
    /// `start`, read at `round` (default the latest sealed one). Bodies are previews of at most
    /// 1,024 bytes (`bodyTruncated` says when cut; `post(_:)` has the whole body); `truncateBody`
    /// > 0 cuts them shorter.
    /// - Parameters:
    ///   - sort: trending, hot, created, …
    ///   - tag: only posts with this tag.
    ///   - limit: posts per page, 1–100.
    ///   - start: the last post of the previous page.
    ///   - round: the round to read at; nil for the latest sealed one.
    ///   - truncateBody: preview length in bytes; 0 keeps the default.
    /// - Returns: the page with the round it was read at.
    /// - Throws: `SocialError.node` when the view cannot be read or refuses the arguments.
    public func feed(
        _ sort: SocialSort, tag: String? = nil, limit: Int = 20, start: SocialPostID? = nil, round: UInt64? = nil,
        truncateBody: Int = 0
    ) async throws(SocialError) -> SocialFeedPage {
        var args: [String: JSONValue] = ["sort": .string(sort.rawValue), "limit": .integer(Int64(limit))]
        if let tag { args["tag"] = .string(tag.lowercased()) }
        if let start {
            args["start_author"] = .string(start.author)
            args["start_permlink"] = .string(start.permlink)
        }
        if truncateBody > 0 { args["truncate_body"] = .integer(Int64(truncateBody)) }
        let (r, value): (UInt64, SocialFeedPage) = try await view("feed", args, round: round)
        var page = value
        page.round = r
        return page
    }

    /// The page after `page` (same sort, tag and round, so nothing repeats or goes missing);
    /// nil when `page` was the last.
    /// - Parameters:
    ///   - page: the page read before.
    ///   - limit: posts per page.
    ///   - truncateBody: preview length in bytes; 0 keeps the default.
    /// - Throws: `SocialError.node` when the view cannot be read.
    public func feed(after page: SocialFeedPage, limit: Int = 20, truncateBody: Int = 0) async throws(SocialError) -> SocialFeedPage? {
        guard let next = page.next, let start = SocialPostID(path: next) else { return nil }
        return try await feed(page.sort, tag: page.tag, limit: limit, start: start, round: page.round, truncateBody: truncateBody)
    }

    /// One post, or nil.
    /// - Parameters:
    ///   - id: the post.
    ///   - truncateBody: cut the body to this many bytes; 0 gives it whole.
    /// - Throws: `SocialError.node` when the view cannot be read.
    public func post(_ id: SocialPostID, truncateBody: Int = 0) async throws(SocialError) -> SocialPost? {
        var args: [String: JSONValue] = ["author": .string(id.author), "permlink": .string(id.permlink)]
        if truncateBody > 0 { args["truncate_body"] = .integer(Int64(truncateBody)) }
        let (_, p): (UInt64, SocialPost?) = try await view("post", args)
        return p
    }

    /// Every direct reply of a post, in creation order (read page by page at one round).
    /// - Parameters:
    ///   - id: the post.
    ///   - truncateBody: cut bodies to this many bytes; 0 gives them whole.
    /// - Returns: the replies and the round they were read at.
    /// - Throws: `SocialError.node` when the view cannot be read.
    public func replies(to id: SocialPostID, truncateBody: Int = 0) async throws(SocialError) -> SocialReplies {
        struct Page: Decodable, Sendable {
            let replies: [SocialPost]
            let next: Int64?
        }
        var out: [SocialPost] = []
        var start: Int64 = 0
        var round: UInt64?
        while true {
            var args: [String: JSONValue] = ["author": .string(id.author), "permlink": .string(id.permlink), "start": .integer(start)]
            if truncateBody > 0 { args["truncate_body"] = .integer(Int64(truncateBody)) }
            let (r, page): (UInt64, Page) = try await view("replies", args, round: round)
            round = r
            out += page.replies
            guard let next = page.next, next > start else { break }
            start = next
        }
        return SocialReplies(parent: id, replies: out, round: round ?? 0)
    }

    /// The current votes on a post, ordered by voter.
    /// - Parameter id: the post.
    /// - Throws: `SocialError.node` when the view cannot be read.
    public func votes(on id: SocialPostID) async throws(SocialError) -> [SocialVote] {
        struct Page: Decodable, Sendable {
            let votes: [SocialVote]
            let next: String?
        }
        var out: [SocialVote] = []
        var start: String?
        var round: UInt64?
        while true {
            var args: [String: JSONValue] = ["author": .string(id.author), "permlink": .string(id.permlink)]
            if let start { args["start_voter"] = .string(start) }
            let (r, page): (UInt64, Page) = try await view("votes", args, round: round)
            round = r
            out += page.votes
            guard let next = page.next else { break }
            start = next
        }
        return out
    }

    /// An account by client id or profile name: activity, voting power (basis points, now),
    /// stake, profile, reputation and rewards.
    /// - Parameter idOrName: a client id or profile name.
    /// - Throws: `SocialError.node` when there is no such account or the view cannot be read.
    public func account(_ idOrName: String) async throws(SocialError) -> SocialAccount {
        let key = try Self.accountKey(idOrName)
        let (_, a): (UInt64, SocialAccount) = try await view("account", [key: .string(idOrName)])
        return a
    }

    /// Several accounts at once (client ids or names, 1–100), like the anchor's get_accounts.
    /// - Parameter idsOrNames: client ids or profile names.
    /// - Returns: the accounts found and the names not found.
    /// - Throws: `SocialError.invalid` for an empty or too long list, `.node` when the view cannot be read.
    public func accounts(_ idsOrNames: [String]) async throws(SocialError) -> SocialAccountList {
        guard !idsOrNames.isEmpty, idsOrNames.count <= SocialRules.maxAccountsPerRead else {
            throw .invalid("give 1–\(SocialRules.maxAccountsPerRead) client ids or names (got \(idsOrNames.count))")
        }
        for item in idsOrNames { _ = try Self.accountKey(item) }
        let (_, list): (UInt64, SocialAccountList) = try await view("accounts", ["accounts": .array(idsOrNames.map(JSONValue.string))])
        return list
    }

    /// A page of an account's root posts (or, with `replies`, its replies), newest first, each with
    /// its reward once paid. `start` is the previous page's `next`.
    /// - Parameters:
    ///   - idOrName: a client id or profile name.
    ///   - replies: list replies instead of root posts.
    ///   - limit: posts per page.
    ///   - start: the previous page's `next`.
    /// - Throws: `SocialError.node` when the view cannot be read.
    public func accountPosts(_ idOrName: String, replies: Bool = false, limit: Int = 20, start: String? = nil) async throws(SocialError)
        -> SocialAccountPosts
    {
        var args: [String: JSONValue] = [
            try Self.accountKey(idOrName): .string(idOrName), "kind": .string(replies ? "replies" : "posts"),
            "limit": .integer(Int64(limit)),
        ]
        if let start { args["start"] = .string(start) }
        let (_, page): (UInt64, SocialAccountPosts) = try await view("account_posts", args)
        return page
    }

    /// A page of an account's current votes.
    /// - Parameters:
    ///   - idOrName: a client id or profile name.
    ///   - limit: votes per page.
    ///   - start: the previous page's `next`.
    /// - Throws: `SocialError.node` when the view cannot be read.
    public func accountVotes(_ idOrName: String, limit: Int = 20, start: String? = nil) async throws(SocialError) -> SocialAccountVotes {
        var args: [String: JSONValue] = [try Self.accountKey(idOrName): .string(idOrName), "limit": .integer(Int64(limit))]
        if let start { args["start"] = .string(start) }
        let (_, page): (UInt64, SocialAccountVotes) = try await view("account_votes", args)
        return page
    }

    /// The reward pool: free, reserved, credited and staked tokens, and the payout parameters.
    /// - Throws: `SocialError.node` when the view cannot be read.
    public func rewardPool() async throws(SocialError) -> SocialRewardPool {
        let (_, pool): (UInt64, SocialRewardPool) = try await view("rewards", [:])
        return pool
    }

    /// "client_id" or "name": which view argument names `idOrName`.
    static func accountKey(_ idOrName: String) throws(SocialError) -> String {
        if Transaction.isHexID(idOrName) { return "client_id" }
        guard SocialProfile.isValidName(idOrName) else {
            throw .invalid("\"\(idOrName.prefix(70))\" is neither a client id (64 lowercase hex characters) nor a profile name")
        }
        return "name"
    }

    /// The grants `user` (default this client's actor) gave, expired ones flagged.
    /// - Parameter user: the granting account; nil for this client's actor.
    /// - Throws: `SocialError.noWallet` when no user is known, `.node` when the view cannot be read.
    public func grants(of user: String? = nil) async throws(SocialError) -> [SocialGrant] {
        guard let id = user ?? actor else { throw .noWallet }
        struct List: Decodable, Sendable { let grants: [SocialGrant] }
        let (_, list): (UInt64, List) = try await view("grants", ["user": .string(id)])
        return list.grants
    }

    /// A registered app by client id or name, or nil.
    /// - Parameter idOrName: the app's client id or name.
    /// - Throws: `SocialError.node` when the view cannot be read.
    public func app(_ idOrName: String) async throws(SocialError) -> SocialApp? {
        let (_, a): (UInt64, SocialApp?) = try await view("app", ["app": .string(idOrName)])
        return a
    }

    // MARK: Plumbing

    private func requireActor() throws(SocialError) -> String {
        guard let a = actor else { throw .noWallet }
        return a
    }

    private func checkPermlink(_ p: String) throws(SocialError) -> String {
        guard SocialRules.isValidPermlink(p) else {
            throw .invalid("permlink \"\(p.prefix(60))\" must be 1–255 characters of a-z, 0-9 and -")
        }
        return p
    }

    private func checkShape(title: String, body: String, metadata: String) throws(SocialError) {
        guard title.utf8.count <= SocialRules.maxTitleBytes else {
            throw .invalid("title is \(title.utf8.count) bytes; it must be under 256 bytes")
        }
        guard !body.isEmpty else { throw .invalid("body is empty; write something") }
        guard body.utf8.count <= SocialRules.maxBodyBytes else {
            throw .invalid("body is \(body.utf8.count) bytes; at most 65536 (64 KiB) are allowed")
        }
        if !metadata.isEmpty, (try? JSONSerialization.jsonObject(with: Data(metadata.utf8))) as? [String: Any] == nil {
            throw .invalid("JSON metadata is not a JSON object such as {\"app\":\"mosaic\"}")
        }
    }

    /// `given` checked, or `base` (made unique for `author` with "-<ledger time>" when taken).
    private func choosePermlink(_ given: String?, author: String, base: String) async throws(SocialError) -> String {
        if let given { return try checkPermlink(given) }
        guard try await post(SocialPostID(author: author, permlink: base)) != nil else { return base }
        let time: Int64
        do { time = try await client.network().time } catch { throw .node(error) }
        return "\(base.prefix(200))-\(time)"
    }

    /// Signs `social.<method>` (naming `author`/`voter` when acting for another user), submits
    /// and waits until `until`.
    private func call(
        _ method: String, _ args: [String: JSONValue], author: String? = nil, voter: String? = nil,
        value: UInt64 = 0, until: TransactionStatus
    ) async throws(SocialError) -> TransactionView {
        guard let wallet else { throw .noWallet }
        var all = args
        if let author, author != wallet.clientID { all["author"] = .string(author) }
        if let voter, voter != wallet.clientID { all["voter"] = .string(voter) }
        do {
            let fee = try await wallet.networkInfo().minimumFee
            let tx = try await wallet.submit(
                to: ContractCall.address(of: "social"), value: value, fee: fee, type: .contractCall,
                data: ContractCall(contract: "social", method: method, args: all).json)
            return try await wallet.wait(for: tx.hash, until: until, timeout: .seconds(120))
        } catch {
            if case .failed(let hash, let failure) = error { throw .refused(hash: hash, error: failure) }
            throw .wallet(error)
        }
    }

    private func view<T: Decodable & Sendable>(_ name: String, _ args: [String: JSONValue], round: UInt64? = nil) async throws(SocialError)
        -> (UInt64, T)
    {
        do {
            let answer = try await client.view(contract: "social", name: name, args: args, round: round, as: T.self)
            return (answer.round, answer.result)
        } catch {
            throw .node(error)
        }
    }
}
