import Foundation
import MosaicCrypto
import MosaicProtocol

/// JSON bodies of the blobber HTTP API (docs/STORAGE.md §11), shared by the blobber and the SDK.
package enum BlobberWire {
    /// `GET /v1/info`.
    public struct Info: Sendable, Codable {
        public var blobberID: String
        public var publicKey: String
        public var usedBytes: Int64
        enum CodingKeys: String, CodingKey {
            case blobberID = "blobber_id"
            case publicKey = "public_key"
            case usedBytes = "used_bytes"
        }

        package init(blobberID: String, publicKey: String, usedBytes: Int64) {
            self.blobberID = blobberID
            self.publicKey = publicKey
            self.usedBytes = usedBytes
        }
    }

    /// `GET /v1/alloc/:id`: this blobber's view of an allocation.
    public struct AllocationState: Sendable, Hashable, Codable {
        public var allocationID: String
        public var blobberID: String
        public var index: Int
        /// Hex allocation root that the latest write marker committed (64 zeros before any write).
        public var root: String
        /// Fragment bytes held (the latest marker's size).
        public var size: UInt64
        public var capacity: Int64
        public var fileCount: Int
        public var expiration: Int64
        public var writeMarker: WriteMarker?
        enum CodingKeys: String, CodingKey {
            case allocationID = "allocation_id"
            case blobberID = "blobber_id"
            case index, root, size, capacity
            case fileCount = "file_count"
            case expiration
            case writeMarker = "write_marker"
        }

        package init(
            allocationID: String, blobberID: String, index: Int, root: String, size: UInt64, capacity: Int64,
            fileCount: Int, expiration: Int64, writeMarker: WriteMarker?
        ) {
            self.allocationID = allocationID
            self.blobberID = blobberID
            self.index = index
            self.root = root
            self.size = size
            self.capacity = capacity
            self.fileCount = fileCount
            self.expiration = expiration
            self.writeMarker = writeMarker
        }
    }

    /// One change of a commit. `put` adds or replaces the metadata at `meta.path`; its fragment comes
    /// from the upload `upload_id`, or from the stored file at `source` (copy/move: same fragment
    /// root), or nothing (folders, empty files). `delete` removes `path` and everything below it.
    public struct Change: Sendable, Codable {
        public enum Op: String, Sendable, Codable { case put, delete }
        public var op: Op
        public var meta: FileMeta?
        public var uploadID: String?
        public var source: String?
        public var path: String?
        /// A put over an existing file is refused unless this is true.
        public var replace: Bool?
        enum CodingKeys: String, CodingKey {
            case op, meta
            case uploadID = "upload_id"
            case source, path, replace
        }

        public static func put(_ meta: FileMeta, uploadID: String? = nil, source: String? = nil, replace: Bool = false) -> Change {
            Change(op: .put, meta: meta, uploadID: uploadID, source: source, path: nil, replace: replace)
        }

        public static func delete(_ path: String) -> Change {
            Change(op: .delete, meta: nil, uploadID: nil, source: nil, path: path, replace: nil)
        }
    }

    /// `POST /v1/alloc/:id/commit`: changes applied atomically, with the owner's marker over the result.
    public struct Commit: Sendable, Codable {
        public var changes: [Change]
        public var writeMarker: WriteMarker
        enum CodingKeys: String, CodingKey {
            case changes
            case writeMarker = "write_marker"
        }
        public init(changes: [Change], writeMarker: WriteMarker) {
            self.changes = changes
            self.writeMarker = writeMarker
        }
    }

    /// `GET /v1/alloc/:id/uploads/:upload` and the answer of a `PUT` to it.
    public struct UploadStatus: Sendable, Codable {
        public var received: Int64

        package init(received: Int64) { self.received = received }
    }

    /// `GET /v1/alloc/:id/read-counter`: the reader's counter and, when the blobber holds it, the
    /// reader's own latest signed marker with that counter (a reader signs no marker on top of a
    /// counter it cannot check: docs/STORAGE.md §12).
    public struct ReadCounter: Sendable, Codable {
        public var counter: UInt64
        public var marker: ReadMarker?
        public init(counter: UInt64, marker: ReadMarker? = nil) {
            self.counter = counter
            self.marker = marker
        }
    }

    /// `GET /v1/alloc/:id/files`.
    public struct Listing: Sendable, Codable {
        public var entries: [FileMeta]

        package init(entries: [FileMeta]) { self.entries = entries }
    }

    /// What proves a folder's listing complete and the owner's (`format=proven`): the blobber's
    /// state with the owner's write marker, and the trie steps from the subtree of the folder's
    /// entries up to the root of that marker (docs/STORAGE.md §5). `steps` is nil when the path
    /// is a file or the folder has no entries.
    public struct FolderProof: Sendable, Codable {
        public var state: AllocationState
        public var steps: [TrieStep]?

        package init(state: AllocationState, steps: [TrieStep]?) {
            self.state = state
            self.steps = steps
        }
    }

    // MARK: Block batches

    public static let blocksMagic = Array("MBK1".utf8)

    /// Binary body of `GET /v1/alloc/:id/blocks`: "MBK1" ‖ u32 count ‖ count × (u32 data length ‖ data ‖
    /// u32 proof length ‖ proof (`MerkleProof.encoded()`)), all big-endian.
    public static func encodeBlocks(_ blocks: [FragmentBlock]) -> Data {
        var out = Data(count: encodedSize(blocks))
        out.withUnsafeMutableBytes { encodeBlocks(blocks, into: $0) }
        return out
    }

    /// Bytes `encodeBlocks` takes for `blocks`.
    public static func encodedSize(_ blocks: [FragmentBlock]) -> Int {
        blocks.reduce(8) { $0 + 8 + $1.data.count + $1.proof.encodedCount }
    }

    /// Writes the encoded batch into `out` (exactly `encodedSize(blocks)` bytes), so a server can
    /// build its response body in place.
    public static func encodeBlocks(_ blocks: [FragmentBlock], into out: UnsafeMutableRawBufferPointer) {
        precondition(out.count == encodedSize(blocks), "encodeBlocks needs exactly encodedSize bytes")
        var at = 0
        func put(_ bytes: UnsafeRawBufferPointer) {
            UnsafeMutableRawBufferPointer(rebasing: out[at..<(at + bytes.count)]).copyMemory(from: bytes)
            at += bytes.count
        }
        func putU32(_ v: Int) {
            withUnsafeBytes(of: UInt32(v).bigEndian) { put($0) }
        }
        blocksMagic.withUnsafeBytes { put($0) }
        putU32(blocks.count)
        for b in blocks {
            putU32(b.data.count)
            b.data.withUnsafeBytes { put($0) }
            let proof = b.proof.encoded()
            putU32(proof.count)
            proof.withUnsafeBytes { put($0) }
        }
    }

    /// Each block's bytes are copied once, straight out of the response (a batch is ~1 MiB per source).
    public static func decodeBlocks(_ data: Data) throws -> [FragmentBlock] {
        try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) throws -> [FragmentBlock] in
            var at = 0
            func u32() throws -> Int {
                guard at + 4 <= bytes.count else { throw StorageError.invalidProofEncoding }
                let v = Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
                at += 4
                return v
            }
            func take(_ n: Int) throws -> [UInt8] {
                guard n >= 0, at + n <= bytes.count else { throw StorageError.invalidProofEncoding }
                defer { at += n }
                return [UInt8](UnsafeRawBufferPointer(rebasing: bytes[at..<(at + n)]))
            }
            guard try take(4) == blocksMagic else { throw StorageError.invalidProofEncoding }
            let count = try u32()
            guard count <= 4096 else { throw StorageError.invalidProofEncoding }
            var out: [FragmentBlock] = []
            out.reserveCapacity(count)
            for _ in 0..<count {
                let data = try take(try u32())
                let proof = try MerkleProof(encoded: try take(try u32()))
                out.append(FragmentBlock(data: data, proof: proof))
            }
            guard at == bytes.count else { throw StorageError.invalidProofEncoding }
            return out
        }
    }
}
