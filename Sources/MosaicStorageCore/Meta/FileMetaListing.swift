import Foundation
import MosaicCrypto
import MosaicProtocol

/// A listing in binary (`GET /v1/alloc/{id}/files?format=binary`): "MFL1" ‖ u32 count ‖ count ×
/// (u32 length ‖ the entry's canonical bytes ‖ 64-byte signature), big-endian. Each entry is the
/// very bytes the owner signed, read back into a `FileMeta` field by field (a record that is not
/// exactly canonical bytes is refused); decoding costs a fraction of JSON, which matters because a
/// commit on a blobber this client did not write last lists every file.
package enum FileMetaListing {
    public static let contentType = "application/octet-stream"
    static let magic = Array("MFL1".utf8)
    /// A listing followed by its `BlobberWire.FolderProof` (u32 length ‖ JSON).
    static let provenMagic = Array("MFL2".utf8)

    public static func encode(_ metas: [FileMeta], proof: BlobberWire.FolderProof? = nil) -> Data {
        var w = CanonicalWriter()
        for b in proof == nil ? magic : provenMagic { w.append(uint8: b) }
        w.append(uint32: UInt32(metas.count))
        var reserved = false
        for m in metas {
            let entry = m.signingBytes
            if !reserved {
                // Entries of one listing are alike in size; the first one sizes the buffer.
                w.reserveCapacity(8 + metas.count * (entry.count + 68 + 16))
                reserved = true
            }
            w.append(bytes: entry)
            let sig = Hex.decode(m.signature) ?? []
            w.append(raw: sig.count == 64 ? sig : [UInt8](repeating: 0, count: 64))
        }
        if let proof { w.append(bytes: [UInt8]((try? JSONEncoder().encode(proof)) ?? Data())) }
        return Data(w.bytes)
    }

    public static func decode(_ data: Data) throws(StorageProtocolError) -> [FileMeta] {
        try decodeWithDigests(data).map(\.meta)
    }

    /// Each entry with its signing digest, hashed from the bytes received: they are exactly the
    /// entry's canonical signing bytes (anything else is refused), so a reader counting versions
    /// need not encode 20,000 entries again to hash them.
    public static func decodeWithDigests(_ data: Data) throws(StorageProtocolError) -> [(meta: FileMeta, digest: [UInt8])] {
        let (entries, proof) = try decodeProven(data)
        guard proof == nil else { throw .malformed("the binary file listing is malformed") }
        return entries
    }

    /// `decodeWithDigests` of a listing that may carry its folder proof (`MFL2`).
    public static func decodeProven(_ data: Data) throws(StorageProtocolError) -> (
        entries: [(meta: FileMeta, digest: [UInt8])], proof: BlobberWire.FolderProof?
    ) {
        let listing = try FolderListing(data, allocationID: "", index: 0)
        var out: [(meta: FileMeta, digest: [UInt8])] = []
        out.reserveCapacity(listing.entries.count)
        for i in listing.entries.indices { out.append((try listing.meta(i), listing.entries[i].digest)) }
        return (out, listing.proof)
    }
}

extension FileMeta {
    /// The metadata whose canonical bytes (docs/STORAGE.md §10) are `bytes`, with `signature`.
    init(canonicalBytes bytes: [UInt8], signature: String) throws(CanonicalReader.Malformed) {
        var r = CanonicalReader(bytes)
        guard try r.string() == Self.signingDomain else { throw CanonicalReader.Malformed() }
        allocationID = try r.string()
        path = try r.string()
        switch try r.uint8() {
        case 0: kind = .file
        case 1: kind = .directory
        default: throw CanonicalReader.Malformed()
        }
        size = try r.int64()
        contentType = try r.string()
        cipher = try r.string()
        dataShards = Int(clamping: try r.uint64())
        parityShards = Int(clamping: try r.uint64())
        fragmentLength = try r.int64()
        let roots = try r.uint64()
        guard roots <= 1024 else { throw CanonicalReader.Malformed() }
        var list: [String] = []
        for _ in 0..<roots { list.append(Hex.encode(try r.lengthPrefixedBytes())) }
        fragmentRoots = list
        wrappedKey = Hex.encode(try r.lengthPrefixedBytes())
        noncePrefix = Hex.encode(try r.lengthPrefixedBytes())
        created = try r.int64()
        modified = try r.int64()
        ownerID = try r.string()
        guard r.atEnd else { throw CanonicalReader.Malformed() }
        self.signature = signature
    }
}
