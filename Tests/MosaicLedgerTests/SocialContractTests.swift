import Foundation
import MosaicCrypto
import MosaicProtocol
import MosaicTestSupport
import Testing

@testable import MosaicLedger

/// The social contract against a real ledger in a temporary directory, its clock moved by hand.
@Suite(.timeLimit(.minutes(3))) struct SocialContractTests {
    /// The documented vote arithmetic (docs/SOCIAL.md §3), written out again for the expectations:
    /// rshares count the voter's locked voting stake.
    struct Voter {
        var stake: UInt64
        var power: Int64 = 10_000
        var powerTime: Int64? = nil

        mutating func vote(weight: Int64, at now: Int64) -> Int64 {
            if let t = powerTime { power = min(10_000, power + (now - t) * 10_000 / 432_000) }
            powerTime = now
            let used = (power * abs(weight) / 10_000 + 49) / 50
            power -= used
            let r = Int64(UInt64(used) * stake / 10_000)  // used ≤ 200, stake ≤ 10^13 here: no overflow
            return weight < 0 ? -r : r
        }
    }

    /// sign(r) · log10(max(|r| / 10^7, 1)) + created / period, in floating point.
    func realScore(_ r: Int64, _ created: Int64, _ period: Double) -> Double {
        let order = log10(max(Double(abs(r)) / 1e7, 1))
        return (r < 0 ? -order : order) + Double(created) / period
    }

    @Test func trendingAndHotFeedsFollowTheScoresComputedByHand() throws {
        // Authors 0…5 (10 tokens each), voters 6…9 with 1, 10, 100 and 1000 tokens.
        let net = try SocialNet(funds: [10, 10, 10, 10, 10, 10, 1, 10, 100, 1000])
        let tags = ["a", "b", "a", "b", "a", "b"]
        var created: [Int64] = []
        for i in 0..<6 {
            created.append(net.now)
            #expect(try net.call(i, "comment", net.postArgs("p\(i)", category: tags[i], tags: ["all"])).outcome == .success)
            try net.advance(3600)
        }
        // Each voter stakes all but a hundredth of a token (its fees).
        for v in 6...9 { try net.stake([v], [1, 10, 100, 1000][v - 6] * token - token / 100) }
        var voters = (6...9).map { Voter(stake: [1, 10, 100, 1000][$0 - 6] * token - token / 100) }
        // (voter, post, weight) in blocks 5 s apart; a voter votes at most once per block.
        let rounds: [[(Int, Int, Int64)]] = [
            [(9, 0, 10_000), (8, 1, 10_000), (7, 2, 5_000), (6, 3, -10_000)],
            [(6, 1, 10_000), (8, 4, 10_000), (9, 5, 300)],
            [(8, 3, 2_500), (9, 2, -100)],
        ]
        var net_rshares = [Int64](repeating: 0, count: 6)
        for round in rounds {
            let now = net.now
            let receipts = try net.block(round.map { net.tx($0.0, "vote", net.voteArgs($0.1, "p\($0.1)", $0.2)) })
            for ((voter, post, weight), receipt) in zip(round, receipts) {
                #expect(receipt.outcome == .success, "\(receipt.error?.message ?? "")")
                net_rshares[post] += voters[voter - 6].vote(weight: weight, at: now)
            }
            try net.advance(5)
        }
        for i in 0..<6 { #expect(try net.post(i, "p\(i)")?.netRshares == net_rshares[i], "post \(i)") }

        for (sort, period) in [("trending", 480_000.0), ("hot", 10_000.0)] {
            let expected = (0..<6).filter { net_rshares[$0] > 0 }
                .sorted { realScore(net_rshares[$0], created[$0], period) > realScore(net_rshares[$1], created[$1], period) }
                .map { "p\($0)" }
            let page = try net.feed(sort)
            #expect(page.posts.map(\.permlink) == expected, "\(sort)")
            for p in page.posts {
                let i = Int(p.permlink.dropFirst()) ?? 0
                let stored = Double(sort == "trending" ? p.trendingScore : p.hotScore) / 1e7
                #expect(abs(stored - realScore(net_rshares[i], created[i], period)) < 2e-7)
            }
            let tagged = try net.feed(sort, tag: "a")
            #expect(tagged.posts.map(\.permlink) == expected.filter { tags[Int($0.dropFirst()) ?? 0] == "a" })
            #expect(try net.feed(sort, tag: "all").posts.map(\.permlink) == expected)
        }
        // Trending (T = 480,000 s) ranks by rshares here; hot (T = 10,000 s) lets the newer posts up.
        #expect(try net.feed("trending").posts.map(\.permlink) != net.feed("hot").posts.map(\.permlink))
        #expect(try net.feed("created").posts.map(\.permlink) == ["p5", "p4", "p3", "p2", "p1", "p0"])
        #expect(try net.feed("created", tag: "b").posts.map(\.permlink) == ["p5", "p3", "p1"])
    }

    @Test func pagingOver250PostsNeverRepeatsOrSkipsAnItem() throws {
        let net = try SocialNet(funds: [UInt64](repeating: 10, count: 50))
        for round in 0..<5 {
            let txs = (0..<50).map { i in net.tx(i, "comment", net.postArgs("post-\(round)", category: ["x", "y"][(i + round) % 2])) }
            #expect(try net.block(txs).allSatisfy { $0.outcome == .success })
            try net.advance(300)
        }
        // Every author stakes and upvotes its own posts with weights that spread the scores.
        try net.stake(Array(0..<50), 5 * token)
        for round in 0..<5 {
            let txs = (0..<50).map { i in net.tx(i, "vote", net.voteArgs(i, "post-\(round)", Int64(500 + (i * 7 + round * 13) % 40 * 240)))
            }
            #expect(try net.block(txs).allSatisfy { $0.outcome == .success })
            try net.advance(3)
        }
        for (sort, limit, tag) in [
            ("trending", 7, nil), ("hot", 100, nil), ("created", 33, nil), ("trending", 9, "x"), ("created", 100, "y"),
        ] as [(String, Int, String?)] {
            var seen: [SocialPost] = []
            var page = try net.feed(sort, tag: tag, limit: limit)
            var pages = 1
            while true {
                #expect(page.posts.count <= limit)
                seen += page.posts
                guard page.next != nil, let last = page.posts.last else { break }
                #expect(page.next == last.path)
                page = try net.feed(sort, tag: tag, limit: limit, start: last)
                pages += 1
            }
            let expectedCount = tag == nil ? 250 : 125
            #expect(seen.count == expectedCount, "\(sort) \(tag ?? "*")")
            #expect(Set(seen.map(\.path)).count == expectedCount, "no repeats in \(sort)")
            #expect(pages == (expectedCount + limit - 1) / limit)
            let key: (SocialPost) -> Int64 = { sort == "trending" ? $0.trendingScore : sort == "hot" ? $0.hotScore : Int64($0.sequence) }
            let ordered = zip(seen, seen.dropFirst()).allSatisfy { a, b in key(a) > key(b) || (key(a) == key(b) && a.path < b.path) }
            #expect(ordered, "\(sort) is in descending order")
            if let tag { #expect(seen.allSatisfy { $0.tags.contains(tag) }) }
        }
        // Votes between two pages reorder trending; pages read at the first page's round still see
        // every post exactly once, in that round's order.
        let round = net.ledger.latestBlock.round
        let before =
            try net.feed("trending", limit: 100).posts
            + net.feed("trending", limit: 100, start: net.feed("trending", limit: 100).posts.last).posts
        var pinned = try net.feed("trending", limit: 60, round: round)
        var all = pinned.posts
        try net.advance(3)
        let reshuffle = (0..<50).map { i in net.tx(i, "vote", net.voteArgs(i, "post-0", Int64(10_000 - i * 150))) }
        #expect(try net.block(reshuffle).allSatisfy { $0.outcome == .success })
        #expect(try net.feed("trending", limit: 100).posts.map(\.path) != before.prefix(100).map(\.path), "the votes moved posts")
        while let last = pinned.posts.last, pinned.next != nil {
            pinned = try net.feed("trending", limit: 60, start: last, round: round)
            all += pinned.posts
        }
        #expect(all.count == 250 && Set(all.map(\.path)).count == 250)
        #expect(all.prefix(200).map(\.path) == before.map(\.path))

        let bad = #expect(throws: LedgerError.self) { try net.feed("trending", limit: 101) }
        #expect(bad?.description.contains("limit 101 is out of range") == true)
    }

    @Test func commentRulesRefuseBadPostsWithClearErrorsAndChangeNothing() throws {
        let net = try SocialNet(funds: [10, 10])
        let cases: [([String: JSONValue], String)] = [
            (net.postArgs(""), "permlink is empty"),
            (net.postArgs("Upper"), "must be 1–255 characters of a-z, 0-9 and -"),
            (net.postArgs(String(repeating: "a", count: 256)), "(256 bytes given)"),
            (net.postArgs("t", title: String(repeating: "é", count: 128)), "title is 256 bytes; it must be under 256 bytes"),
            (net.postArgs("b", body: ""), "body is empty"),
            (net.postArgs("b", body: String(repeating: "x", count: 65_537)), "body is 65537 bytes; at most 65536"),
            (net.postArgs("m").merging(["json_metadata": .string("{not json")]) { $1 }, "json_metadata is not valid JSON"),
            (net.postArgs("c", category: ""), "a root post needs a category"),
            (net.postArgs("g", tags: ["a", "b", "c", "d", "e"]), "at most 5 tags including the category"),
            (net.postArgs("g", tags: ["no spaces"]), "tag \"no spaces\" must be"),
        ]
        for (args, message) in cases {
            let error = try net.failure(0, "comment", args)
            #expect(error?.contains(message) == true, "\(message): \(error ?? "succeeded")")
        }
        #expect(try net.feed("created").posts.isEmpty)
        #expect(try net.decode(net.view("account", ["client_id": .string(net.id(0))]), as: SocialAccount.self).postCount == 0)

        // Boundaries pass: a 255-byte title, a 64 KiB body, a 255-character permlink, metadata JSON.
        let long = String(repeating: "a", count: 255)
        var ok = net.postArgs(long, tags: ["x"], title: String(repeating: "t", count: 255), body: String(repeating: "b", count: 65_536))
        ok["json_metadata"] = .string("{\"app\":\"mosaic\"}")
        #expect(try net.call(0, "comment", ok).outcome == .success)
        // Unique per author; another author may use the same permlink.
        try net.advance(300)
        #expect(try net.failure(0, "comment", net.postArgs(long))?.contains("already exists") == true)
        #expect(try net.call(1, "comment", net.postArgs(long)).outcome == .success)
        #expect(try net.post(0, long)?.body.utf8.count == 65_536)
        // Feeds carry cards: the body cut to 1,024 bytes and flagged; the post view has it whole.
        let card = try #require(try net.feed("created").posts.first { $0.author == net.id(0) })
        #expect(card.body.utf8.count == 1024 && card.bodyTruncated)
        #expect(try net.post(0, long)?.bodyTruncated == false)

        // One root post per 5 minutes.
        #expect(try net.call(0, "comment", net.postArgs("second")).outcome == .success)
        try net.advance(299)
        let early = try net.failure(0, "comment", net.postArgs("third"))
        #expect(early?.contains("one root post per 5 minutes") == true && early?.contains("(in 1 s)") == true, "\(early ?? "")")
        try net.advance(1)
        #expect(try net.call(0, "comment", net.postArgs("third")).outcome == .success)

        // Replies: the parent must exist, one per 3 seconds.
        func reply(_ permlink: String, to parent: String = "second", body: String = "hi") -> [String: JSONValue] {
            ["permlink": .string(permlink), "parent_author": .string(net.id(0)), "parent_permlink": .string(parent), "body": .string(body)]
        }
        #expect(
            try net.failure(1, "comment", reply("r0", to: "missing"))?.contains("parent post \(net.id(0))/missing does not exist") == true)
        #expect(try net.call(1, "comment", reply("r1")).outcome == .success)
        #expect(try net.failure(1, "comment", reply("r2"))?.contains("one reply per 3 seconds") == true)
        try net.advance(3)
        #expect(try net.call(1, "comment", reply("r2")).outcome == .success)
        try net.advance(3)
        #expect(try net.call(0, "comment", reply("r3")).outcome == .success)
        let replies = try net.view("replies", ["author": .string(net.id(0)), "permlink": .string("second")])
        let list = try net.decode(replies, as: [String: [SocialPost]?].self)["replies"]??.map(\.permlink)
        #expect(list == ["r1", "r2", "r3"])
        #expect(try net.post(0, "second")?.children == 3)
        #expect(try net.feed("created").posts.first { $0.permlink == "second" }?.children == 3, "replies update the feed cards")
        #expect(try net.post(1, "r1")?.depth == 1 && net.post(1, "r1")?.category == "general")
        // Replies stay out of the feeds; accounts count posts and replies.
        #expect(try net.feed("created").posts.map(\.permlink) == ["third", "second", long, long])
        #expect(try net.decode(net.view("account", ["client_id": .string(net.id(1))]), as: SocialAccount.self).postCount == 3)

        // Edits: the parent is fixed, anything else may change until payout.
        var edit: [String: JSONValue] = ["permlink": .string("r1"), "parent_permlink": .string("third"), "body": .string("changed")]
        #expect(try net.failure(1, "edit", edit)?.contains("the parent of a post cannot change") == true)
        edit["parent_permlink"] = nil
        #expect(try net.call(1, "edit", edit).outcome == .success)
        #expect(try net.post(1, "r1")?.body == "changed")
        #expect(
            try net.call(0, "edit", ["permlink": .string("third"), "title": .string("New"), "tags": .array([.string("news")])]).outcome
                == .success)
        #expect(try net.post(0, "third")?.tags == ["general", "news"])
        #expect(try net.feed("created", tag: "news").posts.map(\.permlink) == ["third"])
        #expect(try net.failure(0, "edit", ["permlink": .string("nope"), "body": .string("x")])?.contains("does not exist") == true)
        try net.advance(7 * 86_400)
        let late = try net.failure(1, "edit", ["permlink": .string("r1"), "body": .string("too late")])
        #expect(late?.contains("edits are allowed only until payout") == true, "\(late ?? "")")
        #expect(try net.post(1, "r1")?.body == "changed")
    }

    @Test func votesChangeAtMostFiveTimesThreeSecondsApartAndCloseAtPayout() throws {
        let net = try SocialNet(funds: [10, 100])
        #expect(try net.call(0, "comment", net.postArgs("p")).outcome == .success)
        #expect(try net.failure(1, "vote", net.voteArgs(0, "p", 10_001))?.contains("weight 10001 is out of range") == true)
        #expect(try net.failure(1, "vote", net.voteArgs(0, "p", 0))?.contains("weight 0 removes a vote, but you have not voted") == true)
        #expect(try net.failure(1, "vote", net.voteArgs(0, "nope", 100))?.contains("does not exist") == true)
        // Failed calls paid their fees but spent no voting power: the tally starts from here.
        try net.stake([1], 90 * token)
        var voter = Voter(stake: 90 * token)

        var expected = voter.vote(weight: 10_000, at: net.now)
        #expect(try net.call(1, "vote", net.voteArgs(0, "p", 10_000)).outcome == .success)
        #expect(try net.post(0, "p")?.netRshares == expected)
        #expect(try net.feed("trending").posts.map(\.permlink) == ["p"])
        let tooSoon = try net.failure(1, "vote", net.voteArgs(0, "p", 5_000))
        #expect(tooSoon?.contains("votes must be at least 3 seconds apart") == true, "\(tooSoon ?? "")")
        try net.advance(3)
        #expect(try net.failure(1, "vote", net.voteArgs(0, "p", 10_000))?.contains("already has weight 10000") == true)
        try net.advance(3)

        for (n, weight) in [Int64(-5_000), 2_000, 0, 3_000, 4_000].enumerated() {
            let now = net.now
            expected = voter.vote(weight: weight, at: now)
            #expect(try net.call(1, "vote", net.voteArgs(0, "p", weight)).outcome == .success)
            let post = try #require(try net.post(0, "p"))
            #expect(post.netRshares == expected, "change \(n + 1)")
            #expect(post.voteCount == (weight == 0 ? 0 : 1))
            let inTrending = try net.feed("trending").posts.map(\.permlink)
            #expect(inTrending == (expected > 0 ? ["p"] : []), "a post with non-positive rshares leaves trending")
            try net.advance(3)
        }
        let votes = try net.view("votes", ["author": .string(net.id(0)), "permlink": .string("p")])
        let record = try #require(try net.decode(votes, as: [String: [SocialVote]?].self)["votes"]??.first)
        #expect(record.changes == 5 && record.weight == 4_000 && record.voter == net.id(1))
        #expect(try net.failure(1, "vote", net.voteArgs(0, "p", 100))?.contains("changed 5 times already; at most 5 changes") == true)

        // Voting power was spent and regenerates: 2,000 basis points a day.
        let account = try net.decode(net.view("account", ["client_id": .string(net.id(1))]), as: SocialAccount.self)
        #expect(Int64(account.votingPower) == voter.power + (net.now - (voter.powerTime ?? 0)) * 10_000 / 432_000)
        #expect(account.votingPower < 10_000)
        try net.advance(86_400)
        let later = try net.decode(net.view("account", ["client_id": .string(net.id(1))]), as: SocialAccount.self)
        #expect(later.votingPower == account.votingPower, "a view's now is its block's time: nothing moved yet")

        // Payout after 7 days, through the ledger clock: frozen, out of trending and hot, still in created.
        try net.advance(6 * 86_400)
        let closed = try net.failure(0, "vote", net.voteArgs(0, "p", 10_000))
        #expect(closed?.contains("votes are closed after payout") == true, "\(closed ?? "")")
        #expect(try net.post(0, "p")?.paidOut == true)
        #expect(try net.feed("trending").posts.isEmpty && net.feed("hot").posts.isEmpty)
        #expect(try net.feed("created").posts.map(\.permlink) == ["p"])
        let regenerated = try net.decode(net.view("account", ["client_id": .string(net.id(1))]), as: SocialAccount.self)
        #expect(regenerated.votingPower == 10_000)
        // endBlock removed the index keys through the payout queue, when the post's payout window
        // (the hour holding its payout time, docs/SOCIAL.md §8) closed.
        let post = try #require(try net.post(0, "p"))
        try net.advance(SocialRules.rewardWindowSeconds)
        try net.ledger.produceBlock()
        for sort in [SocialSort.trending, .hot] {
            let key = SocialKeys.feed(
                sort, tag: nil, order: SocialScore.descendingKey(sort == .trending ? post.trendingScore : post.hotScore),
                post.author, post.permlink)
            #expect(try net.ledger.contractValue("social", key: key) == nil)
        }
        #expect(try net.ledger.contractValue("social", key: SocialKeys.payout(post.payoutAt, post.author, post.permlink)) == nil)
        // Replies stay possible after payout and do not bring the post back into trending.
        let late = [
            "permlink": JSONValue.string("late"), "parent_author": .string(net.id(0)), "parent_permlink": .string("p"),
            "body": .string("still here"),
        ]
        #expect(try net.call(1, "comment", late).outcome == .success)
        #expect(try net.feed("trending").posts.isEmpty && net.feed("hot").posts.isEmpty)
        #expect(try net.feed("created").posts.first?.children == 1)
    }

    /// The attack: vote, move the tokens to a second account, vote again with them. Votes count
    /// the locked stake, and a vote keeps it locked until the post pays out, so the tokens count
    /// once per post.
    @Test func tokensMovedToASecondAccountCannotVoteTheSamePostAgain() throws {
        // 0: author, 1: the voter, 2: its second account.
        let net = try SocialNet(funds: [10, 100, 0])
        #expect(try net.call(0, "comment", net.postArgs("p")).outcome == .success)
        try net.stake([1], 90 * token)
        var voter = Voter(stake: 90 * token)
        let once = voter.vote(weight: 10_000, at: net.now)
        #expect(try net.call(1, "vote", net.voteArgs(0, "p", 10_000)).outcome == .success)
        #expect(try net.post(0, "p")?.netRshares == once)
        let payout = try #require(try net.post(0, "p")).payoutAt
        #expect(try net.stakeOf(1).stake == 90 * token && net.stakeOf(1).stakeLockedUntil == payout)

        // The staked tokens cannot leave before the payout, so they cannot vote from account 2.
        let early = try net.failure(1, "unstake", [:])
        #expect(
            early?.contains("locked by your votes until the last voted post pays out at \(UTCTime.iso8601(payout))") == true,
            "\(early ?? "")")
        // Its free balance can move, but unstaked tokens count for nothing.
        let rest = try net.balance(1) - token
        #expect(try net.transfer(1, to: 2, rest).outcome == .success)
        try net.advance(3)
        #expect(try net.call(2, "vote", net.voteArgs(0, "p", 10_000)).outcome == .success)
        #expect(try net.post(0, "p")?.netRshares == once, "a vote with no stake adds no rshares")
        // Staked by account 2 they count, once: they never counted for account 1.
        try net.stake([2], rest - token / 100)
        try net.advance(3)
        var second = Voter(stake: rest - token / 100)
        _ = second.vote(weight: 10_000, at: net.now - 3)
        let twice = once + second.vote(weight: 5_000, at: net.now)
        #expect(try net.call(2, "vote", net.voteArgs(0, "p", 5_000)).outcome == .success)
        #expect(try net.post(0, "p")?.netRshares == twice)
        // After the payout the stake unlocks; moved on, it cannot vote on the paid-out post.
        try net.advance(7 * 86_400)
        let before = try net.balance(1)
        #expect(try net.call(1, "unstake", [:]).outcome == .success)
        #expect(try net.balance(1) == before + 90 * token - net.genesis.minimumFee)
        #expect(try net.stakeOf(1).stake == 0)
        #expect(try net.transfer(1, to: 2, 90 * token).outcome == .success)
        try net.stake([2], 90 * token)
        #expect(try net.failure(2, "vote", net.voteArgs(0, "p", 10_000))?.contains("votes are closed after payout") == true)
        #expect(try net.post(0, "p")?.netRshares == twice)
        #expect(try net.ledger.supply().isConserved)
        // Tokens sent with any other call are refused, not kept without a record.
        let stray = try net.block([net.tx(1, "vote", net.voteArgs(0, "p", 100), value: token / 10)])[0]
        #expect(stray.outcome == .failure && stray.error?.message.contains("social.vote takes no tokens") == true)
        #expect(try net.failure(2, "unstake", ["amount": .integer(Int64.max)])?.contains("cannot unstake") == true)
        #expect(try net.failure(1, "unstake", [:])?.contains("no voting stake") == true)
    }

    @Test func appsActForUsersOnlyWithAnUnexpiredGrantCoveringTheScope() throws {
        // 0: the user, 1: the app, 2: another user, 3: not an app.
        let net = try SocialNet(funds: [10, 10, 10, 10])
        let user = net.id(0)
        let app = net.id(1)
        let other = net.id(2)
        #expect(
            try net.failure(1, "register_app", ["name": .string("X"), "redirect_url": .string("https://a.example/cb")])?.contains(
                "app name \"X\" must be 3–32") == true)
        #expect(
            try net.failure(1, "register_app", ["name": .string("reader"), "redirect_url": .string("ftp://a")])?.contains(
                "redirect_url must be") == true)
        #expect(
            try net.call(1, "register_app", ["name": .string("reader"), "redirect_url": .string("https://reader.example/cb")]).outcome
                == .success)
        #expect(
            try net.failure(3, "register_app", ["name": .string("reader"), "redirect_url": .string("https://x.example")])?.contains(
                "app name reader is taken") == true)
        let shown = try net.decode(net.view("app", ["app": .string("reader")]), as: SocialApp?.self)
        #expect(shown?.clientID == app && shown?.redirectURL == "https://reader.example/cb")

        #expect(try net.call(0, "comment", net.postArgs("mine")).outcome == .success)
        try net.stake([0], 5 * token)
        func voteFor(_ actor: String, weight: Int64 = 10_000) -> [String: JSONValue] {
            ["voter": .string(actor), "author": .string(user), "permlink": .string("mine"), "weight": .integer(weight)]
        }
        var e = try net.failure(3, "vote", voteFor(user))
        #expect(e?.contains("\(net.id(3)) is not a registered app, so it cannot act for user \(user)") == true, "\(e ?? "")")
        e = try net.failure(1, "vote", voteFor(user))
        #expect(e?.contains("app reader (\(app)) has no grant from user \(user)") == true, "\(e ?? "")")

        #expect(
            try net.failure(0, "grant", ["app": .string("nobody"), "scopes": .string("vote"), "expires_at": .integer(net.now + 60)])?
                .contains("no app nobody is registered") == true)
        #expect(
            try net.failure(0, "grant", ["app": .string("reader"), "scopes": .string("read"), "expires_at": .integer(net.now + 60)])?
                .contains("unknown scope \"read\"") == true)
        #expect(
            try net.failure(0, "grant", ["app": .string("reader"), "scopes": .string("vote"), "expires_at": .integer(net.now - 1)])?
                .contains("is not in the future") == true)
        let expires = net.now + 86_400
        #expect(
            try net.call(0, "grant", ["app": .string("reader"), "scopes": .array([.string("comment")]), "expires_at": .integer(expires)])
                .outcome == .success)
        e = try net.failure(1, "vote", voteFor(user))
        #expect(e?.contains("grant from user \(user) to app reader lacks scope vote (it has: comment)") == true, "\(e ?? "")")
        // The comment scope lets the app post as the user, and only as that user.
        try net.advance(300)
        var post = net.postArgs("by-app", author: user)
        #expect(try net.call(1, "comment", post).outcome == .success)
        #expect(try net.post(0, "by-app")?.author == user)
        post["author"] = .string(other)
        e = try net.failure(1, "comment", post)
        #expect(e?.contains("app reader (\(app)) has no grant from user \(other)") == true, "\(e ?? "")")

        #expect(
            try net.call(0, "grant", ["app": .string(app), "scopes": .string("vote,comment"), "expires_at": .integer(expires)]).outcome
                == .success)
        let receipt = try net.call(1, "vote", voteFor(user))
        #expect(receipt.outcome == .success, "\(receipt.error?.message ?? "")")
        let votes = try net.decode(
            net.view("votes", ["author": .string(user), "permlink": .string("mine")]), as: [String: [SocialVote]?].self)
        #expect(votes["votes"]??.map(\.voter) == [user])
        #expect(try net.post(0, "mine")?.netRshares ?? 0 > 0, "the vote counts with the user's stake")
        let grants = try net.decode(net.view("grants", ["user": .string(user)]), as: [String: [SocialGrant]].self)["grants"]
        #expect(grants?.map(\.appName) == ["reader"] && grants?.first?.scopes == [.comment, .vote] && grants?.first?.expired == false)

        try net.advance(86_400)
        e = try net.failure(1, "vote", voteFor(user, weight: 5_000))
        #expect(e?.contains("grant from user \(user) to app reader expired at \(UTCTime.iso8601(expires))") == true, "\(e ?? "")")
        #expect(
            try net.decode(net.view("grants", ["user": .string(user)]), as: [String: [SocialGrant]].self)["grants"]?.first?.expired == true)

        #expect(try net.call(0, "revoke", ["app": .string("reader")]).outcome == .success)
        #expect(try net.decode(net.view("grants", ["user": .string(user)]), as: [String: [SocialGrant]].self)["grants"]?.isEmpty == true)
        #expect(try net.failure(0, "revoke", ["app": .string("reader")])?.contains("you have no grant for app reader") == true)
        e = try net.failure(1, "vote", voteFor(user, weight: 5_000))
        #expect(e?.contains("has no grant from user \(user)") == true)
    }
}
