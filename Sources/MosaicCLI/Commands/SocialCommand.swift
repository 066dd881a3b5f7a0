import Foundation
import MosaicProtocol
import MosaicSDK

/// `mosaic social …`: posts, replies, votes and feeds of the social contract, and the grants that
/// let apps act for a user (docs/SOCIAL.md). Posts are addressed as AUTHOR/PERMLINK.
enum SocialCommand {
    static let command = Command(
        name: "social", summary: "post, reply, vote, read feeds, and authorize apps",
        discussion: """
            Posts are addressed as AUTHOR/PERMLINK (the author's client id). Writes are signed by the wallet
            and waited on until sealed; reads are free. An app's wallet acts for a user who authorized it
            with --for USER_CLIENT_ID.
            """,
        examples: [
            "mosaic social post --title 'Hello' --body 'First post' --tag intro",
            "mosaic social feed --sort trending --limit 10",
            "mosaic social stake 5", "mosaic social vote AUTHOR/PERMLINK --weight 10000",
        ],
        subcommands: [
            post, reply, edit, vote, stake, unstake, feed, show, replies, account, profile, posts, votes, rewards, claim,
            authorize, revoke, grants, app,
        ])

    /// `--for`: an app's wallet signs for a user who granted it the scope.
    struct ActingFor: CommandOptions {
        @Option("for", "USER", help: "sign as an app for USER (client id), who granted it the scope") var user: String?
    }

    /// `--body` or `--body-file`: the text of a post or reply.
    struct BodyText: CommandOptions {
        @Option("body", "TEXT", help: "the text (at most 64 KiB)") var body: String?
        @Option("body-file", "FILE", help: "read the text from FILE") var file: String?

        /// The text of `--body-file` (which wins) or `--body`; nil when neither is given and it
        /// is not `required`.
        func text(required: Bool, _ inv: Invocation) throws -> String? {
            if let file {
                do { return try String(contentsOfFile: file, encoding: .utf8) } catch {
                    throw CLIError.failure("cannot read --body-file \(file): \(error.localizedDescription)")
                }
            }
            if let body { return body }
            if required { throw CLIError.usage("missing --body (or --body-file) for 'mosaic \(inv.commandPath.joined(separator: " "))'") }
            return nil
        }
    }

    struct PostOptions: CommandOptions {
        @Option("title", "TEXT", help: "title, under 256 bytes") var title: String
        var body = BodyText()
        @Option("permlink", "P", help: "1–255 of a-z, 0-9, - (default: made from the title)") var permlink: String?
        @Option("tag", "TAG", help: "a tag (repeat; at most 5 with the category)") var tags: [String]
        @Option("category", "TAG", help: "the category (default: the first --tag)") var category: String?
        @Option("metadata", "JSON", help: "JSON metadata object") var metadata = ""
        var acting = ActingFor()
    }

    struct ReplyOptions: CommandOptions {
        var body = BodyText()
        @Option("title", "TEXT", help: "optional title") var title = ""
        @Option("permlink", "P", help: "default: re-<parent permlink>-<time>") var permlink: String?
        @Option("metadata", "JSON", help: "JSON metadata object") var metadata = ""
        var acting = ActingFor()
    }

    struct EditOptions: CommandOptions {
        @Option("title", "TEXT", help: "new title") var title: String?
        var body = BodyText()
        @Option("tag", "TAG", help: "new tags (repeat; replace the old ones)") var tags: [String]
        @Option("metadata", "JSON", help: "new JSON metadata object") var metadata: String?
    }

    struct VoteOptions: CommandOptions {
        @Option("weight", help: "10000 = full upvote, negative = downvote, 0 = remove") var weight: VoteWeight
        var acting = ActingFor()
    }

    struct FeedOptions: CommandOptions {
        @Option("sort", help: "trending (default), hot or created") var sort = SocialSort.trending
        @Option("tag", "TAG", help: "only posts with this tag") var tag: String?
        @Option("limit", "N", help: "1–100 (default 20)") var limit = SocialLimit(value: 20)
        @Option("start", help: "continue after this post (the previous page's next)") var start: SocialPostID?
        @Option("round", "N", help: "read the state of this round (default the latest sealed)") var round: RoundNumber?
    }

    static let post = Command(
        name: "post", summary: "publish a root post (the first --tag is its category, else \"general\")",
        examples: [
            "mosaic social post --title 'Hello world' --body 'First post' --tag intro --tag mosaic",
            "mosaic social post --title T --body-file post.md --permlink my-post --json",
        ],
        options: PostOptions.self,
        action: { o, inv in
            let body = try o.body.text(required: true, inv) ?? ""
            let social = try writer(inv, for: o.acting.user)
            let id = try await run { () async throws(SocialError) in
                try await social.post(
                    title: o.title, body: body, tags: o.tags, category: o.category, permlink: o.permlink, jsonMetadata: o.metadata)
            }
            return try await shown(social, id, headline: "posted \(id)")
        })

    static let reply = Command(
        name: "reply", summary: "reply to a post or a reply",
        usage: "AUTHOR/PERMLINK --body TEXT", examples: ["mosaic social reply AUTHOR/PERMLINK --body 'Nice!'"],
        options: ReplyOptions.self, arguments: ["AUTHOR/PERMLINK"], minArguments: 1, maxArguments: 1,
        action: { o, inv in
            let parent = try postID(inv.arguments[0])
            let body = try o.body.text(required: true, inv) ?? ""
            let social = try writer(inv, for: o.acting.user)
            let id = try await run { () async throws(SocialError) in
                try await social.reply(to: parent, body: body, title: o.title, permlink: o.permlink, jsonMetadata: o.metadata)
            }
            return try await shown(social, id, headline: "replied \(id)")
        })

    static let edit = Command(
        name: "edit", summary: "change a post's title, body, tags or metadata (until its payout; the parent is fixed)",
        usage: "AUTHOR/PERMLINK [--title T] [--body B] [--tag T]…",
        examples: ["mosaic social edit AUTHOR/PERMLINK --body 'Fixed a typo'"],
        options: EditOptions.self, arguments: ["AUTHOR/PERMLINK"], minArguments: 1, maxArguments: 1,
        action: { o, inv in
            let id = try postID(inv.arguments[0])
            let body = try o.body.text(required: false, inv)
            let tags = o.tags
            let social = try writer(inv, for: nil)
            _ = try await run { () async throws(SocialError) in
                try await social.edit(id, title: o.title, body: body, jsonMetadata: o.metadata, tags: tags.isEmpty ? nil : tags)
            }
            return try await shown(social, id, headline: "edited \(id)")
        })

    static let vote = Command(
        name: "vote", summary: "vote on a post: --weight -10000…10000 (0 removes your vote)",
        usage: "AUTHOR/PERMLINK --weight W",
        examples: ["mosaic social vote AUTHOR/PERMLINK --weight 10000", "mosaic social vote AUTHOR/PERMLINK --weight 0"],
        options: VoteOptions.self, arguments: ["AUTHOR/PERMLINK"], minArguments: 1, maxArguments: 1,
        action: { o, inv in
            let id = try postID(inv.arguments[0])
            let weight = o.weight.value
            let social = try writer(inv, for: o.acting.user)
            let view = try await run { () async throws(SocialError) in try await social.vote(id, weight: weight) }
            let post = try await run { () async throws(SocialError) in try await social.post(id) }
            let text2 =
                "\(view.output ?? "voted") (transaction \(view.transaction.hash))"
                + (post.map { "\nnet rshares: \($0.netRshares), votes: \($0.voteCount)" } ?? "")
            return CommandOutput(
                text: text2,
                json: .object([
                    ("hash", .string(view.transaction.hash)), ("status", .string(view.status.rawValue)),
                    ("voter", .string(social.actor ?? "")), ("author", .string(id.author)),
                    ("permlink", .string(id.permlink)), ("weight", .integer(Int64(weight))),
                    ("output", .optional(view.output)),
                    ("post", try post.map(json) ?? .null),
                ]))
        })

    static let stake = Command(
        name: "stake", summary: "lock tokens as this wallet's voting stake (what its votes count)",
        usage: "AMOUNT",
        discussion: """
            A vote's rshares count the voter's voting stake, not its balance. Each vote keeps the whole stake
            locked until the voted post pays out (7 days after it was written), so the same tokens cannot vote
            on a post twice from two accounts. 'mosaic social unstake' returns it once unlocked.
            """,
        examples: ["mosaic social stake 5", "mosaic social stake 0.5 --json"],
        arguments: ["AMOUNT"], minArguments: 1, maxArguments: 1,
        action: { inv in
            let amount = try TokenAmount.parse(inv.arguments[0], option: "amount").baseUnits
            let social = SocialClient(wallet: try LedgerContext(inv).unlockedWallet())
            let view = try await run { () async throws(SocialError) in try await social.stake(amount) }
            return receipt(view, done: "staked", amount: amount)
        })

    static let unstake = Command(
        name: "unstake", summary: "return voting stake (all, or AMOUNT) once no open vote locks it",
        usage: "[AMOUNT]", examples: ["mosaic social unstake", "mosaic social unstake 1"],
        arguments: ["AMOUNT"], minArguments: 0, maxArguments: 1,
        action: { inv in
            let amount = try inv.arguments.first.map { try TokenAmount.parse($0, option: "amount").baseUnits }
            let social = SocialClient(wallet: try LedgerContext(inv).unlockedWallet())
            let view = try await run { () async throws(SocialError) in try await social.unstake(amount) }
            return receipt(view, done: "unstaked", amount: nil)
        })

    static let feed = Command(
        name: "feed", summary: "list root posts by trending, hot or created (newest first)",
        examples: [
            "mosaic social feed", "mosaic social feed --sort hot --tag mosaic --limit 10",
            "mosaic social feed --sort created --start AUTHOR/PERMLINK --json",
        ],
        options: FeedOptions.self,
        action: { o, inv in
            let sort = o.sort
            let social = try reader(inv)
            let page = try await run { () async throws(SocialError) in
                try await social.feed(sort, tag: o.tag, limit: o.limit.value, start: o.start, round: o.round?.value, truncateBody: 0)
            }
            return listing(
                ["#", "POST", "TITLE", "RSHARES", "VOTES", "REPLIES", "CREATED (UTC)"],
                page.posts.enumerated().map { i, p in
                    [
                        String(i + 1), short(p.path), String(p.title.prefix(40)), String(p.netRshares), String(p.voteCount),
                        String(p.children), UTCTime.dateTime(p.created),
                    ]
                }, empty: "no posts in the \(sort.rawValue) feed\(o.tag.map { " of tag \($0)" } ?? "")",
                more: page.next.map { "--start \($0) --round \(page.round)" }, json: try .output(page))
        })

    static let show = Command(
        name: "show", summary: "show one post with its votes",
        usage: "AUTHOR/PERMLINK", examples: ["mosaic social show AUTHOR/PERMLINK --json"],
        arguments: ["AUTHOR/PERMLINK"], minArguments: 1, maxArguments: 1,
        action: { inv in
            let id = try postID(inv.arguments[0])
            let social = try reader(inv)
            var out = try await shown(social, id, headline: nil)
            let votes = try await run { () async throws(SocialError) in try await social.votes(on: id) }
            if !votes.isEmpty {
                // Voters by profile name where they have one (100 at most looked up).
                let voters = Array(Set(votes.map(\.voter))).sorted().prefix(SocialRules.maxAccountsPerRead)
                let named = try? await social.accounts(Array(voters))
                var names: [String: String] = [:]
                for a in named?.accounts ?? [] { if let n = a.name { names[a.clientID] = n } }
                out.text +=
                    "\n\nvotes:\n"
                    + votes.map { v in
                        "  \(names[v.voter].map { "\($0) (\(v.voter))" } ?? v.voter)  weight \(v.weight)  rshares \(v.rshares)  changes \(v.changes)"
                    }.joined(separator: "\n")
            }
            if case .object(var fields) = out.json {
                fields["votes"] = try JSONValue.output(votes)
                out.json = .object(fields)
            }
            return out
        })

    static let replies = Command(
        name: "replies", summary: "list the direct replies of a post in creation order",
        usage: "AUTHOR/PERMLINK", examples: ["mosaic social replies AUTHOR/PERMLINK"],
        arguments: ["AUTHOR/PERMLINK"], minArguments: 1, maxArguments: 1,
        action: { inv in
            let id = try postID(inv.arguments[0])
            let social = try reader(inv)
            guard try await run({ () async throws(SocialError) in try await social.post(id) }) != nil else {
                throw CLIError.failure("post \(id) does not exist")
            }
            let list = try await run { () async throws(SocialError) in try await social.replies(to: id) }
            let text =
                list.replies.isEmpty
                ? "no replies to \(id)"
                : list.replies.map { "\(short($0.path))  \(UTCTime.dateTime($0.created)) UTC\n  \($0.body.prefix(200))" }
                    .joined(separator: "\n")
            return CommandOutput(
                text: text,
                json: .object([
                    ("parent", .string(id.description)), ("round", .unsigned(list.round)),
                    ("replies", .array(try list.replies.map(json))),
                ]))
        })

    static let account = Command(
        name: "account", summary: "accounts by profile name or client id: profile, reputation, rewards, voting power",
        usage: "[NAME|CLIENT_ID]…",
        discussion: """
            Several accounts at once, like get_accounts: names no account holds are listed as missing.
            Without an argument: this wallet's account. --json prints one account's object, or
            {"accounts":[…],"missing":[…]} for several.
            """,
        examples: ["mosaic social account", "mosaic social account alice bob", "mosaic social account CLIENT_ID --json"],
        arguments: ["NAME|CLIENT_ID"], minArguments: 0, maxArguments: SocialRules.maxAccountsPerRead,
        action: { inv in
            let ctx = try LedgerContext(inv, needsWallet: inv.arguments.isEmpty)
            let asked =
                inv.arguments.isEmpty
                ? [ctx.readOnlyWallet().clientID] : inv.arguments.map { Transaction.isHexID($0.lowercased()) ? $0.lowercased() : $0 }
            let social = SocialClient(client: ctx.client)
            let info = try await ctx.client.network()
            if asked.count == 1 {
                let a = try await run { () async throws(SocialError) in try await social.account(asked[0]) }
                return CommandOutput(text: accountText(a, now: info.time), json: try json(a))
            }
            let list = try await run { () async throws(SocialError) in try await social.accounts(asked) }
            var text = list.accounts.map { accountText($0, now: info.time) }.joined(separator: "\n\n")
            if !list.missing.isEmpty {
                text += (text.isEmpty ? "" : "\n\n") + "no account has the name: " + list.missing.joined(separator: ", ")
            }
            return CommandOutput(text: text, json: try .output(list))
        })

    static let profile = Command(
        name: "profile", summary: "set this wallet's profile: a unique name and an about text",
        discussion:
            "The name (3–32 of a-z, 0-9 and -) is how others find the account ('mosaic social account NAME'); a change frees the old one.",
        examples: ["mosaic social profile --name alice --about 'Writes about boats'", "mosaic social profile --about 'New text'"],
        options: ProfileOptions.self,
        action: { o, inv in
            let name = o.name
            let about = o.about
            guard name != nil || about != nil else { throw CLIError.usage("give --name and/or --about") }
            let social = SocialClient(wallet: try LedgerContext(inv).unlockedWallet())
            let a = try await run { () async throws(SocialError) in try await social.setProfile(name: name, about: about) }
            let info = try await social.client.network()
            return CommandOutput(text: "profile saved\n" + accountText(a, now: info.time), json: try json(a))
        })

    struct ProfileOptions: CommandOptions {
        @Option("name", "NAME", help: "3–32 characters of a-z, 0-9 and -") var name: String?
        @Option("about", "TEXT", help: "at most 512 bytes") var about: String?
    }

    /// One page of an account's posts or votes.
    struct PageOptions: CommandOptions {
        @Option("limit", "N", help: "1–100 (default 20)") var limit = SocialLimit(value: 20)
        @Option("start", "NEXT", help: "continue after the previous page (its 'more:' value)") var start: String?
    }

    struct PostsOptions: CommandOptions {
        @Flag("replies", help: "its replies instead of its root posts") var replies: Bool
        var page = PageOptions()
    }

    static let posts = Command(
        name: "posts", summary: "an account's posts (or --replies), newest first, with their rewards",
        usage: "NAME|CLIENT_ID", examples: ["mosaic social posts alice", "mosaic social posts alice --replies --limit 50 --json"],
        options: PostsOptions.self, arguments: ["NAME|CLIENT_ID"], minArguments: 1, maxArguments: 1,
        action: { o, inv in
            let social = try reader(inv)
            let who = normalized(inv.arguments[0])
            let page = try await run { () async throws(SocialError) in
                try await social.accountPosts(who, replies: o.replies, limit: o.page.limit.value, start: o.page.start)
            }
            return listing(
                ["POST", "TITLE", "RSHARES", "VOTES", "REPLIES", "REWARD", "CREATED (UTC)"],
                page.posts.map { p in
                    [
                        p.path, String(p.title.prefix(40)), String(p.netRshares), String(p.voteCount), String(p.children),
                        rewardText(p), UTCTime.dateTime(p.created),
                    ]
                }, empty: "no \(o.replies ? "replies" : "posts") by \(who)", more: page.next.map { "--start \($0)" },
                json: try .output(page))
        })

    static let votes = Command(
        name: "votes", summary: "an account's current votes, on the newest posts first",
        usage: "NAME|CLIENT_ID", examples: ["mosaic social votes alice", "mosaic social votes CLIENT_ID --json"],
        options: PageOptions.self, arguments: ["NAME|CLIENT_ID"], minArguments: 1, maxArguments: 1,
        action: { o, inv in
            let social = try reader(inv)
            let who = normalized(inv.arguments[0])
            let page = try await run { () async throws(SocialError) in
                try await social.accountVotes(who, limit: o.limit.value, start: o.start)
            }
            return listing(
                ["POST", "TITLE", "WEIGHT", "RSHARES", "TIME (UTC)"],
                page.votes.map { v in
                    [
                        "\(v.vote.author)/\(v.vote.permlink)", v.isReply ? "(reply)" : String(v.title.prefix(40)), String(v.vote.weight),
                        String(v.vote.rshares), UTCTime.dateTime(v.vote.time),
                    ]
                }, empty: "no votes by \(who)", more: page.next.map { "--start \($0)" }, json: try .output(page))
        })

    static let rewards = Command(
        name: "rewards", summary: "the reward pool, and this wallet's (or ACCOUNT's) rewards",
        usage: "[NAME|CLIENT_ID]",
        discussion:
            "Posts and replies are paid when the hour holding their payout time ends (docs/SOCIAL.md §8); 'mosaic social claim' moves the credited tokens to the wallet.",
        examples: ["mosaic social rewards", "mosaic social rewards alice --json"],
        arguments: ["NAME|CLIENT_ID"], minArguments: 0, maxArguments: 1,
        action: { inv in
            let ctx = try LedgerContext(inv, needsWallet: inv.arguments.isEmpty)
            let who = inv.arguments.first.map(normalized) ?? ctx.readOnlyWallet().clientID
            let social = SocialClient(client: ctx.client)
            let pool = try await run { () async throws(SocialError) in try await social.rewardPool() }
            let a = try await run { () async throws(SocialError) in try await social.account(who) }
            let r = a.rewards
            let text = """
                reward pool:   \(TokenAmount(baseUnits: pool.free)) free, \(TokenAmount(baseUnits: pool.reserved)) being paid, \(TokenAmount(baseUnits: pool.pending)) credited and unclaimed
                each window:   \(pool.windowSeconds / 60) min; releases \(Double(pool.shareBps) / 100) % of the free pool, \(pool.curationBps / 100) % of a post's share to its curators
                \(a.name ?? String(a.clientID.prefix(16)) + "…"):
                  unclaimed:   \(TokenAmount(baseUnits: r.pending))\(r.pending > 0 && inv.arguments.isEmpty ? "  (claim with 'mosaic social claim')" : "")
                  as author:   \(TokenAmount(baseUnits: r.author))
                  as curator:  \(TokenAmount(baseUnits: r.curation))
                  claimed:     \(TokenAmount(baseUnits: r.claimed))
                """
            return CommandOutput(
                text: text,
                json: .object([("pool", try .output(pool)), ("client_id", .string(a.clientID)), ("rewards", try rewardsJSON(r))]))
        })

    static let claim = Command(
        name: "claim", summary: "move this wallet's credited rewards into its balance",
        examples: ["mosaic social claim", "mosaic social claim --json"],
        action: { inv in
            let social = SocialClient(wallet: try LedgerContext(inv).unlockedWallet())
            let view = try await run { () async throws(SocialError) in try await social.claimRewards() }
            let amount = view.events?.first { $0.name == "claim_rewards" }?.attributes["amount"].flatMap { UInt64($0) } ?? 0
            return receipt(view, done: "claimed", amount: amount)
        })

    static let authorize = Command(
        name: "authorize", summary: "let an app post or vote for this wallet (a signed grant with scopes and an expiry)",
        examples: ["mosaic social authorize --app reader --scopes vote,comment --expires 7d"],
        options: AuthorizeOptions.self,
        action: { o, inv in
            let app = o.app
            let scopes = o.scopes.scopes
            let seconds = o.expires.seconds
            let social = try writer(inv, for: nil)
            let g = try await run { () async throws(SocialError) in
                try await social.authorize(app: app, scopes: scopes, expiresIn: Int64(seconds))
            }
            return CommandOutput(
                text:
                    "app \(g.appName) (\(g.app)) may now \(g.scopes.map(\.rawValue).joined(separator: " and ")) for you until \(Wallet.iso8601(g.expiresAt))",
                json: try json(g))
        })

    struct AuthorizeOptions: CommandOptions {
        @Option("app", "APP", help: "the app's name or client id") var app: String
        @Option("scopes", help: "vote, comment or vote,comment") var scopes: ScopeList
        @Option("expires", help: "how long the grant lasts, e.g. 7d (at most 365d)") var expires: Lifetime
    }

    static let revoke = Command(
        name: "revoke", summary: "end this wallet's grant to an app",
        usage: "APP", examples: ["mosaic social revoke reader"],
        arguments: ["APP"], minArguments: 1, maxArguments: 1,
        action: { inv in
            let social = try writer(inv, for: nil)
            let view = try await run { () async throws(SocialError) in try await social.revoke(app: inv.arguments[0]) }
            return CommandOutput(
                text: view.output ?? "revoked",
                json: .object([
                    ("app", .string(inv.arguments[0])),
                    ("hash", .string(view.transaction.hash)), ("revoked", .bool(true)),
                ]))
        })

    static let grants = Command(
        name: "grants", summary: "list the apps this wallet (or --user) authorized",
        examples: ["mosaic social grants", "mosaic social grants --user CLIENT_ID --json"],
        options: GrantsOptions.self,
        action: { o, inv in
            let ctx = try LedgerContext(inv, needsWallet: o.user == nil)
            let user = o.user?.lowercased() ?? ctx.readOnlyWallet().clientID
            let list = try await run { () async throws(SocialError) in try await SocialClient(client: ctx.client).grants(of: user) }
            return listing(
                ["APP", "CLIENT ID", "SCOPES", "EXPIRES (UTC)", "STATUS"],
                list.map { g in
                    [
                        g.appName, short(g.app), g.scopes.map(\.rawValue).joined(separator: ","), Wallet.iso8601(g.expiresAt),
                        g.expired ? "expired" : "active",
                    ]
                }, empty: "no grants; authorize an app with 'mosaic social authorize --app APP --scopes vote,comment --expires 7d'",
                more: nil, json: .object([("user", .string(user)), ("grants", .array(try list.map(json)))]))
        })

    struct GrantsOptions: CommandOptions {
        @Option("user", "CLIENT_ID", help: "another account's grants") var user: String?
    }

    struct RegisterOptions: CommandOptions {
        @Option("name", "NAME", help: "3–32 of a-z, 0-9, -") var name: String
        @Option("redirect", "URL", help: "where a consent page returns the user") var redirect: String
    }

    static let app = Command(
        name: "app", summary: "register this wallet as an app, or show an app",
        subcommands: [appRegister, appShow])

    static let appRegister = Command(
        name: "register", summary: "register this wallet's account as an app users can authorize",
        examples: ["mosaic social app register --name reader --redirect https://reader.example/callback"],
        options: RegisterOptions.self,
        action: { o, inv in
            let name = o.name
            let redirect = o.redirect
            let social = try writer(inv, for: nil)
            let a = try await run { () async throws(SocialError) in try await social.registerApp(name: name, redirectURL: redirect) }
            return CommandOutput(text: "registered app \(a.name) (\(a.clientID)), redirect \(a.redirectURL)", json: try json(a))
        })

    static let appShow = Command(
        name: "show", summary: "show a registered app by name or client id",
        usage: "APP", arguments: ["APP"], minArguments: 1, maxArguments: 1,
        action: { inv in
            let social = try reader(inv)
            guard let a = try await run({ () async throws(SocialError) in try await social.app(inv.arguments[0]) }) else {
                throw CLIError.failure("no app \(inv.arguments[0]) is registered")
            }
            return CommandOutput(
                text: "app \(a.name)\nclient id: \(a.clientID)\nredirect:  \(a.redirectURL)\nregistered: \(Wallet.iso8601(a.registered))",
                json: try json(a))
        })

    // MARK: helpers

    /// What stake, unstake and claim print: the contract's output line and the transaction.
    static func receipt(_ view: TransactionView, done: String, amount: UInt64?) -> CommandOutput {
        CommandOutput(
            text: "\(view.output ?? done) (transaction \(view.transaction.hash))",
            json: .object(
                JSONObject(
                    [("hash", .string(view.transaction.hash)), ("status", .string(view.status.rawValue))]
                        + (amount.map { [("amount", JSONValue.unsigned($0))] } ?? []) + [("output", .optional(view.output))])))
    }

    /// A list as a table of `rows` under `headers` (or `empty` when there are none), with the
    /// flags that read the next page (`more: --start …`).
    static func listing(_ headers: [String], _ rows: [[String]], empty: String, more: String?, json: JSONValue) -> CommandOutput {
        var table = Table(headers)
        for row in rows { table.add(row) }
        var text = rows.isEmpty ? empty : table.rendered()
        if let more { text += "\nmore: \(more)" }
        return CommandOutput(text: text, json: json)
    }

    static func reader(_ inv: Invocation) throws -> SocialClient {
        SocialClient(client: try LedgerContext(inv, needsWallet: false).client)
    }

    /// The unlocked wallet's client, acting for `--for` when given.
    static func writer(_ inv: Invocation, for user: String?) throws -> SocialClient {
        let social = SocialClient(wallet: try LedgerContext(inv).unlockedWallet())
        guard let user else { return social }
        guard Transaction.isHexID(user.lowercased()) else {
            throw CLIError.usage("--for \(user): give the user's client id (64 hex characters)")
        }
        return social.acting(for: user.lowercased())
    }

    static func postID(_ text: String) throws -> SocialPostID {
        guard let id = SocialPostID(path: text) else {
            throw CLIError.usage(
                "'\(text.prefix(80))' is not AUTHOR/PERMLINK: the author's client id (64 hex), '/', and a permlink of a-z, 0-9 and -")
        }
        return id
    }

    /// Runs an SDK call; bad input becomes a usage error, the chain's refusal a failure with its message.
    static func run<T>(_ body: () async throws(SocialError) -> T) async throws -> T {
        let result: Result<T, SocialError>
        do { result = .success(try await body()) } catch { result = .failure(error) }
        switch result {
        case .success(let v): return v
        case .failure(let e):
            switch e {
            case .invalid(let m): throw CLIError.usage(m)
            case .wallet(let w): throw w
            case .node(let n): throw n
            default: throw CLIError.failure(e.description)
            }
        }
    }

    static func shown(_ social: SocialClient, _ id: SocialPostID, headline: String?) async throws -> CommandOutput {
        guard let p = try await run({ () async throws(SocialError) in try await social.post(id) }) else {
            throw CLIError.failure("post \(id) does not exist")
        }
        var lines = headline.map { [$0] } ?? []
        lines += [
            "post:        \(p.path)",
            p.isRoot ? "category:    \(p.category)" : "reply to:    \(p.parentAuthor)/\(p.parentPermlink)",
            "title:       \(p.title.isEmpty ? "-" : p.title)",
            "tags:        \(p.tags.isEmpty ? "-" : p.tags.joined(separator: ", "))",
            "created:     \(UTCTime.dateTime(p.created)) UTC\(p.lastUpdate != p.created ? " (edited \(UTCTime.dateTime(p.lastUpdate)) UTC)" : "")",
            "rshares:     \(p.netRshares) from \(p.voteCount) vote\(p.voteCount == 1 ? "" : "s")",
            "replies:     \(p.children)",
            "author:      \(p.authorName ?? "-")",
            "payout:      \(p.paidOut ? "closed" : "open until") \(Wallet.iso8601(p.payoutAt))",
            "reward:      \(rewardText(p))",
            "", p.body,
        ]
        return CommandOutput(text: lines.joined(separator: "\n"), json: try json(p))
    }

    /// A post's id as printed: whole, so that 'social vote', 'reply' and 'show' accept what was printed.
    static func short(_ path: String) -> String { path }

    static func normalized(_ idOrName: String) -> String { Transaction.isHexID(idOrName.lowercased()) ? idOrName.lowercased() : idOrName }

    /// "1.5 (author 1.125, curators 0.375)", "≈ 0.2 pending" or "-".
    static func rewardText(_ p: SocialPost) -> String {
        if let r = p.reward {
            return
                "\(TokenAmount(baseUnits: r.author + r.curation)) (author \(TokenAmount(baseUnits: r.author)), curators \(TokenAmount(baseUnits: r.curation)))"
        }
        if let e = p.pendingReward { return "≈ \(TokenAmount(baseUnits: e)) pending" }
        return "-"
    }

    static func accountText(_ a: SocialAccount, now: Int64) -> String {
        let power = "\(a.votingPower / 100).\(String(format: "%02d", a.votingPower % 100)) %"
        let next = a.nextRootPostAt.map { "in \(max(0, $0 - now)) s (at \(UTCTime.dateTime($0)) UTC)" } ?? "now"
        return """
            name:          \(a.name ?? "- (set one with 'mosaic social profile --name NAME')")
            client id:     \(a.clientID)
            about:         \(a.about.map { $0.isEmpty ? "-" : $0.replacingOccurrences(of: "\n", with: "\n               ") } ?? "-")
            reputation:    \(a.reputationScore) (\(a.reputation) net rshares received)
            posts:         \(a.postCount)
            rewards:       \(TokenAmount(baseUnits: a.rewards.author)) as author, \(TokenAmount(baseUnits: a.rewards.curation)) as curator, \(TokenAmount(baseUnits: a.rewards.pending)) unclaimed
            voting power:  \(power)
            voting stake:  \(TokenAmount(baseUnits: a.stake)) tokens\(a.stakeLockedUntil.map { ", locked until " + UTCTime.dateTime($0) + " UTC" } ?? "")
            next root post: \(next)
            created:       \(a.created.map { UTCTime.dateTime($0) + " UTC" } ?? "no social activity yet")
            """
    }

    // `--json` prints what the API sends: each type's own Codable form (`JSONValue.output`).

    static func rewardsJSON(_ r: SocialRewardBalance) throws -> JSONValue { try .output(r) }
    static func json(_ a: SocialAccount) throws -> JSONValue { try .output(a) }
    static func json(_ p: SocialPost) throws -> JSONValue { try .output(p) }
    static func json(_ g: SocialGrant) throws -> JSONValue { try .output(g) }
    static func json(_ a: SocialApp) throws -> JSONValue { try .output(a) }
}
