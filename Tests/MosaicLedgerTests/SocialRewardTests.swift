import Foundation
import MosaicCrypto
import MosaicProtocol
import MosaicTestSupport
import Testing

@testable import MosaicLedger

/// Profiles, account pages and rewards of the social contract (docs/SOCIAL.md §8), on a real ledger.
@Suite(.timeLimit(.minutes(3))) struct SocialRewardTests {
    @Test func profilesAreValidatedUniqueAndFoundByNameOrIDSeveralAtOnce() throws {
        let net = try SocialNet(funds: [10, 10, 10])
        #expect(try net.failure(0, "set_profile", ["about": .string("hi")])?.contains("a first profile needs a \"name\"") == true)
        #expect(try net.failure(0, "set_profile", ["name": .string("Al")])?.contains("must be 3–32 characters") == true)
        #expect(try net.failure(0, "set_profile", ["name": .string(String(repeating: "a", count: 33))])?.contains("must be 3–32") == true)
        let long = String(repeating: "x", count: 513)
        #expect(
            try net.failure(0, "set_profile", ["name": .string("alice"), "about": .string(long)])?.contains(
                "about is 513 bytes; at most 512") == true)
        #expect(
            try net.failure(0, "set_profile", ["name": .string("alice"), "about": .string("a\u{7}b")])?.contains("control characters")
                == true)
        #expect(try net.call(0, "set_profile", ["name": .string("alice"), "about": .string("Writes about\nboats")]).outcome == .success)
        #expect(try net.failure(1, "set_profile", ["name": .string("alice")])?.contains("the name alice is taken by \(net.id(0))") == true)
        #expect(try net.call(1, "set_profile", ["name": .string("bob")]).outcome == .success)
        // A profile change keeps what is not given; a rename frees the old name.
        #expect(try net.call(0, "set_profile", ["name": .string("alice2")]).outcome == .success)
        #expect(try net.call(2, "set_profile", ["name": .string("alice")]).outcome == .success)

        let one = try net.decode(net.view("account", ["name": .string("alice2")]), as: SocialAccount.self)
        #expect(one.clientID == net.id(0) && one.name == "alice2" && one.about == "Writes about\nboats")
        let many = try net.view(
            "accounts", ["accounts": .array([.string("bob"), .string(net.id(0)), .string("nobody"), .string("alice")])])
        struct Many: Decodable {
            let accounts: [SocialAccount]
            let missing: [String]
        }
        let m = try net.decode(many, as: Many.self)
        #expect(m.accounts.map(\.clientID) == [net.id(1), net.id(0), net.id(2)])
        #expect(m.accounts.map(\.name) == ["bob", "alice2", "alice"])
        #expect(m.missing == ["nobody"])
        #expect(throws: LedgerError.self) { try net.view("accounts", ["accounts": .array([])]) }
        #expect(throws: LedgerError.self) { try net.view("accounts", ["accounts": .array(Array(repeating: .string("bob"), count: 101))]) }
    }

    @Test func accountPagesListPostsRepliesVotesAndReputationAndTheNextPostTime() throws {
        let net = try SocialNet(funds: [10, 100])
        try net.stake([1], 50 * token)
        let start = net.now
        #expect(try net.call(0, "comment", net.postArgs("first", title: "First")).outcome == .success)
        let acct = try net.stakeOf(0)
        #expect(acct.nextRootPostAt == start + 300)
        try net.advance(300)
        try net.ledger.produceBlock()
        #expect(try net.stakeOf(0).nextRootPostAt == nil)
        #expect(try net.call(0, "comment", net.postArgs("second", title: "Second")).outcome == .success)
        let reply: [String: JSONValue] = [
            "permlink": .string("re-1"), "parent_author": .string(net.id(0)), "parent_permlink": .string("first"),
            "body": .string("a reply"),
        ]
        #expect(try net.call(1, "comment", reply).outcome == .success)
        #expect(try net.post(0, "first")?.children == 1)
        #expect(try net.call(1, "vote", net.voteArgs(0, "first", 10_000)).outcome == .success)
        try net.advance(3)
        #expect(try net.call(1, "vote", net.voteArgs(0, "second", 5_000)).outcome == .success)

        struct Posts: Decodable {
            let posts: [SocialPost]
            let next: String?
        }
        let posts = try net.decode(net.view("account_posts", ["client_id": .string(net.id(0)), "limit": .integer(1)]), as: Posts.self)
        #expect(posts.posts.map(\.permlink) == ["second"])
        let rest = try net.decode(
            net.view("account_posts", ["client_id": .string(net.id(0)), "start": .string(posts.next ?? "")]), as: Posts.self)
        #expect(rest.posts.map(\.permlink) == ["first"] && rest.next == nil)
        let replies = try net.decode(
            net.view("account_posts", ["client_id": .string(net.id(1)), "kind": .string("replies")]), as: Posts.self)
        #expect(replies.posts.map(\.permlink) == ["re-1"])
        struct Votes: Decodable {
            let votes: [SocialVote]
            let next: String?
        }
        let votes = try net.decode(net.view("account_votes", ["client_id": .string(net.id(1))]), as: Votes.self)
        #expect(votes.votes.map(\.permlink) == ["second", "first"])
        // Removing a vote takes it off the list.
        try net.advance(3)
        #expect(try net.call(1, "vote", net.voteArgs(0, "second", 0)).outcome == .success)
        #expect(
            try net.decode(net.view("account_votes", ["client_id": .string(net.id(1))]), as: Votes.self).votes.map(\.permlink) == ["first"])

        let author = try net.stakeOf(0)
        let first = try #require(try net.post(0, "first"))
        #expect(author.reputation == first.netRshares && first.netRshares > 0)
        #expect(author.reputationScore == SocialContract.reputationScore(first.netRshares))
        #expect(SocialContract.reputationScore(0) == 25 && SocialContract.reputationScore(10_000_000_000) == 34)
        #expect(SocialContract.reputationScore(-10_000_000_000) == 16 && SocialContract.reputationScore(999_999_999) == 25)
    }

    /// Two posts in one window, three voters: every credit is the documented formula, the author and
    /// curators claim real tokens, and what rounding leaves stays in the pool.
    @Test func aClosedWindowPaysAuthorsAndCuratorsByVoteSharesAndClaimsMoveRealTokens() throws {
        let net = try SocialNet(funds: [10, 10, 100, 100, 100], pool: 1_000_000)
        try net.stake([2, 3], 30 * token)
        try net.stake([4], 70 * token)
        #expect(try net.call(0, "comment", net.postArgs("a")).outcome == .success)
        #expect(try net.call(1, "comment", net.postArgs("b")).outcome == .success)
        #expect(
            try net.block([
                net.tx(2, "vote", net.voteArgs(0, "a", 10_000)), net.tx(3, "vote", net.voteArgs(0, "a", 5_000)),
                net.tx(4, "vote", net.voteArgs(1, "b", 10_000)),
            ]).allSatisfy { $0.outcome == .success })
        let a = try #require(try net.post(0, "a"))
        let b = try #require(try net.post(1, "b"))
        let votesA = try net.decode(net.view("votes", ["author": .string(net.id(0)), "permlink": .string("a")]), as: VoteList.self).votes
        #expect(a.pendingReward != nil && a.reward == nil)
        #expect(try net.failure(0, "claim_rewards", [:])?.contains("no rewards to claim") == true)

        // Until the window holding the payout time closes nothing is credited.
        let supply = try net.ledger.supply()
        #expect(supply.isConserved)
        let pool0 = try net.decode(net.view("rewards", [:]), as: SocialRewardPool.self)
        #expect(pool0.free == 1_000_000 * token && pool0.staked == 130 * token)
        let windowEnd = (a.payoutAt / 3600 + 1) * 3600
        try net.advance(windowEnd - net.now - 2)
        try net.ledger.produceBlock()
        #expect(try net.post(0, "a")?.reward == nil)
        try net.advance(3)
        try net.ledger.produceBlock()

        // The formula of docs/SOCIAL.md §8, by hand.
        let free = pool0.free
        let release = free * 100 / 10_000
        let total = UInt64(a.netRshares + b.netRshares)
        func share(_ x: UInt64, _ p: UInt64, _ w: UInt64) -> UInt64 { UInt64(UInt128(x) * UInt128(p) / UInt128(w)) }
        let rewardA = share(release, UInt64(a.netRshares), total)
        let rewardB = share(release, UInt64(b.netRshares), total)
        let curA = share(rewardA, 2500, 10_000)
        let curB = share(rewardB, 2500, 10_000)
        let upA = UInt64(votesA.map(\.rshares).reduce(0, +))
        let cur2 = share(curA, UInt64(try #require(votesA.first { $0.voter == net.id(2) }).rshares), upA)
        let cur3 = share(curA, UInt64(try #require(votesA.first { $0.voter == net.id(3) }).rshares), upA)
        let cur4 = curB
        let paidA = try #require(try net.post(0, "a")?.reward)
        #expect(paidA.author == rewardA - curA && paidA.curation == cur2 + cur3)
        #expect(try net.post(1, "b")?.reward?.author == rewardB - curB)
        #expect(try net.stakeOf(0).rewards.pending == rewardA - curA)
        #expect(
            try net.stakeOf(2).rewards.curation == cur2 && net.stakeOf(3).rewards.curation == cur3
                && net.stakeOf(4).rewards.curation == cur4)
        let credited = (rewardA - curA) + cur2 + cur3 + (rewardB - curB) + cur4
        let pool1 = try net.decode(net.view("rewards", [:]), as: SocialRewardPool.self)
        #expect(pool1.pending == credited && pool1.reserved == 0 && pool1.free == free - credited)
        #expect(credited <= release)

        // Claiming moves the tokens; the claim is a transaction with the amount in its events.
        let before = try net.balance(0)
        let claim = try net.call(0, "claim_rewards", [:])
        #expect(claim.outcome == .success)
        #expect(claim.events.first { $0.name == "claim_rewards" }?.attributes["amount"] == String(rewardA - curA))
        #expect(try net.balance(0) == before + (rewardA - curA) - net.genesis.minimumFee)
        #expect(try net.stakeOf(0).rewards.pending == 0 && net.stakeOf(0).rewards.claimed == rewardA - curA)
        #expect(try net.ledger.supply().isConserved)
        // Stakes stay whole: the voters can still take theirs back once the lock passes.
        try net.advance(60)
        #expect(try net.call(4, "unstake", [:]).outcome == .success)
    }

    /// 150 curators on one post: they are paid 100 a step from the payout cursor, each its share.
    @Test func curatorsBeyondOnePageArePaidFromTheCursor() throws {
        let net = try SocialNet(funds: [10] + Array(repeating: 10, count: 150), pool: 100_000)
        let voters = Array(1...150)
        try net.stake(voters, 5 * token)
        #expect(try net.call(0, "comment", net.postArgs("crowd")).outcome == .success)
        #expect(try net.block(voters.map { net.tx($0, "vote", net.voteArgs(0, "crowd", 10_000)) }).allSatisfy { $0.outcome == .success })
        let post = try #require(try net.post(0, "crowd"))
        try net.advance((post.payoutAt / 3600 + 1) * 3600 - net.now + 1)
        try net.ledger.produceBlock()
        let paid = try #require(try net.post(0, "crowd")?.reward)
        let each = try voters.map { try net.stakeOf($0).rewards.curation }
        #expect(each.allSatisfy { $0 > 0 } && Set(each).count == 1, "equal votes, equal shares")
        #expect(paid.curation == each.reduce(0, +))
        #expect(try net.ledger.contractValue("social", key: SocialKeys.payoutCursor) == nil)
        let pool = try net.decode(net.view("rewards", [:]), as: SocialRewardPool.self)
        #expect(pool.reserved == 0 && pool.pending == paid.author + paid.curation)
        #expect(try net.ledger.supply().isConserved)
    }

    /// Random posts, votes, stakes, claims and clock moves: after every block the balances add up
    /// to the genesis supply, and the pool's parts to what it started with.
    @Test(arguments: [UInt64(1), 2, 3]) func supplyAndThePoolAreConservedUnderRandomActivity(seed: UInt64) throws {
        let net = try SocialNet(funds: [1000, 1000, 1000, 1000, 1000], pool: 50_000)
        var rng = SeededGenerator(state: seed)
        var posts: [(Int, String)] = []
        let startPool = 50_000 * token
        var claimed: UInt64 = 0
        for step in 0..<60 {
            var txs: [Transaction] = []
            for user in 0..<5 {
                switch rng.next() % 6 {
                case 0:
                    let link = "p\(step)-\(user)"
                    txs.append(net.tx(user, "comment", net.postArgs(link)))
                    posts.append((user, link))
                case 1, 2:
                    guard !posts.isEmpty else { break }
                    let (author, link) = posts[Int(rng.next() % UInt64(posts.count))]
                    txs.append(net.tx(user, "vote", net.voteArgs(author, link, Int64(rng.next() % 20_001) - 10_000)))
                case 3: txs.append(net.tx(user, "stake", [:], value: (rng.next() % 50 + 1) * token))
                case 4:
                    let pending = try net.stakeOf(user).rewards.pending
                    if pending > 0 {
                        txs.append(net.tx(user, "claim_rewards", [:]))
                        claimed += pending
                    }
                default: break
                }
            }
            let receipts = try net.block(txs)
            // A claim only pays what was pending; a refused one (none left) is not counted.
            for (t, r) in zip(txs, receipts) where r.outcome != .success && t.transactionData.contains("claim_rewards") {
                Issue.record("claim refused: \(r.error?.message ?? "")")
            }
            try net.advance(Int64(rng.next() % 40_000))
            try net.ledger.produceBlock()
            #expect(try net.ledger.supply().isConserved)
            let pool = try net.decode(net.view("rewards", [:]), as: SocialRewardPool.self)
            let held = try net.ledger.account(SocialNet.contract).balance
            #expect(held == pool.free + pool.reserved + pool.pending + pool.staked, "step \(step)")
            #expect(pool.free + pool.reserved + pool.pending + claimed == startPool, "step \(step)")
        }
        // The run paid something, or the checks above proved little.
        let credited = try (0..<5).map { try net.stakeOf($0).rewards }.reduce(UInt64(0)) { $0 + $1.author + $1.curation }
        #expect(credited > 0)
    }
}

struct VoteList: Decodable { let votes: [SocialVote] }

/// The vectors of docs/PROTOCOL.md §2.4 for the social calls added with profiles and rewards:
/// what a client must sign, byte for byte.
@Suite struct SocialCallVectorTests {
    static func signed(_ method: String, _ args: [String: JSONValue]) throws -> Transaction {
        let key = try Ed25519.SigningKey(seed: SecretBytes(Array(0..<32)))
        return Transaction.signed(
            by: key, chainID: "mosaic-devnet", to: ContractCall.address(of: "social"), value: 0, fee: 1_000_000,
            nonce: 8, type: .contractCall, data: ContractCall(contract: "social", method: method, args: args).json,
            creationDate: 1_800_000_000)
    }

    @Test func setProfileAndClaimRewardsMatchTheDocumentedVectors() throws {
        let profile = try Self.signed("set_profile", ["name": .string("alice"), "about": .string("Boats")])
        let claim = try Self.signed("claim_rewards", [:])
        #expect(ContractCall.address(of: "social") == "ae62130698601a9da814b32cc885a88b6407eab64b08649a4e01a8ecbf3a4f2d")
        #expect(profile.transactionData == #"{"args":{"about":"Boats","name":"alice"},"contract":"social","method":"set_profile"}"#)
        #expect(profile.hash == "52cad22d52ba76931fc774b15918b41f22dd7a0db20983edb2b6854161cdeb93")
        #expect(
            profile.signature
                == "4768c30971eb452861e6259b8a259c33f4e21a04252b6df9f911f31aebe41e5bc6876a847995d4ead059d92313b826f0502448f437ceddfb61175379c43e4f04"
        )
        #expect(claim.transactionData == #"{"args":{},"contract":"social","method":"claim_rewards"}"#)
        #expect(claim.hash == "2a3567fd3dc26c5f54ebb5e864390f4be9e5e4fc15432cb859b176ee39f2423e")
        #expect(
            claim.signature
                == "63d3b205868937e60975c580ca8e007d6fe01d101a4307a381cf8a0957618332d0bf3575a2353329b9ac6202fec0ce52dd7283e508247004ba33775227e6e70d"
        )
        try profile.verify()
        try claim.verify()
    }
}
