import MosaicCrypto
import MosaicStorageCore

/// Merges the folder listings of several blobbers into what `ls` shows: which versions are the
/// owner's, and per path the newest version that enough blobbers hold.
///
/// A version is one signing digest. Its copies are referred to by position (listing, entry), never
/// copied: a folder of 20,000 files is 80,000 copies on a 2+2 allocation, and copying each
/// `FileMeta` (a dozen reference-counted fields) into per-digest dictionaries, keyed by 32-byte
/// arrays hashed byte by byte, was most of an `ls` (docs/PERFORMANCE.md, folders).
struct ListingVotes {
    typealias Listing = [(meta: FileMeta, digest: [UInt8])]

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

    private struct Ref {
        let list: Int
        let entry: Int
    }

    private struct Version {
        let first: Ref
        var disputed = false
        var owner: Ref?
        var votes = 0
        /// The last listing that voted for it: a blobber naming an entry twice votes once.
        var lastVoter = -1
    }

    /// The listings that answered, in blobber order, and whether each one's folder proof checked.
    private let lists: [Listing]
    private let proven: [Bool]
    private var versions: [Version] = []
    private var index: [DigestKey: Int] = [:]
    /// Per listing, per entry, its version.
    private var versionOf: [[Int]] = []

    init(lists: [Listing], proven: [Bool]) {
        self.lists = lists
        self.proven = proven
        index.reserveCapacity(lists.first?.count ?? 0)
        for (li, list) in lists.enumerated() {
            var column: [Int] = []
            column.reserveCapacity(list.count)
            for (ei, e) in list.enumerated() {
                let key = DigestKey(e.digest)
                let v: Int
                if let known = index[key] {
                    v = known
                    // Honest copies of one version carry the same signature (Ed25519 is deterministic).
                    if meta(versions[v].first).signature != e.meta.signature { versions[v].disputed = true }
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

    private func meta(_ r: Ref) -> FileMeta { lists[r.list][r.entry].meta }

    /// Per path, the newest of the owner's versions that at least `needed` listings hold, sorted by path.
    ///
    /// The owner's versions: those a root-checked listing proved, and those with a good signature
    /// on some copy, checked once per version on every core (another copy is tried only when the
    /// first one's signature fails). The root proves the signed bytes, not the signature field
    /// beside them, so a proven version is taken as is only when no copy disagrees; otherwise its
    /// copies' signatures are checked like any other version's, and the first good one wins.
    mutating func merged(allocationID: String, owner: Ed25519.PublicKey, needed: Int) -> [FileMeta] {
        for (li, column) in versionOf.enumerated() where proven[li] {
            for (ei, v) in column.enumerated() where versions[v].owner == nil && !versions[v].disputed {
                versions[v].owner = Ref(list: li, entry: ei)
            }
        }
        // Every copy of a version has the same signed bytes, so the same allocation id.
        let candidates = versions.indices.filter { versions[$0].owner == nil && meta(versions[$0].first).allocationID == allocationID }
        let valid = FileMeta.verifyAll(
            candidates.map { v in lists[versions[v].first.list][versions[v].first.entry] }, owner: owner)
        for (k, v) in candidates.enumerated() where valid[k] { versions[v].owner = versions[v].first }
        let candidate = Set(candidates)
        for (li, column) in versionOf.enumerated() {
            for (ei, v) in column.enumerated() where versions[v].owner == nil && candidate.contains(v) {
                let e = lists[li][ei]
                guard e.meta.signature != meta(versions[v].first).signature,
                    (try? e.meta.verify(owner: owner, digest: e.digest)) != nil
                else { continue }
                versions[v].owner = Ref(list: li, entry: ei)
            }
        }
        // A proven version whose every copy has a broken signature is still the owner's bytes.
        for (li, column) in versionOf.enumerated() where proven[li] {
            for (ei, v) in column.enumerated() where versions[v].owner == nil { versions[v].owner = Ref(list: li, entry: ei) }
        }
        var byPath: [String: Ref] = [:]
        byPath.reserveCapacity(versions.count)
        for version in versions where version.votes >= needed {
            guard let r = version.owner else { continue }
            let m = meta(r)
            if let other = byPath[m.path], meta(other).modified >= m.modified { continue }
            byPath[m.path] = r
        }
        return byPath.values.map(meta).sorted { $0.path < $1.path }
    }
}
