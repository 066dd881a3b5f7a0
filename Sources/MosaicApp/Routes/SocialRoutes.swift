import Foundation
import MosaicHTTP
import MosaicHTTPServer
import MosaicProtocol
import MosaicSDK

/// Social: feeds, posts with their threaded replies, compose, reply, vote and the user's app
/// grants, over the SDK's `SocialClient` with the session's wallet (docs/APP_API.md, Social).
/// Writes wait until the transaction is sealed, so the page shows a loading state meanwhile and
/// the chain's refusal (e.g. "one root post per 5 minutes…") comes back as the error message.
extension AppServer {
    struct PostBody: Decodable {
        let title: String?
        let body: String
        /// Tags as a list or as one text ("intro, swift" or "intro swift").
        let tags: TagList?
    }

    struct ReplyBody: Decodable {
        let parent: String
        let body: String
    }

    struct EditBody: Decodable {
        let id: String
        let title: String?
        let body: String?
        let tags: TagList?
    }

    struct VoteBody: Decodable {
        let id: String
        let weight: Int
    }

    /// Tokens as text ("0.5"); for unstake, absent means all.
    struct StakeBody: Decodable {
        let amount: String?
    }

    struct RevokeBody: Decodable {
        let app: String
    }

    /// `["a","b"]` or `"a, b"` / `"a b"`.
    struct TagList: Decodable {
        let values: [String]
        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let list = try? c.decode([String].self) {
                values = list
            } else {
                let text = try c.decode(String.self)
                values = text.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "#" }).map(String.init)
            }
        }
    }

    func registerSocialRoutes() {
        api(
            .get, "/api/social/feed", summary: "A feed page: trending, hot or created, optionally one tag", access: .open,
            parameters: [AppParameters.sort, AppParameters.tag, AppParameters.feedLimit, AppParameters.start, AppParameters.round],
            errors: [409, 422]
        ) { [self] req in
            let social = try socialReader(req)
            let sort = try req.http[AppParameters.sort]
            let tag = try AppServer.tagFilter(try req.http[AppParameters.tag])
            let limit = try req.http[AppParameters.feedLimit]
            var start: SocialPostID?
            if let s = try req.http[AppParameters.start] { start = try AppServer.postID(s) }
            let round = try req.http[AppParameters.round]
            let page = try await mapSocial {
                try await social.feed(sort, tag: tag, limit: limit, start: start, round: round, truncateBody: 280)
            }
            let names = await AppServer.names(social, page.posts.map(\.author))
            return try AppServer.json([
                "sort": page.sort.rawValue, "tag": page.tag ?? NSNull(),
                "posts": try page.posts.map { try AppServer.postJSON($0, names: names) },
                "next": page.next ?? NSNull(), "round": page.round,
            ])
        }

        api(
            .get, "/api/social/post", summary: "One post with the current votes on it", access: .open,
            parameters: [AppParameters.postID], errors: [404, 409, 422]
        ) { [self] req in
            let social = try socialReader(req)
            let id = try AppServer.postID(try req.http[AppParameters.postID])
            guard let post = try await mapSocial({ try await social.post(id) }) else {
                throw HTTPError.notFound("post \(id) does not exist (it may not be sealed yet)", code: "unknown_post")
            }
            let votes = try await mapSocial { try await social.votes(on: id) }
            let me = social.actor ?? ""
            let names = await AppServer.names(social, [post.author] + votes.map(\.voter))
            return try AppServer.json([
                "post": try AppServer.postJSON(post, names: names),
                "votes": try votes.map { v in
                    var j = try AppServer.encodable(v)
                    j["voter_name"] = names[v.voter] ?? NSNull()
                    return j
                },
                "my_vote": votes.first(where: { $0.voter == me }).map { Int($0.weight) } ?? 0,
            ])
        }

        api(
            .get, "/api/social/replies", summary: "The direct replies of a post, in creation order", access: .open,
            parameters: [AppParameters.postID], errors: [404, 409, 422]
        ) { [self] req in
            let social = try socialReader(req)
            let id = try AppServer.postID(try req.http[AppParameters.postID])
            let replies = try await mapSocial { try await social.replies(to: id) }
            let names = await AppServer.names(social, replies.replies.map(\.author))
            // Each reply with the wallet's current vote on it, so its slider starts there.
            let me = social.actor ?? ""
            var out: [[String: Any]] = []
            for reply in replies.replies {
                var json = try AppServer.postJSON(reply, names: names)
                var mine = 0
                if reply.voteCount > 0, out.count < 100, !me.isEmpty {
                    let votes = try await mapSocial {
                        try await social.votes(on: SocialPostID(author: reply.author, permlink: reply.permlink))
                    }
                    mine = votes.first(where: { $0.voter == me }).map { Int($0.weight) } ?? 0
                }
                json["my_vote"] = mine
                out.append(json)
            }
            return try AppServer.json(["parent": id.description, "replies": out, "round": replies.round])
        }

        api(
            .post, "/api/social/posts", summary: "Write a root post (waits until sealed)", access: .wallet,
            body: .json(
                .object(
                    [
                        ("title", .string(maxLength: 1024)), ("body", .string(maxLength: 65536)),
                        ("tags", .either(.array(.string(maxLength: 64), maxItems: 16), .string(maxLength: 1024))),
                    ], required: ["body"])),
            statuses: [201], errors: [409, 422]
        ) { [self] req in
            let body = try req.decode(PostBody.self)
            let social = try socialClient(req)
            let title = (body.title ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            guard !title.isEmpty else { throw HTTPError.unprocessable("give the post a title", code: "invalid") }
            let tags = (body.tags?.values ?? []).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
            guard tags.count <= SocialRules.maxTags else {
                throw HTTPError.unprocessable("at most \(SocialRules.maxTags) tags; you gave \(tags.count)", code: "invalid")
            }
            let id = try await mapSocial { try await social.post(title: title, body: body.body, tags: tags) }
            return try await postAnswer(social, id)
        }

        api(
            .post, "/api/social/replies", summary: "Reply to a post or a reply (waits until sealed)", access: .wallet,
            body: .json(.object([("parent", .string(maxLength: SocialPostID.maxTextBytes)), ("body", .string(maxLength: 65536))])),
            statuses: [201], errors: [409, 422]
        ) { [self] req in
            let body = try req.decode(ReplyBody.self)
            let social = try socialClient(req)
            let parent = try AppServer.postID(body.parent)
            let id = try await mapSocial { try await social.reply(to: parent, body: body.body) }
            return try await postAnswer(social, id)
        }

        api(
            .post, "/api/social/edit", summary: "Change the wallet's own post or reply before payout (waits until sealed)", access: .wallet,
            body: .json(
                .object(
                    [
                        ("id", .string(maxLength: SocialPostID.maxTextBytes)), ("title", .string(maxLength: 1024)),
                        ("body", .string(maxLength: 65536)),
                        ("tags", .either(.array(.string(maxLength: 64), maxItems: 16), .string(maxLength: 1024))),
                    ], required: ["id"])),
            errors: [403, 409, 422]
        ) { [self] req in
            let body = try req.decode(EditBody.self)
            let social = try socialClient(req)
            let id = try AppServer.postID(body.id)
            guard id.author == social.actor else {
                throw HTTPError.forbidden("only the author can edit \(id); this wallet is \(social.actor ?? "?")", code: "not_author")
            }
            let tags = body.tags.map { $0.values.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty } }
            _ = try await mapSocial { try await social.edit(id, title: body.title, body: body.body, tags: tags) }
            return try await postAnswer(social, id, status: 200)
        }

        api(
            .post, "/api/social/votes", summary: "Vote on a post: weight -10000…10000, 0 removes (waits until sealed)", access: .wallet,
            body: .json(.object([("id", .string(maxLength: SocialPostID.maxTextBytes)), ("weight", .integer(-10_000...10_000))])),
            errors: [404, 409, 422]
        ) { [self] req in
            let body = try req.decode(VoteBody.self)
            let social = try socialClient(req)
            let id = try AppServer.postID(body.id)
            let tx = try await mapSocial { try await social.vote(id, weight: body.weight) }
            guard let post = try await mapSocial({ try await social.post(id) }) else {
                throw HTTPError.notFound("post \(id) does not exist", code: "unknown_post")
            }
            return try AppServer.json(["post": try AppServer.postJSON(post), "my_vote": body.weight, "hash": tx.transaction.hash])
        }

        api(
            .post, "/api/social/stake", summary: "Lock tokens as the wallet's voting stake: votes count it (waits until sealed)",
            access: .wallet
        ) { [self] req in
            let body = try req.decode(StakeBody.self)
            let social = try socialClient(req)
            guard let text = body.amount, let amount = try? TokenAmount(parsing: text).baseUnits, amount > 0 else {
                throw HTTPError.unprocessable("give the amount to stake in tokens, such as 0.5", code: "invalid_amount")
            }
            let tx = try await mapSocial { try await social.stake(amount) }
            let account = try await mapSocial { try await social.account(try req.wallet().clientID) }
            return try AppServer.json(["account": try AppServer.encodable(account), "hash": tx.transaction.hash])
        }

        api(
            .post, "/api/social/unstake", summary: "Return voting stake (all without an amount) once no vote locks it (waits until sealed)",
            access: .wallet
        ) { [self] req in
            let body = try req.decode(StakeBody.self)
            let social = try socialClient(req)
            var amount: UInt64?
            if let text = body.amount, !text.isEmpty {
                guard let units = try? TokenAmount(parsing: text).baseUnits, units > 0 else {
                    throw HTTPError.unprocessable(
                        "give the amount to unstake in tokens, such as 0.5 (or nothing for all)", code: "invalid_amount")
                }
                amount = units
            }
            let tx = try await mapSocial { try await social.unstake(amount) }
            let account = try await mapSocial { try await social.account(try req.wallet().clientID) }
            return try AppServer.json(["account": try AppServer.encodable(account), "hash": tx.transaction.hash])
        }

        api(.get, "/api/social/account", summary: "The wallet's social account: post count, voting power", access: .wallet) { [self] req in
            let social = try socialClient(req)
            let me = try req.wallet().clientID
            let account = try await mapSocial { try await social.account(me) }
            var json = try AppServer.encodable(account)
            // Ledger time, so the page counts down to `next_root_post_at` even when a devnet moved its clock.
            if let info = try? await social.client.network() { json["ledger_time"] = info.time }
            return try AppServer.json(json)
        }

        api(
            .get, "/api/social/profile", summary: "An account's profile page: profile, reputation, rewards, posts, replies and votes",
            access: .open,
            parameters: [AppParameters.socialAccount], errors: [404, 422]
        ) { [self] req in
            let social = try socialReader(req)
            let who = try req.http[AppParameters.socialAccount].trimmingCharacters(in: .whitespaces)
            let key = Transaction.isHexID(who.lowercased()) ? who.lowercased() : who
            guard Transaction.isHexID(key) || SocialProfile.isValidName(key) else {
                throw HTTPError.unprocessable("\"\(who.prefix(64))\" is neither a profile name nor a client id", code: "invalid")
            }
            let list = try await mapSocial { try await social.accounts([key]) }
            guard let account = list.accounts.first else {
                throw HTTPError.notFound("no account has the name \(key)", code: "unknown_account")
            }
            let posts = try await mapSocial { try await social.accountPosts(account.clientID, limit: 20) }
            let replies = try await mapSocial { try await social.accountPosts(account.clientID, replies: true, limit: 20) }
            let votes = try await mapSocial { try await social.accountVotes(account.clientID, limit: 20) }
            let names = await AppServer.names(social, [account.clientID] + votes.votes.map(\.vote.author))
            return try AppServer.json([
                "account": try AppServer.encodable(account), "mine": account.clientID == social.actor,
                "posts": try posts.posts.map { try AppServer.postJSON($0, names: names) },
                "replies": try replies.posts.map { try AppServer.postJSON($0, names: names) },
                "votes": try votes.votes.map { v -> [String: Any] in
                    var j = try AppServer.encodable(v.vote)
                    j["id"] = "\(v.vote.author)/\(v.vote.permlink)"
                    j["title"] = v.title
                    j["is_reply"] = v.isReply
                    j["author_name"] = names[v.vote.author] ?? NSNull()
                    return j
                },
            ])
        }

        api(
            .post, "/api/social/profile", summary: "Set the wallet's profile: a unique name and an about text (waits until sealed)",
            access: .wallet,
            body: .json(.object([("name", .string(maxLength: 64)), ("about", .string(maxLength: 2048))])), errors: [409, 422]
        ) { [self] req in
            struct ProfileBody: Decodable {
                let name: String?
                let about: String?
            }
            let body = try req.decode(ProfileBody.self)
            let social = try socialClient(req)
            let name = body.name?.trimmingCharacters(in: .whitespaces).lowercased()
            let account = try await mapSocial { try await social.setProfile(name: name?.isEmpty == true ? nil : name, about: body.about) }
            return try AppServer.json(["account": try AppServer.encodable(account)])
        }

        api(
            .post, "/api/social/claim", summary: "Move the wallet's credited rewards into its balance (waits until sealed)",
            access: .wallet,
            errors: [409]
        ) { [self] req in
            let social = try socialClient(req)
            let tx = try await mapSocial { try await social.claimRewards() }
            let amount = tx.events?.first { $0.name == "claim_rewards" }?.attributes["amount"].flatMap { UInt64($0) } ?? 0
            let account = try await mapSocial { try await social.account(try req.wallet().clientID) }
            return try AppServer.json([
                "hash": tx.transaction.hash, "amount": amount, "amount_tokens": TokenAmount(baseUnits: amount).description,
                "account": try AppServer.encodable(account),
            ])
        }

        api(.get, "/api/social/grants", summary: "The apps this wallet authorized, expired ones flagged", access: .wallet) { [self] req in
            let social = try socialClient(req)
            let grants = try await mapSocial { try await social.grants() }
            return try AppServer.json(["grants": try grants.map { try AppServer.encodable($0) }])
        }

        api(
            .post, "/api/social/grants/revoke", summary: "End this wallet's grant to an app (waits until sealed)", access: .wallet,
            body: .json(.object([("app", .string(maxLength: 64))])), errors: [409, 422]
        ) { [self] req in
            let body = try req.decode(RevokeBody.self)
            let social = try socialClient(req)
            let app = body.app.trimmingCharacters(in: .whitespaces)
            guard !app.isEmpty else { throw HTTPError.unprocessable("name the app to revoke", code: "invalid") }
            let tx = try await mapSocial { try await social.revoke(app: app) }
            let grants = try await mapSocial { try await social.grants() }
            return try AppServer.json(["hash": tx.transaction.hash, "grants": try grants.map { try AppServer.encodable($0) }])
        }
    }

    /// For reads: the session's wallet when unlocked (so "my vote" is known), else the current
    /// network's node alone — feeds and posts need no wallet.
    func socialReader(_ req: AppRequest) throws -> SocialClient {
        if req.session.wallet != nil { return try socialClient(req) }
        let network = try mapConfig { try networkState.current() }
        return SocialClient(client: try mapConfig { try LedgerClient(network: network) })
    }

    /// Profile names of `ids` (at most 100 looked up; a failed lookup leaves them unnamed).
    static func names(_ social: SocialClient, _ ids: [String]) async -> [String: String] {
        var unique: [String] = []
        for id in ids where !unique.contains(id) && unique.count < SocialRules.maxAccountsPerRead { unique.append(id) }
        guard !unique.isEmpty, let list = try? await social.accounts(unique) else { return [:] }
        var out: [String: String] = [:]
        for a in list.accounts { if let n = a.name { out[a.clientID] = n } }
        return out
    }

    /// The session's wallet as a social client.
    func socialClient(_ req: AppRequest) throws -> SocialClient {
        SocialClient(wallet: try ledgerWallet(req))
    }

    /// The post (201 when new), read back once sealed.
    func postAnswer(_ social: SocialClient, _ id: SocialPostID, status: Int = 201) async throws -> HTTPResponse {
        let post = try await mapSocial { try await social.post(id) }
        var json: [String: Any] = ["id": id.description]
        json["post"] = try post.map { try AppServer.postJSON($0) } ?? NSNull()
        return try AppServer.json(json, status: status)
    }

    /// "AUTHOR/PERMLINK" checked, or a 400 that says the expected form.
    static func postID(_ text: String) throws -> SocialPostID {
        guard let id = SocialPostID(path: text.trimmingCharacters(in: .whitespaces)) else {
            throw HTTPError.badRequest(
                "\"\(text.prefix(80))\" is not a post id: give AUTHOR/PERMLINK (64 hex characters, then a-z, 0-9, -)",
                code: "invalid_post_id")
        }
        return id
    }

    static func tagFilter(_ text: String?) throws -> String? {
        guard let raw = text?.trimmingCharacters(in: .whitespaces).lowercased(), !raw.isEmpty else { return nil }
        let tag = raw.hasPrefix("#") ? String(raw.dropFirst()) : raw
        guard SocialRules.isValidTag(tag) else {
            throw HTTPError.badRequest("tag \"\(tag.prefix(40))\" must be 1–24 characters of a-z, 0-9 and -", code: "invalid_tag")
        }
        return tag
    }

    /// A post as the page reads it: the protocol's snake_case fields plus `id` ("AUTHOR/PERMLINK").
    static func postJSON(_ post: SocialPost, names: [String: String] = [:]) throws -> [String: Any] {
        var json = try encodable(post)
        if let n = post.authorName ?? names[post.author] { json["author_name"] = n }
        json["id"] = post.path
        json["parent_id"] = post.isRoot ? NSNull() : "\(post.parentAuthor)/\(post.parentPermlink)"
        return json
    }

    /// Any Codable protocol value as a JSON dictionary (its own coding keys are the API's).
    static func encodable<T: Encodable>(_ value: T) throws -> [String: Any] {
        let data = try JSONEncoder().encode(value)
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw HTTPError.internalError("response encoding failed")
        }
        return object
    }

    /// Social failures as HTTP answers: bad input 422, the chain's refusal 409 with its message.
    func mapSocial<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as SocialError {
            switch error {
            case .invalid(let m): throw HTTPError.unprocessable(m, code: "invalid")
            case .refused(_, let failure): throw HTTPError.conflict(failure.message, code: failure.code)
            case .noWallet: throw HTTPError.unauthorized(error.description, code: "locked")
            case .wallet(let e): return try await mapWallet { () throws -> T in throw e }
            case .node(let e): return try await mapWallet { () throws -> T in throw WalletError.node(e) }
            }
        }
    }
}
