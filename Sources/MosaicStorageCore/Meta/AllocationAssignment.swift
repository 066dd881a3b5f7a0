import Foundation
import MosaicCrypto
import MosaicProtocol

/// What a blobber must know about an allocation before it accepts data: the owner's key, the
/// erasure parameters, the blobbers in order (its own position is its fragment index), the size
/// and the expiry. Signed by the owner; a blobber accepts the first assignment for an id and only
/// identical ones later. This stands in for reading the allocation from the ledger until the
/// storage contract is merged; the ledger's allocation carries the same fields.
///
/// Canonical bytes: domain "mosaic-alloc-assignment-v1", allocation_id, owner_public_key (32),
/// u64 data_shards, u64 parity_shards, u64 size, i64 expiration, u64 blobber count, blobber ids.
public struct AllocationAssignment: Sendable, Hashable, Codable, CanonicalSigned {
    public static let signingDomain = "mosaic-alloc-assignment-v1"

    public var allocationID: String
    public var ownerPublicKey: Ed25519.PublicKey
    public var dataShards: Int
    public var parityShards: Int
    /// Plaintext bytes the allocation may hold; each blobber may store size / d (rounded up) plus tags.
    public var size: Int64
    /// Unix seconds after which writes are refused.
    public var expiration: Int64
    /// Blobber ids (hex client ids of their keys); index = fragment index.
    public var blobbers: [String]
    public var signature: String

    enum CodingKeys: String, CodingKey {
        case allocationID = "allocation_id"
        case ownerPublicKey = "owner_public_key"
        case dataShards = "data_shards"
        case parityShards = "parity_shards"
        case size, expiration, blobbers, signature
    }

    public init(
        allocationID: String, ownerPublicKey: Ed25519.PublicKey, dataShards: Int, parityShards: Int, size: Int64,
        expiration: Int64, blobbers: [String], signature: String = ""
    ) {
        self.allocationID = allocationID
        self.ownerPublicKey = ownerPublicKey
        self.dataShards = dataShards
        self.parityShards = parityShards
        self.size = size
        self.expiration = expiration
        self.blobbers = blobbers
        self.signature = signature
    }

    public var ownerID: String { ownerPublicKey.clientID }

    public var signingBytes: [UInt8] {
        var w = CanonicalWriter(domain: Self.signingDomain)
        w.append(string: allocationID)
        w.append(bytes: ownerPublicKey.bytes)
        w.append(uint64: UInt64(max(0, dataShards)))
        w.append(uint64: UInt64(max(0, parityShards)))
        w.append(int64: size)
        w.append(int64: expiration)
        w.append(uint64: UInt64(blobbers.count))
        for b in blobbers { w.append(string: b) }
        return w.bytes
    }

    public mutating func sign(with key: Ed25519.SigningKey) {
        signature = self.signature(by: key)
    }

    /// Fragment bytes one blobber may hold: ⌈size / d⌉, the storage contract's `blobber_size`
    /// (which the ledger checks every write marker's size against).
    public var perBlobberCapacity: Int64 {
        Int64(StoragePricing.blobberSize(size: UInt64(max(0, size)), dataShards: dataShards))
    }

    public func verify() throws(StorageRequestError) {
        guard Transaction.isHexID(allocationID) else { throw .invalid("allocation_id must be 64 lowercase hex characters") }
        guard ErasureCoder.isValid(dataShards: dataShards, parityShards: parityShards),
            blobbers.count == dataShards + parityShards, Set(blobbers).count == blobbers.count
        else {
            throw .invalid("an allocation needs d ≥ 1, p ≥ 0 and d + p distinct blobbers")
        }
        guard size > 0 else { throw .invalid("allocation size must be positive") }
        guard signatureFault(signature, by: ownerPublicKey) == nil else {
            throw .forbidden("the allocation assignment is not signed by its owner")
        }
    }
}
