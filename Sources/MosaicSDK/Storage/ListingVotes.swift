import MosaicCrypto
import MosaicStorageCore

/// Merges the folder listings of several blobbers into what `ls` shows: which versions are the
/// owner's, and per path the newest version that enough blobbers hold.
///
/// A version is one signing digest. Its copies are referred to by position (listing, entry) in
/// listings read in place (`FolderListing`), and only the version shown for each path (and those
/// whose signature must be checked) becomes a `FileMeta`: a folder of 20,000 files is 80,000
/// copies on a 2+2 allocation, and building and copying a `FileMeta` for each (a dozen
/// reference-counted fields) was most of an `ls` (docs/PERFORMANCE.md, folders).
struct ListingVotes {
    /// A 32-byte digest as a key that hashes four words instead of 32 bytes.
    struct DigestKey: Hashable {
        let a: UInt64
        let b: UInt64
        let c: UInt64
        let d: UInt64

        init(_ bytes: [UInt8]) {
            var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
            withUnsafeMutableBytes(of: &words) { out in
                // A digest is 32 bytes; anything shorter or longer is folded in, never read past.
                for (i, byte) in bytes.enumerated() { out[i % 32] ^= byte }
                if bytes.count != 32 { out[0] ^= UInt8(truncatingIfNeeded: bytes.count) }
            }
            (a, b, c, d) = words
        }
    }

    private struct Ref: Hashable {
        let list: Int
        let entry: Int
    }

    private struct Version {
        let first: Ref
        var disputed = false
        var owner: Ref?
        /// The owner's copy decoded and checked: with its signature, or (a proven one, once
        /// chosen) for shape. Nil until then.
        var meta: FileMeta?
        var votes = 0
        /// The last listing that voted for it: a blobber naming an entry twice votes once.
        var lastVoter = -1
    }

    /// The listings that answered, in blobber order.
    private let lists: [FolderListing]
    /// Whether each one's folder proof checked (nil: not tried, as no version needed it).
    private var proven: [Bool?]
    private var versions: [Version] = []
    private var index: [DigestKey: Int] = [:]
    /// Per listing, per entry, its version.
    private var versionOf: [[Int]] = []

    init(lists: [FolderListing]) {
        self.lists = lists
        proven = lists.map { _ in nil }
        index.reserveCapacity(lists.first?.entries.count ?? 0)
        for (li, list) in lists.enumerated() {
            var column: [Int] = []
            column.reserveCapacity(list.entries.count)
            for (ei, e) in list.entries.enumerated() {
                let key = DigestKey(e.digest)
                let v: Int
                if let known = index[key] {
                    v = known
                    // Honest copies of one version carry the same signature (Ed25519 is deterministic).
                    let first = versions[v].first
                    if !lists[first.list].signature(first.entry).elementsEqual(list.signature(ei)) { versions[v].disputed = true }
                } else {
                    v = versions.count
                    index[key] = v
                    versions.append(Version(first: Ref(list: li, entry: ei)))
                }
                if versions[v].lastVoter != li {
                    versions[v].lastVoter = li
                    versions[v].votes += 1
                }
                column.append(v)
            }
            versionOf.append(column)
        }
    }

    private func entry(_ r: Ref) -> FolderListing.Entry { lists[r.list].entries[r.entry] }

    /// Per path, the newest of the owner's versions that at least `needed` listings hold, sorted by path.
    ///
    /// The owner's versions: those a root-checked listing proved, and those with a good signature
    /// on some copy, checked once per version on every core (another copy is tried only when the
    /// first one's signature fails). The root proves the signed bytes, not the signature field
    /// beside them, so a proven version is taken as is only when no copy disagrees; otherwise its
    /// copies' signatures are checked like any other version's, and the first good one wins. A
    /// proven version shown is checked for shape (a path, roots and a layout that fit) when it is
    /// decoded; one that fails gives way to the next newest.
    ///
    /// `proves(k)` checks listing k's folder proof. It is asked in blobber order, and only of a
    /// listing that holds a version no earlier proof made the owner's: blobbers that agree cost
    /// one proof, not one each.
    mutating func merged(owner: Ed25519.PublicKey, needed: Int, proves: (Int) -> Bool) -> [FileMeta] {
        for (li, column) in versionOf.enumerated() where column.contains(where: { versions[$0].owner == nil }) {
            proven[li] = proves(li)
            guard proven[li] == true else { continue }
            for (ei, v) in column.enumerated() where versions[v].owner == nil && !versions[v].disputed {
                versions[v].owner = Ref(list: li, entry: ei)
            }
        }
        // Every copy of a version has the same signed bytes, so the same allocation id.
        let candidates = versions.indices.filter { versions[$0].owner == nil && entry(versions[$0].first).inAllocation }
        let firsts = FolderListing.checked(
            candidates.map { .init(listing: versions[$0].first.list, entry: versions[$0].first.entry, signature: true) }, in: lists,
            owner: owner)
        for (k, v) in candidates.enumerated() {
            guard let meta = firsts[k] else { continue }
            versions[v].owner = versions[v].first
            versions[v].meta = meta
        }
        let candidate = Set(candidates)
        for (li, column) in versionOf.enumerated() {
            for (ei, v) in column.enumerated() where versions[v].owner == nil && candidate.contains(v) {
                let first = versions[v].first
                guard !lists[li].signature(ei).elementsEqual(lists[first.list].signature(first.entry)),
                    let meta = FolderListing.checked([.init(listing: li, entry: ei, signature: true)], in: lists, owner: owner)[0]
                else { continue }
                versions[v].owner = Ref(list: li, entry: ei)
                versions[v].meta = meta
            }
        }
        // A proven version whose every copy has a broken signature is still the owner's bytes.
        for (li, column) in versionOf.enumerated() where proven[li] == true {
            for (ei, v) in column.enumerated() where versions[v].owner == nil { versions[v].owner = Ref(list: li, entry: ei) }
        }
        // The newest per path; a proven one is decoded and checked for shape here, and a version
        // that fails is passed over (rare: the owner signed it), so the next newest is chosen.
        var refused = Set<Int>()
        while true {
            var best: [String: Int] = [:]
            best.reserveCapacity(versions.count)
            for (v, version) in versions.enumerated() where version.votes >= needed && version.owner != nil && !refused.contains(v) {
                let e = entry(version.first)
                if let other = best[e.path], entry(versions[other].first).modified >= e.modified { continue }
                best[e.path] = v
            }
            let chosen = best.values.sorted { entry(versions[$0].first).path < entry(versions[$1].first).path }
            let unchecked = chosen.filter { versions[$0].meta == nil }
            let metas = FolderListing.checked(
                unchecked.compactMap { v in versions[v].owner.map { .init(listing: $0.list, entry: $0.entry, signature: false) } },
                in: lists, owner: owner)
            for (k, v) in unchecked.enumerated() {
                if let meta = metas[k] { versions[v].meta = meta } else { refused.insert(v) }
            }
            if unchecked.allSatisfy({ versions[$0].meta != nil }) { return chosen.compactMap { versions[$0].meta } }
        }
    }
}
