import Foundation
import MosaicTestSupport
import Testing

/// `mosaic social …` as real processes against a devnet (no blobbers, no web app) started by the
/// test, its ledger clock moved with `mosaic devnet time advance`.
@Suite(.timeLimit(.minutes(4))) struct SocialCLITests: DevnetCLITesting {
    /// A devnet with no blobbers and no web app, blocks on demand.
    func devnet(_ cli: CLIRunner) async throws -> CLIDevnet {
        try await devnet(cli, blobbers: 0, blockTime: "0", confirmations: nil)
    }

    @Test func postReplyEditVoteFeedsAndPayoutThroughTheDevnetClock() async throws {
        let cli = try cli()
        defer { cli.cleanup() }
        let net = try await devnet(cli)
        defer { net.stopBlocking(timeout: 10) }
        let a = try await funded(cli, "a")
        _ = try await funded(cli, "b")

        let posted = try await cli.run([
            "social", "post", "--wallet", "a", "--title", "Hello Mosaic!", "--body", "first post", "--tag", "intro", "--json",
        ])
        #expect(posted.code == 0, "\(posted.err)")
        #expect(posted.json["author"] as? String == a)
        #expect(posted.json["permlink"] as? String == "hello-mosaic", "the permlink is made from the title")
        #expect(posted.json["tags"] as? [String] == ["intro"])
        let path = "\(a)/hello-mosaic"

        let again = try await cli.run(["social", "post", "--wallet", "a", "--title", "Too soon", "--body", "x"])
        #expect(again.code == 1)
        #expect(again.err.contains("one root post per 5 minutes"), "\(again.err)")
        let badWeight = try await cli.run(["social", "vote", path, "--wallet", "b", "--weight", "20000"])
        #expect(badWeight.code == 2 && badWeight.err.contains("--weight 20000"))
        let badPath = try await cli.run(["social", "reply", "nobody/x", "--wallet", "b", "--body", "hi"])
        #expect(badPath.code == 2 && badPath.err.contains("is not AUTHOR/PERMLINK"))

        // Votes count the voter's locked stake, not its balance.
        let staked = try await cli.run(["social", "stake", "0.5", "--wallet", "b", "--json"])
        #expect(staked.code == 0, "\(staked.err)")
        #expect(try await cli.run(["social", "account", "--wallet", "b", "--json"]).json["stake"] as? Int == 5_000_000_000)
        let voted = try await cli.run(["social", "vote", path, "--wallet", "b", "--weight", "10000", "--json"])
        #expect(voted.code == 0, "\(voted.err)")
        let votedPost = try #require(voted.json["post"] as? [String: Any])
        #expect((votedPost["net_rshares"] as? Int ?? 0) > 0 && votedPost["vote_count"] as? Int == 1)

        let replied = try await cli.run(["social", "reply", path, "--wallet", "b", "--body", "nice one", "--json"])
        #expect(replied.code == 0, "\(replied.err)")
        #expect((replied.json["permlink"] as? String)?.hasPrefix("re-hello-mosaic-") == true)
        let replies = try await cli.run(["social", "replies", path, "--json"]).json["replies"] as? [[String: Any]]
        #expect(replies?.map { $0["body"] as? String } == ["nice one"])

        let edited = try await cli.run(["social", "edit", path, "--wallet", "a", "--body", "first post, edited", "--json"])
        #expect(edited.code == 0, "\(edited.err)")
        let shown = try await cli.run(["social", "show", path])
        #expect(shown.out.contains("first post, edited") && shown.out.contains("replies:     1"), "\(shown.out)")
        let votes = try await cli.run(["social", "show", path, "--json"]).json["votes"] as? [[String: Any]]
        #expect(votes?.count == 1 && votes?.first?["weight"] as? Int == 10_000)

        let trending = try await cli.run(["social", "feed", "--sort", "trending", "--json"]).json["posts"] as? [[String: Any]]
        #expect(trending?.map { $0["permlink"] as? String } == ["hello-mosaic"])

        #expect(try await cli.run(["devnet", "time", "advance", "5m"]).code == 0)
        let second = try await cli.run([
            "social", "post", "--wallet", "a", "--title", "Second", "--body", "more", "--tag", "news", "--permlink", "second", "--json",
        ])
        #expect(second.code == 0, "\(second.err)")
        let created = try await cli.run(["social", "feed", "--sort", "created", "--json"]).json["posts"] as? [[String: Any]]
        #expect(created?.map { $0["permlink"] as? String } == ["second", "hello-mosaic"])
        let news = try await cli.run(["social", "feed", "--sort", "created", "--tag", "news", "--json"]).json["posts"] as? [[String: Any]]
        #expect(news?.map { $0["permlink"] as? String } == ["second"])
        let first = try await cli.run(["social", "feed", "--sort", "created", "--limit", "1", "--json"]).json
        let next = try #require(first["next"] as? String)
        #expect(next == "\(a)/second")
        let page2 = try await cli.run(["social", "feed", "--sort", "created", "--limit", "1", "--start", next, "--json"]).json
        #expect((page2["posts"] as? [[String: Any]])?.map { $0["permlink"] as? String } == ["hello-mosaic"])
        #expect(page2["next"] is NSNull)
        let text = try await cli.run(["social", "feed", "--sort", "created", "--limit", "1"])
        #expect(text.out.contains("Second") && text.out.contains("more: --start \(next)"))

        let account = try await cli.run(["social", "account", a, "--json"]).json
        #expect(account["post_count"] as? Int == 2)
        // A full vote spent 2 % (200 basis points); five minutes (plus the seconds the test took)
        // regenerated 300 × 10000 / 432000 = 6 of them, and a few more.
        let power = try await cli.run(["social", "account", "--wallet", "b", "--json"]).json["voting_power"] as? Int ?? 0
        #expect((9_806...9_830).contains(power), "\(power)")

        // Seven days later the first post is paid out: frozen, out of trending, still in created.
        #expect(try await cli.run(["devnet", "time", "advance", "7d"]).code == 0)
        let late = try await cli.run(["social", "vote", path, "--wallet", "b", "--weight", "5000"])
        #expect(late.code == 1 && late.err.contains("votes are closed after payout"), "\(late.err)")
        let lateEdit = try await cli.run(["social", "edit", path, "--wallet", "a", "--body", "too late"])
        #expect(lateEdit.code == 1 && lateEdit.err.contains("edits are allowed only until payout"), "\(lateEdit.err)")
        #expect((try await cli.run(["social", "feed", "--json"]).json["posts"] as? [Any])?.isEmpty == true)
        #expect((try await cli.run(["social", "feed", "--sort", "created", "--json"]).json["posts"] as? [Any])?.count == 2)
        #expect(try await cli.run(["social", "show", path, "--json"]).json["paid_out"] as? Bool == true)
    }

    @Test func anAppVotesForAUserOnlyWithAnUnexpiredGrantCoveringVote() async throws {
        let cli = try cli()
        defer { cli.cleanup() }
        let net = try await devnet(cli)
        defer { net.stopBlocking(timeout: 10) }
        let user = try await funded(cli, "user")
        let app = try await funded(cli, "reader")

        let registered = try await cli.run([
            "social", "app", "register", "--wallet", "reader", "--name", "reader",
            "--redirect", "https://reader.example/callback", "--json",
        ])
        #expect(registered.code == 0, "\(registered.err)")
        #expect(registered.json["client_id"] as? String == app)
        #expect(
            try await cli.run(["social", "app", "show", "reader", "--json"]).json["redirect_url"] as? String
                == "https://reader.example/callback")

        #expect(try await cli.run(["social", "post", "--wallet", "user", "--title", "Mine", "--body", "x"]).code == 0)
        let path = "\(user)/mine"
        func appVote(_ weight: String = "10000") async throws -> CLIRunner.Result {
            try await cli.run(["social", "vote", path, "--wallet", "reader", "--for", user, "--weight", weight, "--json"])
        }
        var r = try await appVote()
        #expect(r.code == 1 && r.err.contains("app reader (\(app)) has no grant from user \(user)"), "\(r.err)")

        #expect(
            try await cli.run(["social", "authorize", "--wallet", "user", "--app", "reader", "--scopes", "comment", "--expires", "7d"]).code
                == 0)
        r = try await appVote()
        #expect(r.code == 1 && r.err.contains("lacks scope vote"), "\(r.err)")
        // The comment scope lets the app post as the user.
        let appPost = try await cli.run([
            "social", "post", "--wallet", "reader", "--for", user, "--title", "Via app", "--body", "y",
            "--permlink", "via-app", "--json",
        ])
        #expect(appPost.code == 1 && appPost.err.contains("one root post per 5 minutes"), "rate limits apply to the user: \(appPost.err)")
        let appReply = try await cli.run(["social", "reply", path, "--wallet", "reader", "--for", user, "--body", "via app", "--json"])
        #expect(appReply.code == 0 && appReply.json["author"] as? String == user, "\(appReply.err)")

        let granted = try await cli.run([
            "social", "authorize", "--wallet", "user", "--app", "reader", "--scopes", "vote,comment", "--expires", "1d", "--json",
        ])
        #expect(granted.code == 0, "\(granted.err)")
        #expect(granted.json["scopes"] as? [String] == ["comment", "vote"])
        let expiresAt = try #require(granted.json["expires_at"] as? Int)
        r = try await appVote()
        #expect(r.code == 0, "\(r.err)")
        #expect(r.json["voter"] as? String == user)
        #expect((r.json["post"] as? [String: Any])?["vote_count"] as? Int == 1)
        let grants = try await cli.run(["social", "grants", "--wallet", "user", "--json"]).json["grants"] as? [[String: Any]]
        #expect(grants?.count == 1 && grants?.first?["app_name"] as? String == "reader" && grants?.first?["expired"] as? Bool == false)

        #expect(try await cli.run(["devnet", "time", "advance", "2d"]).code == 0)
        r = try await appVote("5000")
        let iso = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(expiresAt)))
        #expect(r.code == 1 && r.err.contains("expired at \(iso)"), "\(r.err)")

        let revoked = try await cli.run(["social", "revoke", "reader", "--wallet", "user"])
        #expect(revoked.code == 0, "\(revoked.err)")
        #expect((try await cli.run(["social", "grants", "--user", user, "--json"]).json["grants"] as? [Any])?.isEmpty == true)
        r = try await appVote("5000")
        #expect(r.code == 1 && r.err.contains("has no grant from user \(user)"), "\(r.err)")
    }

    /// Profiles, several accounts at once, printed post ids that vote and reply accept, and a
    /// reward paid from the devnet's pool, claimed into the wallet and shown in its history.
    @Test func profilesPrintedIDsAndRewardsFromThePool() async throws {
        let cli = try cli()
        defer { cli.cleanup() }
        let net = try await devnet(cli)
        defer { net.stopBlocking(timeout: 10) }
        let a = try await funded(cli, "a")
        let b = try await funded(cli, "b")
        let named = try await cli.run(["social", "profile", "--wallet", "a", "--name", "alice", "--about", "Boats", "--json"])
        #expect(named.code == 0 && named.json["name"] as? String == "alice", "\(named.err)")
        #expect(try await cli.run(["social", "profile", "--wallet", "b", "--name", "bob"]).code == 0)
        let taken = try await cli.run(["social", "profile", "--wallet", "b", "--name", "alice"])
        #expect(taken.code == 1 && taken.err.contains("the name alice is taken"), "\(taken.err)")
        let bad = try await cli.run(["social", "profile", "--wallet", "b", "--name", "No Spaces"])
        #expect(bad.code == 2 && bad.err.contains("3–32 characters"), "\(bad.err)")

        let many = try await cli.run(["social", "account", "alice", b, "nobody", "--json"]).json
        #expect((many["accounts"] as? [[String: Any]])?.map { $0["client_id"] as? String } == [a, b])
        #expect((many["accounts"] as? [[String: Any]])?.map { $0["name"] as? String } == ["alice", "bob"])
        #expect(many["missing"] as? [String] == ["nobody"])
        let text = try await cli.run(["social", "account", "alice", "bob"])
        #expect(
            text.out.contains("name:          alice") && text.out.contains("name:          bob") && text.out.contains("Boats"),
            "\(text.out)")

        // A long permlink: the printed id (author/permlink, far over 80 characters) is what vote and reply take.
        let link = "a-rather-long-permlink-that-makes-the-whole-post-id-far-longer-than-eighty-characters"
        #expect(try await cli.run(["social", "post", "--wallet", "a", "--title", "Long", "--body", "x", "--permlink", link]).code == 0)
        let shownBefore = try await cli.run(["social", "account", "alice", "--json"]).json
        #expect(shownBefore["next_root_post_at"] is Int, "the 5-minute rule's next time is shown")
        let feed = try await cli.run(["social", "feed", "--sort", "created"])
        let printed = try #require(
            feed.out.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init).first { $0.hasPrefix(a + "/") })
        #expect(printed == "\(a)/\(link)")
        #expect(try await cli.run(["social", "stake", "0.5", "--wallet", "b"]).code == 0)
        let voted = try await cli.run(["social", "vote", printed, "--wallet", "b", "--weight", "10000"])
        #expect(voted.code == 0, "\(voted.err)")
        let replied = try await cli.run(["social", "reply", printed, "--wallet", "b", "--body", "agreed"])
        #expect(replied.code == 0, "\(replied.err)")
        let posts = try await cli.run(["social", "posts", "alice"])
        #expect(posts.out.contains(printed) && posts.out.contains("pending"), "\(posts.out)")
        let votes = try await cli.run(["social", "votes", "bob", "--json"]).json["votes"] as? [[String: Any]]
        #expect(votes?.map { $0["permlink"] as? String } == [link])

        // Past the payout window: the author and the curator are credited, and claim real tokens.
        #expect(try await cli.run(["devnet", "time", "advance", "7d"]).code == 0)
        #expect(try await cli.run(["devnet", "time", "advance", "1h"]).code == 0)
        #expect(try await cli.run(["social", "profile", "--wallet", "b", "--about", "a block after the window"]).code == 0)
        let shown = try await cli.run(["social", "show", printed, "--json"]).json
        let reward = try #require(shown["reward"] as? [String: Any], "\(shown)")
        let authorReward = try #require(reward["author"] as? Int)
        #expect(authorReward > 0 && (reward["curation"] as? Int ?? 0) > 0)
        let rewards = try await cli.run(["social", "rewards", "--wallet", "a", "--json"]).json
        #expect((rewards["rewards"] as? [String: Any])?["pending"] as? Int == authorReward)
        let before = try await cli.run(["wallet", "balance", "--wallet", "a", "--json"]).json["balance"] as? Int ?? 0
        let claimed = try await cli.run(["social", "claim", "--wallet", "a", "--json"])
        #expect(claimed.code == 0 && claimed.json["amount"] as? Int == authorReward, "\(claimed.err)")
        let after = try await cli.run(["wallet", "balance", "--wallet", "a", "--json"]).json["balance"] as? Int ?? 0
        #expect(after > before)
        let history = try await cli.run(["wallet", "txns", "--wallet", "a"])
        #expect(history.out.contains("claimed"), "\(history.out)")
        let again = try await cli.run(["social", "claim", "--wallet", "a"])
        #expect(again.code == 1 && again.err.contains("no rewards to claim"), "\(again.err)")
    }
}
