import Foundation
import MosaicCrypto
import MosaicParallel
import MosaicProtocol

/// A binary listing (`FileMetaListing`: MFL1, or MFL2 with its folder proof) read in place: per
/// entry the few fields that `ls` compares and proves with, and where its signed bytes sit. Only
/// the versions a reader keeps become `FileMeta` values (`meta(_:)`): a folder of 20,000 files on
/// a 2+2 allocation is 80,000 copies, and a `FileMeta` for each (a dozen strings, roots in hex)
/// was most of an `ls` (docs/PERFORMANCE.md, folders).
///
/// Every entry's layout is checked as it is read (lengths within the record, the signing domain,
/// a known kind, the record ending where its length says), so a truncated or forged listing is
/// refused whole, as `FileMetaListing.decodeProven` refuses it.
package struct FolderListing: Sendable {
    /// What the entry's metadata gives as this blobber's fragment root (its leaf's root).
    package enum LeafRoot: Sendable, Equatable {
        /// A folder, or a file listing fewer roots than the blobber's index: 32 zero bytes.
        case zeros
        /// The 32 bytes at this range of `bytes`.
        case bytes(Range<Int>)
        /// Not 32 bytes: no leaf can be built from it.
        case malformed
    }

    package struct Entry: Sendable {
        /// The entry's canonical signed bytes in `bytes`; its 64-byte signature follows them.
        package let range: Range<Int>
        /// SHA-256 of those bytes: the version's signing digest.
        package let digest: [UInt8]
        package let path: String
        package let isFile: Bool
        package let size: Int64
        package let fragmentLength: Int64
        package let modified: Int64
        /// The metadata names the allocation the reader asked about.
        package let inAllocation: Bool
        package let leafRoot: LeafRoot
    }

    package let bytes: [UInt8]
    package let entries: [Entry]
    package let proof: BlobberWire.FolderProof?

    /// - Parameters:
    ///   - allocationID: the allocation asked about (entries naming another are marked).
    ///   - index: the blobber's index, which picks each file's fragment root for its leaf.
    package init(_ data: Data, allocationID: String, index: Int) throws(StorageProtocolError) {
        let bytes = [UInt8](data)
        let allocation = Array(allocationID.utf8)
        let domain = Array(FileMeta.signingDomain.utf8)
        var r = CanonicalReader(bytes)
        do {
            let head = Array(bytes.prefix(4))
            try r.skip(4)
            guard head == FileMetaListing.magic || head == FileMetaListing.provenMagic else { throw CanonicalReader.Malformed() }
            let count = try r.uint32()
            var out: [Entry] = []
            out.reserveCapacity(Int(min(count, 100_000)))
            for _ in 0..<count {
                let range = try r.lengthPrefixedRange()
                try r.skip(64)
                var e = CanonicalReader(bytes, from: range.lowerBound)
                guard bytes[try e.lengthPrefixedRange()].elementsEqual(domain) else { throw CanonicalReader.Malformed() }
                let inAllocation = bytes[try e.lengthPrefixedRange()].elementsEqual(allocation)
                let path = try e.string()
                let kind = try e.uint8()
                guard kind <= 1 else { throw CanonicalReader.Malformed() }
                let size = try e.int64()
                _ = try e.lengthPrefixedRange()  // content type
                _ = try e.lengthPrefixedRange()  // cipher
                try e.skip(16)  // data and parity shards
                let fragmentLength = try e.int64()
                let roots = try e.uint64()
                guard roots <= 1024 else { throw CanonicalReader.Malformed() }
                var leafRoot = LeafRoot.zeros
                for k in 0..<Int(roots) {
                    let root = try e.lengthPrefixedRange()
                    if kind == 0, k == index { leafRoot = root.count == 32 ? .bytes(root) : .malformed }
                }
                _ = try e.lengthPrefixedRange()  // wrapped key
                _ = try e.lengthPrefixedRange()  // nonce prefix
                try e.skip(8)  // created
                let modified = try e.int64()
                _ = try e.lengthPrefixedRange()  // owner id
                guard e.offset == range.upperBound else { throw CanonicalReader.Malformed() }
                out.append(
                    Entry(
                        range: range, digest: bytes.withUnsafeBytes { SHA256.hash(UnsafeRawBufferPointer(rebasing: $0[range])) },
                        path: path, isFile: kind == 0, size: size, fragmentLength: fragmentLength, modified: modified,
                        inAllocation: inAllocation, leafRoot: leafRoot))
            }
            var proof: BlobberWire.FolderProof?
            if head == FileMetaListing.provenMagic {
                let json = try r.lengthPrefixedRange()
                guard let p = try? JSONDecoder().decode(BlobberWire.FolderProof.self, from: Data(bytes[json])) else {
                    throw CanonicalReader.Malformed()
                }
                proof = p
            }
            guard r.atEnd else { throw CanonicalReader.Malformed() }
            self.bytes = bytes
            self.entries = out
            self.proof = proof
        } catch {
            throw .malformed("the binary file listing is malformed")
        }
    }

    /// Entry `i`'s 64 signature bytes.
    package func signature(_ i: Int) -> ArraySlice<UInt8> {
        let end = entries[i].range.upperBound
        return bytes[end..<(end + 64)]
    }

    /// Entry `i` as the metadata it is, with its signature.
    package func meta(_ i: Int) throws(StorageProtocolError) -> FileMeta {
        do {
            return try FileMeta(canonicalBytes: Array(bytes[entries[i].range]), signature: Hex.encode(signature(i)))
        } catch {
            throw .malformed("the binary file listing is malformed")
        }
    }

    /// Entry `i`'s leaf in the trie of the blobber at the listing's index, or nil when its
    /// metadata gives no 32-byte root there. `folderKey` is `AllocationTrie.folderKey` of its parent.
    package func leaf(_ i: Int, name: String, folderKey: [UInt8]) -> AllocationTrie.Leaf? {
        let e = entries[i]
        let zeros = [UInt8](repeating: 0, count: 32)
        func make(_ root: some Collection<UInt8>) -> AllocationTrie.Leaf {
            AllocationTrie.Leaf(
                path: e.path, name: name, folderKey: folderKey, fragmentRoot: root, fragmentLength: UInt64(max(0, e.fragmentLength)),
                fileSize: UInt64(max(0, e.size)), metadataHash: e.digest)
        }
        switch e.leafRoot {
        case .zeros: return make(zeros)
        case .bytes(let range): return make(bytes[range])
        case .malformed: return nil
        }
    }
}

extension FolderListing {
    /// One entry to check: `listings[listing]`'s entry `entry`, with the owner's signature when
    /// `signature`, else its shapes only (for an entry a proven listing vouches for).
    package struct Check: Sendable {
        package let listing: Int
        package let entry: Int
        package let signature: Bool

        package init(listing: Int, entry: Int, signature: Bool) {
            self.listing = listing
            self.entry = entry
            self.signature = signature
        }
    }

    /// The entries named by `checks` as metadata, decoded and checked for `owner` on every core
    /// (one signature check per entry is most of the cost of a large folder); nil where an entry
    /// does not decode or does not check (`FileMeta.verify`).
    package static func checked(_ checks: [Check], in listings: [FolderListing], owner: Ed25519.PublicKey) -> [FileMeta?] {
        let chunk = 256
        let parts = parallelMap((checks.count + chunk - 1) / chunk) { c in
            checks[(c * chunk)..<min(checks.count, (c + 1) * chunk)].map { k -> FileMeta? in
                let listing = listings[k.listing]
                guard let meta = try? listing.meta(k.entry),
                    (try? meta.verify(owner: owner, digest: listing.entries[k.entry].digest, signatureCheck: k.signature)) != nil
                else { return nil }
                return meta
            }
        }
        return parts.flatMap { $0 }
    }
}
