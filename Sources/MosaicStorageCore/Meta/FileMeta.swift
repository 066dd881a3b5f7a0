import Foundation
import MosaicCrypto
import MosaicProtocol

/// The owner-signed description of one file (or folder) in an allocation: everything a reader
/// needs besides the fragments, and everything a blobber checks before a write becomes visible.
///
/// Canonical bytes (docs/STORAGE.md §10), `CanonicalWriter` framing with domain
/// "mosaic-file-meta-v1": allocation_id, path, u8 kind, u64 size, content_type, cipher,
/// u64 data_shards, u64 parity_shards, u64 fragment_length, u64 root count, each root (32 bytes),
/// wrapped_key, nonce_prefix, i64 created, i64 modified, owner_id.
/// `signature` = hex Ed25519 of SHA-256(canonical bytes) by the owner; `hash` = hex SHA-256 of them
/// (the metadata hash a blobber's allocation entry commits to).
public struct FileMeta: Sendable, Hashable, Codable, CanonicalSigned {
    public enum Kind: String, Sendable, Codable {
        case file
        case directory
    }

    public static let signingDomain = "mosaic-file-meta-v1"
    public static let aesGCMCipher = "aes-256-gcm-v1"
    /// The same segment cipher, with the content key wrapped for the Locker (PIN + owner's wallet,
    /// docs/LOCKER.md) instead of sealed to the owner's key.
    public static let lockerCipher = "aes-256-gcm-locker-v1"
    /// Bytes of a Locker-wrapped content key (docs/LOCKER.md §2).
    public static let lockerWrappedKeyCount = 80

    public var allocationID: String
    public var path: String
    public var kind: Kind
    /// Plaintext bytes.
    public var size: Int64
    public var contentType: String
    /// Segment cipher name: `aes-256-gcm-v1` (16-byte tag), or `aes-256-gcm-locker-v1` (same segments,
    /// Locker key wrap); empty for folders.
    public var cipher: String
    public var dataShards: Int
    public var parityShards: Int
    /// Hex Merkle root of fragment stream i (stored by the allocation's blobber i).
    public var fragmentRoots: [String]
    public var fragmentLength: Int64
    /// Hex `SealedBox` of the 32-byte content key to the owner's Ed25519 key (for the Locker cipher:
    /// the Locker wrap of that key).
    public var wrappedKey: String
    /// Hex 8 random bytes, the segment nonce prefix.
    public var noncePrefix: String
    /// Unix seconds.
    public var created: Int64
    public var modified: Int64
    public var ownerID: String
    public var signature: String

    enum CodingKeys: String, CodingKey {
        case allocationID = "allocation_id"
        case path, kind, size
        case contentType = "content_type"
        case cipher
        case dataShards = "data_shards"
        case parityShards = "parity_shards"
        case fragmentRoots = "fragment_roots"
        case fragmentLength = "fragment_length"
        case wrappedKey = "wrapped_key"
        case noncePrefix = "nonce_prefix"
        case created, modified
        case ownerID = "owner_id"
        case signature
    }

    public init(
        allocationID: String, path: String, kind: Kind, size: Int64, contentType: String, cipher: String,
        dataShards: Int, parityShards: Int, fragmentRoots: [String], fragmentLength: Int64, wrappedKey: String,
        noncePrefix: String, created: Int64, modified: Int64, ownerID: String, signature: String = ""
    ) {
        self.allocationID = allocationID
        self.path = path
        self.kind = kind
        self.size = size
        self.contentType = contentType
        self.cipher = cipher
        self.dataShards = dataShards
        self.parityShards = parityShards
        self.fragmentRoots = fragmentRoots
        self.fragmentLength = fragmentLength
        self.wrappedKey = wrappedKey
        self.noncePrefix = noncePrefix
        self.created = created
        self.modified = modified
        self.ownerID = ownerID
        self.signature = signature
    }

    /// A folder entry (no content).
    public static func directory(allocationID: String, path: String, time: Int64, ownerID: String) -> FileMeta {
        FileMeta(
            allocationID: allocationID, path: path, kind: .directory, size: 0, contentType: "", cipher: "",
            dataShards: 0, parityShards: 0, fragmentRoots: [], fragmentLength: 0, wrappedKey: "", noncePrefix: "",
            created: time, modified: time, ownerID: ownerID)
    }

    public var signingBytes: [UInt8] {
        var w = CanonicalWriter(domain: Self.signingDomain)
        w.append(string: allocationID)
        w.append(string: path)
        w.append(uint8: kind == .file ? 0 : 1)
        w.append(int64: size)
        w.append(string: contentType)
        w.append(string: cipher)
        w.append(uint64: UInt64(max(0, dataShards)))
        w.append(uint64: UInt64(max(0, parityShards)))
        w.append(int64: fragmentLength)
        w.append(uint64: UInt64(fragmentRoots.count))
        for r in fragmentRoots { w.append(bytes: Hex.decode(r) ?? Array(r.utf8)) }
        w.append(bytes: Hex.decode(wrappedKey) ?? Array(wrappedKey.utf8))
        w.append(bytes: Hex.decode(noncePrefix) ?? Array(noncePrefix.utf8))
        w.append(int64: created)
        w.append(int64: modified)
        w.append(string: ownerID)
        return w.bytes
    }

    /// Hex SHA-256 of the signing bytes.
    public var hash: String { signingHash }

    public mutating func sign(with key: Ed25519.SigningKey) {
        ownerID = key.publicKey.clientID
        signature = self.signature(by: key)
    }

    /// Checks shapes and the owner's signature; `owner` must be the allocation owner's key.
    public func verify(owner: Ed25519.PublicKey) throws(StorageRequestError) {
        try verify(owner: owner, digest: signingDigest)
    }

    /// `verify` with the signing digest already known (a listing hashed the bytes it received).
    /// `signatureCheck: false` checks all but the signature itself, for entries that an owner's
    /// signature already covers otherwise: a whole listing that gives the root of the owner's
    /// write marker (its leaves commit to each entry's digest).
    package func verify(owner: Ed25519.PublicKey, digest: [UInt8], signatureCheck: Bool = true) throws(StorageRequestError) {
        guard ownerID == owner.clientID else { throw .forbidden("file metadata for \(path) is not from the allocation owner") }
        try RemotePath.validate(path)
        switch kind {
        case .directory:
            guard size == 0, fragmentRoots.isEmpty, fragmentLength == 0 else {
                throw .invalid("folder metadata for \(path) must have no size or fragments")
            }
        case .file:
            guard cipher == Self.aesGCMCipher || cipher == Self.lockerCipher else {
                throw .invalid("unknown cipher '\(cipher)' in metadata of \(path)")
            }
            guard ErasureCoder.isValid(dataShards: dataShards, parityShards: parityShards),
                fragmentRoots.count == dataShards + parityShards,
                fragmentRoots.allSatisfy({ Hex.byteCount($0) == 32 })
            else {
                throw .invalid("metadata of \(path) needs one 32-byte hex root per shard")
            }
            guard Hex.byteCount(noncePrefix) == 8 else {
                throw .invalid("metadata of \(path): nonce_prefix must be 8 hex bytes")
            }
            let wrappedCount = cipher == Self.lockerCipher ? Self.lockerWrappedKeyCount : SealedBox.overhead + 32
            guard Hex.byteCount(wrappedKey) == wrappedCount else {
                throw .invalid("metadata of \(path): wrapped_key must be a wrapped 32-byte key (\(wrappedCount) bytes)")
            }
            guard let layout = try? layout(), layout.fragmentLength == fragmentLength else {
                throw .invalid(
                    "metadata of \(path): fragment_length \(fragmentLength) does not fit size \(size) with \(dataShards)+\(parityShards) shards"
                )
            }
        }
        if !signatureCheck {
            guard Hex.byteCount(signature) == 64 else {
                throw .forbidden("the owner signature on the metadata of \(path) is malformed")
            }
            return
        }
        guard signatureFault(signature, by: owner, digest: digest) == nil else {
            throw .forbidden("the owner signature on the metadata of \(path) is invalid")
        }
    }

    /// The fragment layout this metadata describes.
    package func layout() throws -> FileLayout {
        try FileLayout(fileSize: size, dataShards: dataShards, parityShards: parityShards, cipherOverhead: AES256GCM.tagCount)
    }

    /// Layout plus binary roots, as the decoder wants them.
    package func encodedFile() throws -> EncodedFile {
        try EncodedFile(layout: layout(), fragmentRoots: fragmentRoots.map { Hex.decode($0) ?? [] })
    }

    /// A copy at another path (move/copy re-sign it).
    public func moved(to newPath: String, time: Int64) -> FileMeta {
        var m = self
        m.path = newPath
        m.modified = time
        m.signature = ""
        return m
    }
}
