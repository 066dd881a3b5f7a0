import Foundation
import MosaicProtocol

/// `social.comment` and `social.edit` (docs/SOCIAL.md §2).
extension SocialContract {
    /// A new root post (`parent_author` empty; `parent_permlink` is its category) or reply.
    /// Args: `permlink`, `body`, optional `author` (default the caller; another user needs a
    /// grant with scope comment), `parent_author`, `parent_permlink`, `title`, `json_metadata`, `tags`.
    func comment(_ context: ContractContext, _ a: ContractArgs) throws(ContractError) -> String {
        let store = SocialStore(reader: context)
        let author = try a.optionalClientID("author") ?? context.caller
        let permlink = try Self.permlink(a)
        let parentAuthor = try a.optionalString("parent_author") ?? ""
        let parentPermlink = try a.optionalString("parent_permlink") ?? ""
        let title = try Self.title(a.optionalString("title") ?? "")
        let body = try Self.body(a.string("body"))
        let meta = try Self.metadata(a.optionalString("json_metadata") ?? "")
        var tags = try Self.tags(a.optionalStrings("tags") ?? [])
        if parentAuthor.isEmpty {
            guard SocialRules.isValidTag(parentPermlink) else {
                throw .invalidArguments(
                    parentPermlink.isEmpty
                        ? "a root post needs a category: give \"parent_permlink\" (1–24 of a-z, 0-9 and -), e.g. \"general\""
                        : "category \"\(parentPermlink.prefix(40))\" must be 1–24 characters of a-z, 0-9 and -")
            }
        } else {
            guard Transaction.isHexID(parentAuthor) else {
                throw .invalidArguments("\"parent_author\" must be a client id (64 lowercase hex characters)")
            }
            guard SocialRules.isValidPermlink(parentPermlink) else {
                throw .invalidArguments("\"parent_permlink\" must be 1–255 characters of a-z, 0-9 and -")
            }
        }
        try authorize(context, store, actor: author, scope: .comment)

        let now = context.now
        if try context.get(SocialKeys.post(author, permlink)) != nil {
            throw .refused(
                .alreadyExists,
                "post \(author)/\(permlink) already exists and permlinks are unique per author; change it with social.edit ('mosaic social edit') or choose another permlink"
            )
        }
        var account = try store.account(author)
        let category: String
        let depth: UInt32
        var parent: SocialPost?
        if parentAuthor.isEmpty {
            if let last = account.lastRootPost, now < last + SocialRules.rootPostInterval {
                throw .refused(
                    .rateLimited,
                    "one root post per 5 minutes: your last was at \(UTCTime.iso8601(last)); post again at \(Self.when(last + SocialRules.rootPostInterval, now: now))"
                )
            }
            category = parentPermlink
            tags.removeAll { $0 == category }
            tags.insert(category, at: 0)
            depth = 0
        } else {
            guard let p = try store.post(parentAuthor, parentPermlink) else {
                throw .refused(.notFound, "parent post \(parentAuthor)/\(parentPermlink) does not exist")
            }
            if let last = account.lastReply, now < last + SocialRules.replyInterval {
                throw .refused(
                    .rateLimited,
                    "one reply per 3 seconds: your last was at \(UTCTime.iso8601(last)); reply again at \(Self.when(last + SocialRules.replyInterval, now: now))"
                )
            }
            guard p.depth < 255 else { throw .refused(.limitExceeded, "replies nest at most 255 deep; reply higher up the thread") }
            guard p.children < UInt32.max else {
                throw .refused(.limitExceeded, "post \(p.path) has the most replies a post can have; reply elsewhere in the thread")
            }
            parent = p
            category = p.category
            depth = p.depth + 1
        }
        guard tags.count <= SocialRules.maxTags else {
            throw .invalidArguments(
                "at most \(SocialRules.maxTags) tags including the category; got \(tags.count): \(tags.joined(separator: ", "))")
        }

        let sequence = try nextSequence(context)
        var post = SocialPost(
            author: author, permlink: permlink, parentAuthor: parentAuthor, parentPermlink: parentPermlink,
            category: category, title: title, body: body, jsonMetadata: meta, tags: tags, created: now,
            lastUpdate: now, depth: depth, payoutAt: now + SocialRules.payoutWindow, sequence: sequence)
        post.trendingScore = post.isRoot ? SocialScore.trending(rshares: 0, created: now) : 0
        post.hotScore = post.isRoot ? SocialScore.hot(rshares: 0, created: now) : 0
        try save(context, post, replacing: nil)
        if var p = parent {
            try context.set(SocialKeys.reply(p.author, p.permlink, index: p.children), Array(post.path.utf8))
            let before = p
            p.children += 1
            try save(context, p, replacing: before)
            account.lastReply = now
        } else {
            account.lastRootPost = now
        }
        // Posts and replies are paid when their payout window closes (§8), and listed on the author's page.
        try context.set(SocialKeys.payout(post.payoutAt, author, permlink), Array(post.path.utf8))
        let windowIndex = SocialRewards.window(of: post.payoutAt)
        var window = try store.window(windowIndex) ?? SocialRewardWindow()
        window.posts += 1
        try context.set(SocialKeys.window(windowIndex), try SocialCodec.encodeJSON(window))
        try context.set(SocialKeys.accountPost(post), Array(post.path.utf8))
        if account.created == nil {
            account.created = now
            account.powerTime = now
        }
        account.postCount += 1
        try saveAccount(context, author, account)
        try context.emit(post.isRoot ? "post" : "reply", ["author": author, "permlink": permlink, "parent": parent?.path ?? category])
        return post.isRoot ? "posted \(post.path) in \(category)" : "replied \(post.path) to \(parentAuthor)/\(parentPermlink)"
    }

    /// Changes the title, body, metadata or tags of a post before its payout. The parent (and so
    /// the category) never changes: giving a different `parent_author`/`parent_permlink` fails.
    func edit(_ context: ContractContext, _ a: ContractArgs) throws(ContractError) -> String {
        let store = SocialStore(reader: context)
        let author = try a.optionalClientID("author") ?? context.caller
        let permlink = try Self.permlink(a)
        let title = try a.optionalString("title").map { t throws(ContractError) in try Self.title(t) }
        let body = try a.optionalString("body").map { b throws(ContractError) in try Self.body(b) }
        let meta = try a.optionalString("json_metadata").map { m throws(ContractError) in try Self.metadata(m) }
        let newTags = try a.optionalStrings("tags").map { t throws(ContractError) in try Self.tags(t) }
        guard title != nil || body != nil || meta != nil || newTags != nil else {
            throw .invalidArguments("nothing to change: give \"title\", \"body\", \"json_metadata\" or \"tags\"")
        }
        try authorize(context, store, actor: author, scope: .comment)
        guard let old = try store.post(author, permlink) else {
            throw .refused(.notFound, "post \(author)/\(permlink) does not exist, so it cannot be edited; create it with social.comment")
        }
        let parentAuthor = try a.optionalString("parent_author")
        let parentPermlink = try a.optionalString("parent_permlink")
        if (parentAuthor != nil && parentAuthor != old.parentAuthor) || (parentPermlink != nil && parentPermlink != old.parentPermlink) {
            let was = old.isRoot ? "a root post in category \(old.category)" : "a reply to \(old.parentAuthor)/\(old.parentPermlink)"
            throw .refused(.invalidArgument, "the parent of a post cannot change: \(old.path) is \(was)")
        }
        if old.paidOut {
            throw .refused(
                .expired, "post \(old.path) was paid out at \(UTCTime.iso8601(old.payoutAt)); edits are allowed only until payout")
        }
        var post = old
        if let title { post.title = title }
        if let body { post.body = body }
        if let meta { post.jsonMetadata = meta }
        if var tags = newTags {
            if post.isRoot {
                tags.removeAll { $0 == post.category }
                tags.insert(post.category, at: 0)
            }
            guard tags.count <= SocialRules.maxTags else {
                throw .invalidArguments(
                    "at most \(SocialRules.maxTags) tags including the category; got \(tags.count): \(tags.joined(separator: ", "))")
            }
            post.tags = tags
        }
        post.lastUpdate = context.now
        try save(context, post, replacing: old)
        try context.emit("edit", ["author": author, "permlink": permlink])
        return "edited \(post.path)"
    }

    func nextSequence(_ context: ContractContext) throws(ContractError) -> UInt64 {
        let last = try context.get(SocialKeys.sequence).flatMap { UInt64(String(decoding: $0, as: UTF8.self)) } ?? 0
        try context.set(SocialKeys.sequence, Array(String(last + 1).utf8))
        return last + 1
    }

    // MARK: Shape rules (invalid arguments change nothing)

    static func permlink(_ a: ContractArgs) throws(ContractError) -> String {
        let p = try a.string("permlink")
        guard SocialRules.isValidPermlink(p) else {
            throw .invalidArguments(
                p.isEmpty
                    ? "permlink is empty: give 1–255 characters of a-z, 0-9 and -"
                    : "permlink \"\(p.prefix(60))\(p.count > 60 ? "…" : "")\" must be 1–255 characters of a-z, 0-9 and - (\(p.utf8.count) bytes given)"
            )
        }
        return p
    }

    static func title(_ t: String) throws(ContractError) -> String {
        guard t.utf8.count <= SocialRules.maxTitleBytes else {
            throw .invalidArguments("title is \(t.utf8.count) bytes; it must be under 256 bytes")
        }
        return t
    }

    static func body(_ b: String) throws(ContractError) -> String {
        guard !b.isEmpty else { throw .invalidArguments("body is empty; write something") }
        guard b.utf8.count <= SocialRules.maxBodyBytes else {
            throw .invalidArguments("body is \(b.utf8.count) bytes; at most 65536 (64 KiB) are allowed")
        }
        return b
    }

    /// Empty, or a JSON object of at most 16 KiB.
    static func metadata(_ m: String) throws(ContractError) -> String {
        if m.isEmpty { return m }
        guard m.utf8.count <= SocialRules.maxMetadataBytes else {
            throw .invalidArguments("json_metadata is \(m.utf8.count) bytes; at most \(SocialRules.maxMetadataBytes) are allowed")
        }
        guard (try? JSONSerialization.jsonObject(with: Data(m.utf8))) is [String: Any] else {
            throw .invalidArguments("json_metadata is not valid JSON: give a JSON object such as {\"app\":\"mosaic\"} (or nothing)")
        }
        return m
    }

    /// Lowercased, without duplicates, each 1–24 of [a-z0-9-].
    static func tags(_ given: [String]) throws(ContractError) -> [String] {
        var out: [String] = []
        for raw in given {
            let t = raw.lowercased()
            guard SocialRules.isValidTag(t) else {
                throw .invalidArguments("tag \"\(raw.prefix(40))\" must be 1–24 characters of a-z, 0-9 and -")
            }
            if !out.contains(t) { out.append(t) }
        }
        guard out.count <= SocialRules.maxTags else {
            throw .invalidArguments("at most \(SocialRules.maxTags) tags including the category; got \(out.count)")
        }
        return out
    }
}
