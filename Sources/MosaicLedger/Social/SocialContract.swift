import MosaicProtocol

/// `social.*`: posts and replies, votes with voting power and rshares, the trending / hot /
/// created feeds, and app authorizations with scopes (docs/SOCIAL.md).
///
/// Calls: `comment`, `edit`, `vote`, `stake`, `unstake`, `register_app`, `grant`, `revoke`, `set_profile`,
/// `claim_rewards`. Views (free, read at a sealed round): `feed`, `post`, `replies`, `votes`, `account`,
/// `accounts`, `account_posts`, `account_votes`, `grants`, `app`, `rewards`. An operation
/// whose author (or voter) is not the caller must come from an app the author granted the
/// operation's scope to, before the grant's expiry.
///
/// Feeds are ordered key ranges (`SocialKeys`), kept up to date on comment, edit and vote; a
/// root post leaves trending and hot at its payout time (7 days), filtered by time on reads and
/// removed by `endBlock` when its payout window closes and the post is paid from the reward pool.
package struct SocialContract: Contract {
    public var name: String { "social" }
    public var methods: [String] {
        ["comment", "edit", "vote", "stake", "unstake", "register_app", "grant", "revoke", "set_profile", "claim_rewards"]
    }
    public var views: [String] {
        ["feed", "post", "replies", "votes", "account", "accounts", "account_posts", "account_votes", "grants", "app", "rewards"]
    }

    public init() {}

    public func execute(_ context: ContractContext, method: String, args: [String: JSONValue]) throws(ContractError) -> String {
        try context.consumeGas(200)
        let a = ContractArgs(args)
        try refuseValue(context, method: method, takingValue: ["stake"], note: " (only social.stake takes the call's value)")
        switch method {
        case "comment": return try comment(context, a)
        case "edit": return try edit(context, a)
        case "vote": return try vote(context, a)
        case "stake": return try stake(context, a)
        case "unstake": return try unstake(context, a)
        case "register_app": return try registerApp(context, a)
        case "grant": return try grant(context, a)
        case "revoke": return try revoke(context, a)
        case "set_profile": return try setProfile(context, a)
        case "claim_rewards": return try claimRewards(context, a)
        default: throw .unknownMethod(contract: name, method: method)
        }
    }

    public func view(_ state: ContractView, name view: String, args: [String: JSONValue]) throws(ContractError) -> JSONValue {
        let a = ContractArgs(args)
        let store = SocialStore(reader: state)
        switch view {
        case "feed": return try feedView(store, a)
        case "post": return try postView(store, a)
        case "replies": return try repliesView(store, a)
        case "votes": return try votesView(store, a)
        case "account": return try accountView(store, a)
        case "accounts": return try accountsView(store, a)
        case "account_posts": return try accountPostsView(store, a)
        case "account_votes": return try accountVotesView(store, a)
        case "rewards": return try rewardsView(store, a)
        case "grants": return try grantsView(store, a)
        case "app": return try appView(store, a)
        default: throw .invalidArguments("contract social has no view \(view); views: \(views.joined(separator: ", "))")
        }
    }

    /// Pays the posts and replies whose payout window closed from the reward pool and takes
    /// root posts out of the trending and hot feeds (`payOut`: as many as gas allows a block;
    /// the rest follow in the next blocks, and reads filter paid-out posts by time meanwhile).
    public func endBlock(_ context: ContractContext, seed: String) throws(ContractError) {
        try payOut(context)
    }

    // MARK: Shared helpers

    /// Saves `post`, moves its feed keys from where `old` had them and rewrites their cards
    /// when the card changed (votes, replies, edits). A paid-out post's trending and hot keys
    /// are left to `endBlock`.
    func save(_ context: ContractContext, _ post: SocialPost, replacing old: SocialPost?) throws(ContractError) {
        try context.set(SocialKeys.post(post.author, post.permlink), SocialCodec.encode(post))
        guard post.isRoot else { return }
        let before = Set(old.map { SocialKeys.feedKeys($0, sorts: SocialSort.allCases) } ?? [])
        let after = SocialKeys.feedKeys(post, sorts: SocialSort.allCases)
        let card = SocialCodec.card(post)
        let changed = old.map { SocialCodec.card($0) != card } ?? true
        for key in before where !after.contains(key) { try context.set(key, nil) }
        for key in after where changed || !before.contains(key) { try context.set(key, card) }
    }

    func saveAccount(_ context: ContractContext, _ id: String, _ account: SocialAccountState) throws(ContractError) {
        try context.set(SocialKeys.account(id), try SocialCodec.encodeJSON(account))
    }

    /// Ensures `actor` (the operation's author or voter) allowed this call: either it is the
    /// caller, or the caller is an app holding an unexpired grant from `actor` with `scope`.
    /// Each refusal names the missing link.
    func authorize(_ context: ContractContext, _ store: SocialStore, actor: String, scope: SocialScope) throws(ContractError) {
        if actor == context.caller { return }
        guard let app = try store.app(context.caller) else {
            throw .refused(
                .notAuthorized,
                "\(context.caller) is not a registered app, so it cannot act for user \(actor); sign with the user's own key, or register an app (social.register_app) and get a grant from the user"
            )
        }
        guard let grant = try store.grant(actor, app.clientID) else {
            throw .refused(
                .notAuthorized,
                "app \(app.name) (\(app.clientID)) has no grant from user \(actor); the user grants one with 'mosaic social authorize --app \(app.name) --scopes \(scope.rawValue) --expires 7d'"
            )
        }
        if grant.expired {
            throw .refused(
                .expired,
                "grant from user \(actor) to app \(app.name) expired at \(UTCTime.iso8601(grant.expiresAt)); the user can renew it with 'mosaic social authorize --app \(app.name)'"
            )
        }
        guard grant.scopes.contains(scope) else {
            throw .refused(
                .notAuthorized,
                "grant from user \(actor) to app \(app.name) lacks scope \(scope.rawValue) (it has: \(grant.scopes.map(\.rawValue).joined(separator: ", "))); the user can grant it with 'mosaic social authorize --app \(app.name) --scopes \((grant.scopes.map(\.rawValue) + [scope.rawValue]).sorted().joined(separator: ","))'"
            )
        }
    }

    /// "at 2026-…Z (in N s)" for refusals that say when something becomes possible.
    static func when(_ at: Int64, now: Int64) -> String { "\(UTCTime.iso8601(at)) (in \(StorageContract.seconds(from: now, to: at)) s)" }
}
