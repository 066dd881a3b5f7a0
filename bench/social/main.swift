import BenchSupport
import Foundation
import MosaicCrypto
import MosaicHTTPServer
import MosaicLedger
import MosaicNode
import MosaicProtocol
import Synchronization

// Social feed read benchmark (not a test): a ledger seeded through the social contract with
// POSTS root posts (each upvoted by its author, so all of them are in trending), then a node in
// this process serving `GET /v1/contracts/social/views/feed?sort=trending&limit=20` to CLIENTS
// concurrent keep-alive clients for SECONDS — first everyone on the front page (answered from the
// node's per-round view cache), then each read a different deep page (uncached); prints both
// against the 2,000/s target, and the same read in process (no HTTP) for reference.
// Run in release: swift run -c release bench-social [posts] [clients] [seconds]

let args = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let postCount = args.count > 0 ? args[0] : 100_000
let clients = args.count > 1 ? args[1] : 8
let seconds = args.count > 2 ? args[2] : 10
let authors = min(5_000, max(1, postCount / 20))
let waves = (postCount + authors - 1) / authors

func log(_ s: String) { FileHandle.standardError.write(Data((s + "\n").utf8)) }
func secondsOf(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }

// MARK: seed

// MOSAIC_BENCH_SOCIAL_DIR keeps the seeded ledger there and reuses it on the next run.
let kept = ProcessInfo.processInfo.environment["MOSAIC_BENCH_SOCIAL_DIR"]
let dir = kept ?? NSTemporaryDirectory() + "mosaic-bench-social-" + Hex.encode(Random.bytes(6))
let reuse = kept.map { FileManager.default.fileExists(atPath: $0 + "/ledger.sqlite") } ?? false
defer { if kept == nil { try? FileManager.default.removeItem(atPath: dir) } }
// Deterministic keys, so a kept ledger's genesis matches the next run's.
let keys = (0..<authors).map { i in
    (try? Ed25519.SigningKey(seed: SecretBytes(Array(SHA256.hash(Array("bench-social-\(i)".utf8)))))) ?? Ed25519.SigningKey.generate()
}
var genesis = Genesis(
    chainID: "mosaic-bench-social",
    allocations: Dictionary(
        uniqueKeysWithValues: keys.enumerated().map { i, k in
            (k.publicKey.clientID, UInt64(1 + i % 1000) * TokenAmount.unitsPerToken)
        }))
genesis.confirmations = 3
genesis.maxBlockTransactions = 3 * authors
genesis.poolCapacity = 1_000_000
genesis.expiryBlocks = 1000
let chainID = genesis.chainID
let fee = genesis.minimumFee
let social = ContractCall.address(of: "social")
let tags = ["mosaic", "storage", "swift", "news", "photo", "music", "travel", "food"]
let body = String(repeating: "A post body of a realistic length for a feed preview. ", count: 6)

if reuse {
    log("reusing the seeded ledger in \(dir)")
} else {
    log("seeding \(waves * authors) posts by \(authors) authors in \(waves) waves (post + self-upvote per author each wave)…")
    let seedStart = ContinuousClock.now
    do {
        let ledger = try Ledger(
            directory: dir, genesis: genesis,
            limits: LedgerLimits(poolBytes: 1 << 30, senderPendingCount: 1 << 20, senderPendingBytes: 1 << 30))
        for wave in 0..<waves {
            let count = min(authors, postCount - wave * authors)
            let signed = Mutex<[[Transaction]]>(Array(repeating: [], count: count))
            DispatchQueue.concurrentPerform(iterations: count) { i in
                let key = keys[i]
                let permlink = "post-\(wave)-\(i)"
                let post = ContractCall(
                    contract: "social", method: "comment",
                    args: [
                        "permlink": .string(permlink), "parent_author": .string(""), "parent_permlink": .string(tags[i % tags.count]),
                        "title": .string("Post \(wave)/\(i) about \(tags[(i + wave) % tags.count])"), "body": .string(body),
                        "tags": .array([.string(tags[(i + wave + 1) % tags.count])]),
                    ])
                let vote = ContractCall(
                    contract: "social", method: "vote",
                    args: [
                        "author": .string(key.publicKey.clientID), "permlink": .string(permlink),
                        "weight": .integer(Int64(100 + (i * 37 + wave * 11) % 9_900)),
                    ])
                // Votes count a locked voting stake: each author stakes half its tokens in the first wave.
                let stake = UInt64(1 + i % 1000) * TokenAmount.unitsPerToken / 2
                let first =
                    wave == 0
                    ? [
                        Transaction.signed(
                            by: key, chainID: chainID, to: social, value: stake, fee: fee, nonce: 1, type: .contractCall,
                            data: ContractCall(contract: "social", method: "stake").json, creationDate: Int64(Date().timeIntervalSince1970))
                    ] : []
                let txs =
                    first
                    + [post, vote].enumerated().map { n, call in
                        Transaction.signed(
                            by: key, chainID: chainID, to: social, value: 0, fee: fee, nonce: UInt64(2 * wave + n + 2),
                            type: .contractCall, data: call.json, creationDate: Int64(Date().timeIntervalSince1970))
                    }
                signed.withLock { $0[i] = txs }
            }
            let all = signed.withLock { $0 }.flatMap { $0 }
            let refused = ledger.submit(all).compactMap { $0 }
            if let first = refused.first { log("wave \(wave): \(refused.count) refused, first: \(first)") }
            let block = try ledger.produceBlock()
            if wave == 0 {
                let sample = try ledger.transactions(inRound: block.round, limit: 2)
                for r in sample where r.receipt?.outcome == .failure {
                    log("failed: \(r.receipt?.error?.code ?? ""): \(r.receipt?.error?.message ?? "")")
                }
            }
            try ledger.advanceClock(by: 300)
            if wave % 5 == 4 || wave == waves - 1 {
                log(
                    String(
                        format: "  %d posts after %.1f s", min(postCount, (wave + 1) * authors), secondsOf(ContinuousClock.now - seedStart))
                )
            }
        }
        for _ in 0..<Int(genesis.confirmations) { try ledger.produceBlock() }
        ledger.close()
    }
    let seedSeconds = secondsOf(ContinuousClock.now - seedStart)
    log(String(format: "seeded in %.1f s (%.0f transactions/s through the contract)", seedSeconds, Double(2 * postCount) / seedSeconds))
}

// MARK: node and reads

var config = NodeConfiguration(directory: dir, genesis: genesis, port: 0, blockTime: .seconds(3600))
// A benchmark floods on purpose: lift the per-sender and byte caps of the pool.
config.ledgerLimits = LedgerLimits(poolBytes: 1 << 30, senderPendingCount: 1 << 20, senderPendingBytes: 1 << 30)
config.threads = 4
let node = try NodeServer(configuration: config)
try node.start()
let path = "/v1/contracts/social/views/feed?sort=trending&limit=20"

// Sanity: the page is full and in trending order.
do {
    let http = try RawHTTPClient(port: node.http.port)
    let r = try http.get(path)
    guard r.status == 200 else {
        log("feed answered \(r.status): \(String(decoding: r.body.prefix(300), as: UTF8.self))")
        exit(1)
    }
    struct Answer: Decodable {
        let round: UInt64
        let result: SocialFeedPage
    }
    let page = try JSONDecoder().decode(Answer.self, from: Data(r.body)).result
    let scores = page.posts.map(\.trendingScore)
    guard page.posts.count == 20, scores == scores.sorted(by: >) else {
        log("unexpected page: \(page.posts.count) posts")
        exit(1)
    }
    log("first page: \(page.posts.count) posts, \(r.body.count) bytes, top \(page.posts[0].path) (score \(scores[0]))")
}

// In process, one thread: the view alone (no HTTP).
do {
    var n = 0
    let start = ContinuousClock.now
    while ContinuousClock.now - start < .seconds(2) {
        _ = try node.ledger.view(contract: "social", name: "feed", args: ["sort": .string("trending"), "limit": .integer(20)])
        n += 1
    }
    log(String(format: "in process, one thread: %.0f feed views/s", Double(n) / secondsOf(ContinuousClock.now - start)))
    for (label, name, args) in [
        ("feed of 1 post", "feed", ["sort": JSONValue.string("trending"), "limit": .integer(1)]),
        ("one post", "post", ["author": .string(keys[0].publicKey.clientID), "permlink": .string("post-0-0")]),
    ] {
        var c = 0
        let t0 = ContinuousClock.now
        while ContinuousClock.now - t0 < .seconds(1) {
            _ = try node.ledger.view(contract: "social", name: name, args: args)
            c += 1
        }
        log(String(format: "in process, one thread, %@: %.0f views/s", label, Double(c) / secondsOf(ContinuousClock.now - t0)))
    }
    // What the node adds per answer: encoding the result as JSON.
    let result = try node.ledger.view(contract: "social", name: "feed", args: ["sort": .string("trending"), "limit": .integer(20)])
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]  // as the node's responses
    var m = 0
    let encodeStart = ContinuousClock.now
    while ContinuousClock.now - encodeStart < .seconds(1) {
        _ = try encoder.encode(result)
        m += 1
    }
    log(
        String(
            format: "JSON encoding of one page, one thread, Foundation's JSONEncoder: %.0f/s",
            Double(m) / secondsOf(ContinuousClock.now - encodeStart)))
    var k = 0
    let directStart = ContinuousClock.now
    while ContinuousClock.now - directStart < .seconds(1) {
        _ = result.jsonData
        k += 1
    }
    log(
        String(
            format: "JSON encoding of one page, one thread, JSONValue.jsonData (what the node uses): %.0f/s",
            Double(k) / secondsOf(ContinuousClock.now - directStart)))
}

/// Reads/s and failures of CLIENTS keep-alive clients asking for `next()` paths for SECONDS.
func measure(_ next: @escaping @Sendable () -> String) async throws -> (rate: Double, failed: Int) {
    let reads = Atomic<Int>(0)
    let failures = Atomic<Int>(0)
    let deadline = ContinuousClock.now + .seconds(seconds)
    let runStart = ContinuousClock.now
    let port = node.http.port
    let threads = (0..<clients).map { _ in
        Thread {
            guard let http = try? RawHTTPClient(port: port) else {
                failures.add(1, ordering: .relaxed)
                return
            }
            while ContinuousClock.now < deadline {
                if let r = try? http.get(next()), r.status == 200 {
                    reads.add(1, ordering: .relaxed)
                } else {
                    failures.add(1, ordering: .relaxed)
                }
            }
        }
    }
    for t in threads { t.start() }
    while ContinuousClock.now < deadline + .milliseconds(500) { try await Task.sleep(for: .milliseconds(100)) }
    let elapsed = secondsOf(ContinuousClock.now - runStart) - 0.5
    return (Double(reads.load(ordering: .relaxed)) / max(elapsed, 0.001), failures.load(ordering: .relaxed))
}

// 1. Everyone reads the front page: the node computes it once per sealed round (ViewAnswerCache).
let front = try await measure { path }
// 2. Every read a different page: the 20 posts after a random one of the POSTS, so nearly every
//    read misses the cache and runs the view (a reader scrolling deep into the feed).
let authorIDs = keys.map(\.publicKey.clientID)
let deep = try await measure {
    let wave = Int.random(in: 0..<waves)
    let i = Int.random(in: 0..<min(authors, postCount - wave * authors))
    return path + "&start_author=\(authorIDs[i])&start_permlink=post-\(wave)-\(i)"
}
await node.stop()
// The box is shared: say how busy it was, since the figure moves with it.
let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
print(
    String(
        format:
            "feed reads (trending, 20 items, %d posts, %d clients, %d s over HTTP): front page %.0f/s, random deep pages (uncached) %.0f/s — target 2,000/s: %@ (%d failed; load average %@)",
        postCount, clients, seconds, front.rate, deep.rate, min(front.rate, deep.rate) >= 2000 ? "met" : "NOT met",
        front.failed + deep.failed, load))
