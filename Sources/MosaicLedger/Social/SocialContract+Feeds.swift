import MosaicProtocol

/// The social views (docs/SOCIAL.md §6): feeds, one post, replies, votes, accounts.
extension SocialContract {
    /// `feed`: args `sort` (trending | hot | created, default trending), `tag`, `limit` (1–100,
    /// default 20), `start_author` + `start_permlink` (the page continues strictly after that
    /// post), `truncate_body` (bytes, 0 = the card's body: at most 1,024 bytes). One ordered
    /// range scan of the feed keys, whose values are the posts' cards.
    func feedView(_ store: SocialStore, _ a: ContractArgs) throws(ContractError) -> JSONValue {
        let sortText = try a.optionalString("sort") ?? SocialSort.trending.rawValue
        guard let sort = SocialSort(rawValue: sortText) else {
            throw .invalidArguments("sort \"\(sortText.prefix(40))\" is unknown: use trending, hot or created")
        }
        var tag = try a.optionalString("tag")?.lowercased()
        if tag == "" || tag == SocialKeys.allTags { tag = nil }
        if let t = tag, !SocialRules.isValidTag(t) {
            throw .invalidArguments("tag \"\(t.prefix(40))\" must be 1–24 characters of a-z, 0-9 and -")
        }
        let limit = try Self.limit(a, default: 20)
        let bodyLimit = try Self.bodyLimit(a)
        let prefix = SocialKeys.feedPrefix(sort, tag: tag)
        var after: String?
        if let startAuthor = try a.optionalClientID("start_author") {
            let startPermlink = try Self.permlink(ContractArgs(["permlink": .string(try a.string("start_permlink"))]))
            guard let start = try store.post(startAuthor, startPermlink) else {
                throw .invalidArguments("start post \(startAuthor)/\(startPermlink) does not exist")
            }
            guard let order = SocialKeys.order(start, sort), sort == .created || !start.paidOut,
                tag.map({ start.tags.contains($0) }) ?? true
            else {
                throw .invalidArguments(
                    "start post \(start.path) is not in the \(sort.rawValue) feed\(tag.map { " of tag \($0)" } ?? ""); start from an item of a page of this feed"
                )
            }
            after = SocialKeys.feed(sort, tag: tag, order: order, start.author, start.permlink)
        } else if try a.optionalString("start_permlink") != nil {
            throw .invalidArguments("\"start_permlink\" needs \"start_author\"")
        }

        var posts: [JSONValue] = []
        var last: SocialPost?
        var more = false
        // One row beyond the page tells whether anything follows. Posts past their payout that
        // endBlock has not removed yet are skipped (at most 200 a block are pending), so a page is
        // still `limit` long when the feed has that many.
        scanning: while true {
            let want = limit - posts.count + 1
            let rows = try store.reader.scan(prefix: prefix, after: after, limit: want, reverse: false)
            for row in rows {
                after = row.key
                if posts.count == limit, sort == .created {
                    more = true
                    break scanning
                }
                guard var post = SocialCodec.decodePost(row.value, bodyLimit: bodyLimit) else {
                    throw .refused(.stateUnavailable, "social state \(row.key) is unreadable")
                }
                post.paidOut = store.now >= post.payoutAt
                if sort != .created, post.paidOut { continue }
                if posts.count == limit {
                    more = true
                    break scanning
                }
                posts.append(post.jsonValue)
                last = post
            }
            if rows.count < want { break }
        }
        let next: JSONValue = more ? last.map { .string($0.path) } ?? .null : .null
        return .object(["sort": .string(sort.rawValue), "tag": tag.map(JSONValue.string) ?? .null, "posts": .array(posts), "next": next])
    }

    /// `post`: args `author`, `permlink`, `truncate_body`; the post or null, with its author's
    /// name and its reward (or the pending estimate).
    func postView(_ store: SocialStore, _ a: ContractArgs) throws(ContractError) -> JSONValue {
        let author = try a.clientID("author")
        let permlink = try Self.permlink(a)
        guard let post = try store.post(author, permlink, bodyLimit: try Self.bodyLimit(a)) else { return .null }
        return try Self.withReward(store, post)
    }

    /// `replies`: args `author`, `permlink`, `limit` (1–100, default 100), `start` (index of
    /// the first reply, default 0), `truncate_body`. Direct replies in creation order:
    /// `{"replies":[…],"next":index or null}`.
    func repliesView(_ store: SocialStore, _ a: ContractArgs) throws(ContractError) -> JSONValue {
        let author = try a.clientID("author")
        let permlink = try Self.permlink(a)
        let limit = try Self.limit(a, default: 100)
        let start = try a.optionalInt64("start") ?? 0
        guard start >= 0, start <= Int64(UInt32.max) else { throw .invalidArguments("\"start\" must be a reply index ≥ 0") }
        let bodyLimit = try Self.bodyLimit(a)
        guard let parent = try store.post(author, permlink) else { throw .invalidArguments("post \(author)/\(permlink) does not exist") }
        let after: String? = start == 0 ? nil : SocialKeys.reply(author, permlink, index: UInt32(start - 1))
        let rows = try store.reader.scan(prefix: SocialKeys.replies(author, permlink), after: after, limit: limit, reverse: false)
        var out: [JSONValue] = []
        for row in rows { if let p = try store.post(path: row.value, bodyLimit: bodyLimit) { out.append(p.jsonValue) } }
        let end = start + Int64(rows.count)
        return .object(["replies": .array(out), "next": end < Int64(parent.children) ? .integer(end) : .null])
    }

    /// `votes`: args `author`, `permlink`, `limit` (1–100, default 100), `start_voter`; the
    /// current votes ordered by voter: `{"votes":[…],"next":voter or null}`.
    func votesView(_ store: SocialStore, _ a: ContractArgs) throws(ContractError) -> JSONValue {
        let author = try a.clientID("author")
        let permlink = try Self.permlink(a)
        let limit = try Self.limit(a, default: 100)
        let prefix = SocialKeys.votes(author, permlink)
        let after = try a.optionalClientID("start_voter").map { prefix + $0 }
        let rows = try store.reader.scan(prefix: prefix, after: after, limit: limit + 1, reverse: false)
        var out: [JSONValue] = []
        for row in rows.prefix(limit) {
            let v = try SocialCodec.decodeJSON(row.value, as: SocialVote.self, key: row.key)
            out.append(v.jsonValue)
        }
        let next: JSONValue = rows.count > limit ? .string(String(rows[limit - 1].key.dropFirst(prefix.count))) : .null
        return .object(["votes": .array(out), "next": next])
    }

    static func limit(_ a: ContractArgs, default value: Int) throws(ContractError) -> Int {
        guard let l = try a.optionalInt64("limit") else { return value }
        guard l >= 1, l <= Int64(SocialRules.maxFeedLimit) else { throw .invalidArguments("limit \(l) is out of range: give 1–100") }
        return Int(l)
    }

    static func bodyLimit(_ a: ContractArgs) throws(ContractError) -> Int {
        guard let l = try a.optionalInt64("truncate_body") else { return 0 }
        guard l >= 0 else { throw .invalidArguments("truncate_body must be ≥ 0 (0 keeps whole bodies)") }
        return Int(min(l, Int64(SocialRules.maxBodyBytes)))
    }
}

extension SocialPost {
    /// The post as a view result (the same fields and names as its Codable form).
    var jsonValue: JSONValue {
        .object([
            "author": .string(author), "permlink": .string(permlink), "parent_author": .string(parentAuthor),
            "parent_permlink": .string(parentPermlink), "category": .string(category), "title": .string(title),
            "body": .string(body), "json_metadata": .string(jsonMetadata), "tags": .array(tags.map(JSONValue.string)),
            "created": .integer(created), "last_update": .integer(lastUpdate), "depth": .integer(Int64(depth)),
            "children": .integer(Int64(children)), "net_rshares": .integer(netRshares), "vote_count": .integer(Int64(voteCount)),
            "trending_score": .integer(trendingScore), "hot_score": .integer(hotScore), "payout_at": .integer(payoutAt),
            "paid_out": .bool(paidOut), "sequence": .integer(Int64(clamping: sequence)), "body_truncated": .bool(bodyTruncated),
        ])
    }
}

extension SocialVote {
    var jsonValue: JSONValue {
        .object([
            "voter": .string(voter), "author": .string(author), "permlink": .string(permlink), "weight": .integer(Int64(weight)),
            "rshares": .integer(rshares), "changes": .integer(Int64(changes)), "time": .integer(time),
        ])
    }
}
