import Foundation
import MosaicCrypto
import MosaicProtocol
import Testing

/// The vectors of docs/STORAGE.md §5–§7, computed independently in Python (hashlib, cryptography).
@Suite struct StorageVectorTests {
    static let big = [UInt8]((0..<(2 * 65536 + 1)).map { UInt8($0 % 251) })
    static let zeros = String(repeating: "0", count: 64)

    static func entries() -> [AllocationEntry] {
        [
            AllocationEntry(
                path: "/docs/a.txt", fragmentRoot: Hex.encode(MerkleRules.root(leaves: MerkleRules.blockLeaves(Array("abc".utf8)))),
                fragmentLength: 3, fileSize: 3),
            AllocationEntry(path: "/empty", fragmentRoot: zeros, fragmentLength: 0, fileSize: 0),
            AllocationEntry(
                path: "/b.bin", fragmentRoot: Hex.encode(MerkleRules.root(leaves: MerkleRules.blockLeaves(big))),
                fragmentLength: 131073, fileSize: 131000, metadataHash: Hex.encode(SHA256.hash(Array("meta-b".utf8)))),
        ]
    }

    @Test func merkleRulesMatchTheFragmentTreeVectors() {
        #expect(
            Hex.encode(MerkleRules.root(leaves: MerkleRules.blockLeaves(Array("abc".utf8))))
                == "609f6e36d2405585188d5cfd761f407c7cc46a7d3f314c88270469dde315fcd1")
        #expect(
            Hex.encode(MerkleRules.root(leaves: MerkleRules.blockLeaves(Self.big)))
                == "ab2382bf1625e5d9a48a6c52a540d0029aa8f56bcc0d363e8ad4935cac5d2d0d")
        #expect(MerkleRules.root(leaves: []) == [UInt8](repeating: 0, count: 32))
    }

    @Test func allocationRootVector() throws {
        let tree = try AllocationTree(entries: Self.entries())
        #expect(tree.entries.map(\.path) == ["/b.bin", "/docs/a.txt", "/empty"])
        #expect(
            Hex.encode(tree.entries[0].canonicalBytes)
                == "000000156d6f736169632d616c6c6f632d656e7472792d7631000000062f622e62696e00000020ab2382bf1625e5d9a48a6c52a540d0029aa8f56bcc0d363e8ad4935cac5d2d0d0000000000020001000000000001ffb800000020e06609d85ff36c01511fae3772f0cae7da1acaaa7daec83cf85936b4e0c1f0c1"
        )
        #expect(
            Hex.encode(AllocationTrie.key(path: "/b.bin"))
                == "0079ca50a449c051983f2485b864734499d50bd15c5a673be9a7f73818367a19d908bd58516a720df216181cd1e647e392fc80d57d0596bf94a98218e22b3b5c"
        )
        #expect(
            Hex.encode(AllocationTrie.key(path: "/docs/a.txt"))
                == "ca9a7cf259c8a91442731cdd42858eb776ecbc9ce17e4ef1aac4e8bd623df9b67b9bfb972e5f4d5674ca09e895e7d08885f6a17c8edeadd2158b1f21ef00d27b"
        )
        #expect(Hex.encode(AllocationTrie.folderKey("/")) == "0079ca50a449c051983f2485b864734499d50bd15c5a673be9a7f73818367a19")
        // Key order: /b.bin, /empty (both in "/", split at bit 258), then /docs/a.txt (split at bit 0).
        #expect(tree.trie.proof(ofEntry: 0)?.path == "/b.bin")
        #expect(tree.trie.proof(ofEntry: 1)?.path == "/empty")
        #expect(tree.trie.proof(ofEntry: 2)?.path == "/docs/a.txt")
        #expect(tree.root == "f6f171d1099af99fefc7382894f0335fb2dd16d00b34dd2c403ea50e4e015bed")
        #expect(tree.totalFragmentBytes == 131076)
        #expect(try AllocationTree(entries: [Self.entries()[0]]).root == "44e9226083d757444c95b3dc113bdda2d19d334e73480e12d5629d0bbb239b47")
        #expect(try AllocationTree(entries: []).root == AllocationTree.emptyRoot)
        #expect(throws: StorageProtocolError.self) { try AllocationTree(entries: [Self.entries()[0], Self.entries()[0]]) }
    }

    @Test func aFolderProofGivesTheRootFromThatFolderAlone() throws {
        let tree = try AllocationTree(entries: Self.entries())
        let steps = try #require(tree.trie.proof(ofFolder: "/"))
        #expect(
            steps == [TrieStep(depth: 0, sibling: "d79ddbb6c4af3110b4c3117aee4ecc2e143eedd7de509495acd999f2273b5710", count: 1, bytes: 3)])
        let inRoot = Self.entries().filter { $0.path != "/docs/a.txt" }
        func rootFrom(_ entries: [AllocationEntry], _ steps: [TrieStep]) throws -> String? {
            guard let sub = try AllocationTrie.subtree(of: entries),
                let top = AllocationTrie.climb(
                    hash: sub.hash, count: sub.count, bytes: sub.bytes, key: AllocationTrie.folderKey("/"),
                    under: AllocationTrie.folderBits, steps: steps)
            else { return nil }
            return AllocationTrie.root(count: top.count, size: top.bytes, trieRoot: top.hash)
        }
        #expect(try rootFrom(inRoot, steps) == tree.root)
        // A dropped entry, an added one, or a step from inside the folder does not give the root.
        #expect(try rootFrom(Array(inRoot.prefix(1)), steps) != tree.root)
        #expect(try rootFrom(Self.entries(), steps) != tree.root)
        let inside = try #require(tree.trie.proof(ofEntry: 0)?.steps)
        #expect(inside.first?.depth == 258)
        #expect(try rootFrom(Array(inRoot.prefix(1)), inside) == nil)
        #expect(tree.trie.proof(ofFolder: "/docs")?.map(\.depth) == [0])
        #expect(tree.trie.proof(ofFolder: "/nothing") == nil)
        #expect(Set(tree.trie.paths(inFolder: "/")) == ["/b.bin", "/empty"])
    }

    @Test func twoLevelChallengeProofVector() throws {
        let tree = try AllocationTree(entries: Self.entries())
        let id = Hex.encode(Challenge.seed(previousBlockHash: String(repeating: "11", count: 32), round: 7))
        #expect(id == "3249d8bfccc318bb5a7cc80148655d729484345a262e2f997a8d12b05bd5b083")
        let bigLeaves = MerkleRules.blockLeaves(Self.big)
        let proof = try ChallengeProof.build(challengeID: id, tree: tree) { entry, index in
            #expect(entry.path == "/b.bin")
            let start = Int(index) * 65536
            return (Array(Self.big[start..<min(start + 65536, Self.big.count)]), MerkleRules.siblings(leaves: bigLeaves, index: Int(index)))
        }
        #expect(proof.entryIndex == 0 && proof.entryCount == 3 && proof.blockIndex == 0)
        #expect(
            proof.entrySteps == [
                TrieStep(depth: 258, sibling: "b9f08d704777427d178b8b5eebdffaf366f7be841071210b1d9d577021eb2b03", count: 1, bytes: 0),
                TrieStep(depth: 0, sibling: "d79ddbb6c4af3110b4c3117aee4ecc2e143eedd7de509495acd999f2273b5710", count: 1, bytes: 3),
            ])
        #expect(
            proof.blockSiblings == [
                "7bfbe74e605f27570de852b4a386d3168029a14b1cbb8709265da136c2c4d1b5",
                "fa61e3dec3439589f4784c893bf321d0084f04c572c7af2b68e3f3360a35b486",
            ])
        try proof.verify(challengeID: id, allocationRoot: tree.root)

        // Any change breaks it: another root, another block, a wrong count, a wrong index.
        #expect(throws: StorageProtocolError.self) { try proof.verify(challengeID: id, allocationRoot: Self.zeros) }
        var flipped = proof
        var bytes = [UInt8](Data(base64Encoded: proof.block) ?? Data())
        bytes[100] ^= 1
        flipped.block = Data(bytes).base64EncodedString()
        #expect(throws: StorageProtocolError.self) { try flipped.verify(challengeID: id, allocationRoot: tree.root) }
        var recount = proof
        recount.entryCount = 4
        #expect(throws: StorageProtocolError.self) { try recount.verify(challengeID: id, allocationRoot: tree.root) }
        var moved = proof
        moved.entryIndex = 1
        #expect(throws: StorageProtocolError.self) { try moved.verify(challengeID: id, allocationRoot: tree.root) }
        var lighter = proof
        lighter.entrySteps[1].bytes = 0
        #expect(throws: StorageProtocolError.self) { try lighter.verify(challengeID: id, allocationRoot: tree.root) }
        var other = proof
        other.blockIndex = 1
        #expect(throws: StorageProtocolError.self) { try other.verify(challengeID: id, allocationRoot: tree.root) }
        #expect(Challenge.word(id, 0) % 3 == 0 && Challenge.word(id, 1) % 3 == 0)
    }

    @Test func signedObjectVectors() throws {
        let owner = try Ed25519.SigningKey(seed: SecretBytes([UInt8](repeating: 1, count: 32)))
        let reader = try Ed25519.SigningKey(seed: SecretBytes([UInt8](repeating: 2, count: 32)))
        #expect(owner.publicKey.clientID == "34750f98bd59fcfc946da45aaabe933be154a4b5094e1c4abf42866505f3c97e")
        let alloc = String(repeating: "aa", count: 32)
        let blobber = String(repeating: "bb", count: 32)

        var wm = WriteMarker(
            allocationID: alloc, blobberID: blobber, clientID: owner.publicKey.clientID, previousRoot: Self.zeros,
            root: "7c4d7e7345783a9714d8cfd1d453be2aec84ff2121d394fdc309f349885cbfc0", size: 131076, timestamp: 1_800_000_000_000)
        wm.sign(with: owner)
        #expect(wm.hash == "b761db4e805742336cb81ecb1f61973c23738a8d1c95e0356907d00c08ae4925")
        #expect(
            wm.signature
                == "86cb85725c77f1ef082f8128ff9efcce47336011cf080b1d6e32407f71fa03c15406bd7f00e31906a3e72043eefa4a06d1f1c34d680fd6626e730a76194a1c06"
        )
        try wm.verify(ownerPublicKey: owner.publicKey.hex)
        #expect(throws: StorageProtocolError.self) { try wm.verify(ownerPublicKey: reader.publicKey.hex) }
        let json = String(decoding: try JSONEncoder().encode(wm), as: UTF8.self)
        #expect(json.contains("\"previous_root\"") && json.contains("\"allocation_id\""))

        var t = AuthTicket(
            allocationID: alloc, ownerID: "", ownerPublicKey: "", path: "/docs/a.txt", kind: .file,
            recipientID: reader.publicKey.clientID, expiration: 1_800_086_400, nonce: "0102030405060708",
            readBudget: 5_000_000_000)
        t.sign(with: owner)
        #expect(t.id == "a715f7a36e8461aadca4d6aa9e170ec3b831bc948f1ddc487d9f7f33f45f873f")
        #expect(
            t.signature
                == "a8533f1f36d53f10c630e6bdb1861eadb9fc8f5f4337be601afca2932b364eb9966c4ef3618d277896e4c08db7a17a302e6704ad5637c2e1214fd5e6cbfae501"
        )
        try t.verify(now: 1_800_000_000, reader: reader.publicKey.clientID)
        #expect(throws: StorageProtocolError.self) { try t.verify(now: 1_800_086_401) }
        #expect(throws: StorageProtocolError.self) { try t.verify(reader: String(repeating: "cc", count: 32)) }
        // The budget is signed: raising it breaks the id and the signature.
        var richer = t
        richer.readBudget += 1
        #expect(throws: StorageProtocolError.self) { try richer.verify() }
        let ticketJSON = String(decoding: try JSONEncoder().encode(t), as: UTF8.self)
        #expect(ticketJSON.contains("\"read_budget\":5000000000"))

        var rm = ReadMarker(
            allocationID: alloc, blobberID: blobber, clientID: "", publicKey: "", ownerID: owner.publicKey.clientID,
            counter: 42, timestamp: 1_800_000_100, readPrice: 10_000_000, ticketID: t.id)
        rm.sign(with: reader)
        #expect(rm.clientID == "6a3803d5f059902a1c6dafbc9ba4729212f7caac08634cc3ae76b27529f03827")
        #expect(Hex.encode(rm.signingBytes) == Self.readMarkerBytes)
        #expect(rm.hash == "94fd1590356bab8e39f0a5c1d6211ca630d5708aef0bad0692241bf819ce013d")
        #expect(
            rm.signature
                == "f8316c7caf70a061a0e45983d9509a0cea2a1f636d181c1d0cbc1ea503f2f5281e4aa13200c5dfe4999e8c54ebe9b37d07312a1437e457e9016a2256719f430a"
        )
        try rm.verify()
        var forged = rm
        forged.counter = 43
        #expect(throws: StorageProtocolError.self) { try forged.verify() }
        // Price and ticket are under the reader's signature: a blobber can change neither.
        var pricier = rm
        pricier.readPrice = 20_000_000
        #expect(throws: StorageProtocolError.self) { try pricier.verify() }
        var otherTicket = rm
        otherTicket.ticketID = String(repeating: "dd", count: 32)
        #expect(throws: StorageProtocolError.self) { try otherTicket.verify() }
        var noTicket = rm
        noTicket.ticketID = ""
        #expect(throws: StorageProtocolError.self) { try noTicket.verify() }
    }

    /// Signing bytes of the read-marker vector (docs/STORAGE.md §6).
    static let readMarkerBytes =
        "000000156d6f736169632d726561642d6d61726b65722d76320000004061616161616161616161616161616161616161616161616161616161616161616161616161616161616161616161616161616161616161616161616161616161000000406262626262626262626262626262626262626262626262626262626262626262626262626262626262626262626262626262626262626262626262626262626200000040366133383033643566303539393032613163366461666263396261343732393231326637636161633038363334636333616537366232373532396630333832370000004033343735306639386264353966636663393436646134356161616265393333626531353461346235303934653163346162663432383636353035663363393765000000000000002a000000006b49d26400000000009896800000004061373135663761333665383436316161646361346436616139653137306563336238333162633934386631646463343837643966376633336634356638373366"

    @Test func pricingRoundsUpWithoutOverflow() {
        #expect(StoragePricing.writeCost(price: 10_000_000_000, bytes: 1 << 30, seconds: 2_592_000) == 10_000_000_000)
        #expect(StoragePricing.writeCost(price: 1, bytes: 1, seconds: 1) == 1)
        #expect(StoragePricing.writeCost(price: 0, bytes: 1 << 40, seconds: 1 << 30) == 0)
        #expect(StoragePricing.writeCost(price: UInt64.max, bytes: UInt64.max, seconds: UInt64.max) == nil)
        #expect(StoragePricing.readCost(price: 16384, blocks: 3) == 3)
        #expect(StoragePricing.blobberSize(size: 10, dataShards: 4) == 3)
        #expect(StoragePricing.mulDivCeil(UInt64.max, 2, 2) == UInt64.max)
    }
}

/// Writers keep per-path leaves and update only what a write changes; the root must stay the
/// one `AllocationTree` gives over all entries, whatever the order of updates.
@Suite struct AllocationLeavesTests {
    @Test func leavesGiveTheTreeRootThroughSetsAndRemoves() throws {
        let entries = StorageVectorTests.entries()
        var leaves = AllocationLeaves()
        #expect(leaves.root == AllocationTree.emptyRoot)
        for e in entries.reversed() { try leaves.set(e) }
        #expect(leaves.root == (try AllocationTree(entries: entries)).root)
        leaves.remove(entries[0].path)
        #expect(leaves.root == (try AllocationTree(entries: Array(entries.dropFirst()))).root)
        try leaves.set(entries[0])
        try leaves.set(entries[0])  // setting a path again replaces its leaf
        #expect(leaves.count == entries.count)
        #expect(leaves.root == (try AllocationTree(entries: entries)).root)
        var bad = entries[1]
        bad.fragmentRoot = "xyz"
        #expect(throws: StorageProtocolError.self) { try leaves.set(bad) }
    }

    @Test func pathsKeepByteOrderWithPrefixesAndNonASCIINames() throws {
        let names = ["/z", "/a", "/a/b", "/a b", "/é", "/e", "/ä/x", "/A", "/a-", "/日本", "/€", "/a/b/c", "/ab"]
        let zeros = String(repeating: "0", count: 64)
        var made = names.map { AllocationEntry(path: $0, fragmentRoot: zeros, fragmentLength: 0, fileSize: 0) }
        var leaves = AllocationLeaves()
        for e in made { try leaves.set(e) }
        #expect(leaves.root == (try AllocationTree(entries: made)).root)
        for gone in ["/a/b", "/日本", "/z"] {
            leaves.remove(gone)
            made.removeAll { $0.path == gone }
            #expect(leaves.root == (try AllocationTree(entries: made)).root, "after removing \(gone)")
        }
        leaves.remove("/not-there")
        #expect(leaves.count == made.count)
    }

    /// A folder's delete removes the folder and its range of paths below it, and nothing that only
    /// shares its name's prefix ("/a b", "/ab", "/a-" sort among them in byte order).
    @Test func removingAFolderTakesExactlyWhatIsBelowIt() throws {
        let names = ["/a", "/a b", "/a/b", "/a/b/c", "/a-", "/ab", "/a/ü", "/b", "/a.", "/a/"]
        let zeros = String(repeating: "0", count: 64)
        var leaves = AllocationLeaves()
        for n in names { try leaves.set(AllocationEntry(path: n, fragmentRoot: zeros, fragmentLength: 0, fileSize: 0)) }
        let removed = leaves.removeAll(within: "/a")
        #expect(Set(removed) == ["/a", "/a/", "/a/b", "/a/b/c", "/a/ü"])
        let kept = names.filter { !removed.contains($0) }
        #expect(leaves.count == kept.count)
        #expect(
            leaves.root
                == (try AllocationTree(entries: kept.map { AllocationEntry(path: $0, fragmentRoot: zeros, fragmentLength: 0, fileSize: 0) }))
                .root)
        #expect(leaves.removeAll(within: "/nothing").isEmpty)
        #expect(leaves.removeAll(within: "/b") == ["/b"])
    }

    /// The trie changed in place gives the root of the trie built at once: after any mix of new
    /// entries, entries replaced, removals and folder removals, whatever their order. Seeded, so
    /// a failure reproduces.
    @Test func changesInPlaceGiveTheRootOfTheTrieBuiltAtOnce() throws {
        // xorshift64, seeded: the sequence is the same every run.
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        var model: [String: AllocationEntry] = [:]
        var leaves = AllocationLeaves()
        func entry(_ path: String) -> AllocationEntry {
            let root = (0..<32).map { _ in String(format: "%02x", Int(next() % 256)) }.joined()
            return AllocationEntry(path: path, fragmentRoot: root, fragmentLength: next() % 1000, fileSize: next() % 1000)
        }
        for step in 0..<1500 {
            let path = "/d\(next() % 4)/f\(next() % 60)"
            switch next() % 10 {
            case 0..<6:
                let e = entry(path)
                try leaves.set(e)
                model[path] = e
            case 6..<9:
                leaves.remove(path)
                model[path] = nil
            default:
                let folder = "/d\(next() % 4)"
                let gone = leaves.removeAll(within: folder)
                #expect(Set(gone) == Set(model.keys.filter { $0.hasPrefix(folder + "/") }))
                for p in gone { model[p] = nil }
            }
            if next() % 5 == 0 || step == 1499 {
                #expect(leaves.root == (try AllocationTree(entries: Array(model.values))).root, "after step \(step)")
                #expect(leaves.count == model.count)
            }
        }
        // Built at once from entries, it is equal and gives the same root.
        let bulk = try AllocationLeaves(entries: Array(model.values))
        #expect(bulk == leaves)
        #expect(bulk.root == leaves.root)
        // Every entry's proof climbs to the root at its own index, and every folder's proof gives
        // the root from exactly that folder's entries.
        for i in 0..<UInt64(leaves.count) {
            let (path, steps) = try #require(leaves.trie.proof(ofEntry: i))
            let e = try #require(model[path])
            let key = AllocationTrie.key(path: path)
            let top = try #require(
                AllocationTrie.climb(
                    hash: AllocationTrie.leafHash(key: key, entry: e), count: 1, bytes: e.fragmentLength, key: key,
                    under: AllocationTrie.keyBits, steps: steps))
            #expect(top.before == i)
            #expect(AllocationTrie.root(count: top.count, size: top.bytes, trieRoot: top.hash) == leaves.root)
        }
        for d in 0..<4 {
            let folder = "/d\(d)"
            let inside = model.values.filter { $0.path.hasPrefix(folder + "/") }
            guard !inside.isEmpty else { continue }
            let steps = try #require(leaves.trie.proof(ofFolder: folder))
            let sub = try #require(try AllocationTrie.subtree(of: inside))
            let top = try #require(
                AllocationTrie.climb(
                    hash: sub.hash, count: sub.count, bytes: sub.bytes, key: AllocationTrie.folderKey(folder),
                    under: AllocationTrie.folderBits, steps: steps))
            #expect(AllocationTrie.root(count: top.count, size: top.bytes, trieRoot: top.hash) == leaves.root)
            #expect(Set(leaves.trie.paths(inFolder: folder)) == Set(inside.map(\.path)))
        }
        #expect(throws: StorageProtocolError.self) { try AllocationLeaves(entries: Array(model.values.prefix(1)) + Array(model.values)) }
    }
}
