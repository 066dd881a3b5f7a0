import Foundation
import MosaicCrypto
import MosaicProtocol
import MosaicStorageCore

/// What the storage client needs to know about an allocation: its owner, erasure parameters and
/// blobbers in fragment order. Built from the ledger's `Allocation`, or (before a ledger is
/// involved, e.g. in tests) from an owner-signed `AllocationAssignment` plus the blobbers' URLs.
public struct StorageAllocation: Sendable, Codable, Equatable {
    /// One blobber of the allocation, in fragment order: fragment i of every file goes to blobber i.
    public struct Blobber: Sendable, Codable, Equatable {
        /// The blobber's id (its client id).
        public var id: String
        /// The blobber's base URL.
        public var url: URL
        /// The read price (base units per GiB) the allocation agreed with this blobber when it
        /// joined, from the ledger's allocation record: the price the client signs in its read
        /// markers, never one the blobber names. 0 without a ledger.
        public var readPrice: UInt64
        /// The allocation root the ledger has committed for this blobber, and the timestamp of its
        /// write marker, when read from the ledger (nil without one). A blobber may be ahead of
        /// the ledger (markers not yet committed) but never behind: the client refuses to sign a
        /// write marker over an older state.
        public var committedRoot: String?
        /// The timestamp of the write marker behind `committedRoot`.
        public var committedTimestamp: Int64?
        /// - Parameters:
        ///   - id: the blobber's id.
        ///   - url: its base URL.
        ///   - readPrice: the agreed read price (base units per GiB).
        ///   - committedRoot: the root the ledger committed for it, if known.
        ///   - committedTimestamp: that root's write-marker timestamp.
        public init(id: String, url: URL, readPrice: UInt64 = 0, committedRoot: String? = nil, committedTimestamp: Int64? = nil) {
            self.id = id
            self.url = url
            self.readPrice = readPrice
            self.committedRoot = committedRoot
            self.committedTimestamp = committedTimestamp
        }

        enum CodingKeys: String, CodingKey {
            case id, url
            case readPrice = "read_price"
            case committedRoot = "committed_root"
            case committedTimestamp = "committed_timestamp"
        }

        /// Decodes records written before the price and root fields existed as 0 and nil.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            id = try c.decode(String.self, forKey: .id)
            url = try c.decode(URL.self, forKey: .url)
            readPrice = try c.decodeIfPresent(UInt64.self, forKey: .readPrice) ?? 0
            committedRoot = try c.decodeIfPresent(String.self, forKey: .committedRoot)
            committedTimestamp = try c.decodeIfPresent(Int64.self, forKey: .committedTimestamp)
        }
    }

    /// The allocation id (the hash of the transaction that created it).
    public var id: String
    /// The owner's key: every file's metadata and write marker must be signed by it.
    public var ownerPublicKey: Ed25519.PublicKey
    /// d: any d fragments rebuild a file.
    public var dataShards: Int
    /// p: the extra fragments, so up to p blobbers may be lost.
    public var parityShards: Int
    /// Bytes the allocation may hold.
    public var size: Int64
    /// Unix seconds (ledger time) after which writes are refused.
    public var expiration: Int64
    /// The d + p blobbers in fragment order.
    public var blobbers: [Blobber]

    /// An allocation from known parts (tests, tools, a cached record).
    /// - Parameters:
    ///   - id: the allocation id.
    ///   - ownerPublicKey: the owner's key.
    ///   - dataShards: d.
    ///   - parityShards: p.
    ///   - size: bytes it may hold.
    ///   - expiration: unix seconds when it ends.
    ///   - blobbers: the d + p blobbers in fragment order.
    public init(
        id: String, ownerPublicKey: Ed25519.PublicKey, dataShards: Int, parityShards: Int, size: Int64,
        expiration: Int64, blobbers: [Blobber]
    ) {
        self.id = id
        self.ownerPublicKey = ownerPublicKey
        self.dataShards = dataShards
        self.parityShards = parityShards
        self.size = size
        self.expiration = expiration
        self.blobbers = blobbers
    }

    /// From the storage contract's allocation (as read from the ledger). Blobbers added later with
    /// `add_blobber` (beyond d + p) are not used yet: fragment i stays with the i-th blobber.
    /// - Parameter allocation: the allocation as `LedgerClient.storageAllocation` returns it.
    /// - Throws: `StorageClientError.invalidAllocation` when its key, shards or blobber URLs do not check out.
    public init(_ allocation: Allocation) throws(StorageClientError) {
        guard let key = Ed25519.PublicKey(hex: allocation.ownerPublicKey) else {
            throw .invalidAllocation("allocation \(allocation.id) has a malformed owner key")
        }
        guard ErasureCoder.isValid(dataShards: allocation.dataShards, parityShards: allocation.parityShards) else {
            throw .invalidAllocation(
                "allocation \(allocation.id) has \(allocation.dataShards)+\(allocation.parityShards) shards, not 1…\(ErasureCoder.maxTotalShards) in all"
            )
        }
        var blobbers: [Blobber] = []
        for b in allocation.blobbers.prefix(allocation.dataShards + allocation.parityShards) {
            guard let url = URL(string: b.url) else { throw .invalidAllocation("blobber \(b.blobberID) has a malformed URL \(b.url)") }
            blobbers.append(
                Blobber(
                    id: b.blobberID, url: url, readPrice: b.readPrice, committedRoot: b.allocationRoot,
                    committedTimestamp: b.latestWriteMarker))
        }
        self.init(
            id: allocation.id, ownerPublicKey: key, dataShards: allocation.dataShards, parityShards: allocation.parityShards,
            size: Int64(clamping: allocation.size), expiration: allocation.expiration, blobbers: blobbers)
    }

    /// From a signed assignment and the blobbers' base URLs (same order as `assignment.blobbers`).
    /// - Parameters:
    ///   - assignment: the owner-signed assignment.
    ///   - urls: the blobbers' base URLs.
    /// - Throws: `StorageClientError.invalidAllocation` when the signature, counts or URLs do not check out.
    public init(assignment: AllocationAssignment, urls: [URL]) throws(StorageClientError) {
        guard ErasureCoder.isValid(dataShards: assignment.dataShards, parityShards: assignment.parityShards) else {
            throw .invalidAllocation(
                "the assignment has \(assignment.dataShards)+\(assignment.parityShards) shards, not 1…\(ErasureCoder.maxTotalShards) in all"
            )
        }
        guard urls.count == assignment.blobbers.count else {
            throw .invalidAllocation("\(assignment.blobbers.count) blobbers but \(urls.count) URLs")
        }
        self.init(
            id: assignment.allocationID, ownerPublicKey: assignment.ownerPublicKey, dataShards: assignment.dataShards,
            parityShards: assignment.parityShards, size: assignment.size, expiration: assignment.expiration,
            blobbers: zip(assignment.blobbers, urls).map { Blobber(id: $0, url: $1) })
    }

    /// d + p: how many blobbers hold a fragment of each file.
    public var totalShards: Int { dataShards + parityShards }

    /// Blobbers that must be reachable to start a write, and hold a metadata change for it to count:
    /// d + 1 (d when there is no parity), so one more loss still leaves the data readable.
    public var writeQuorum: Int { min(totalShards, dataShards + 1) }
}
