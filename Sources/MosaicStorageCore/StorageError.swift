import MosaicErrors

/// Failures of the storage core, each saying what went wrong and what to do about it.
package enum StorageError: CodedError, Equatable, CustomStringConvertible {
    case invalidShardCounts(data: Int, parity: Int)
    case invalidFragmentSize(Int)
    case fragmentLengthMismatch(index: Int, expected: Int, got: Int)
    case notEnoughFragments(needed: Int, available: Int)
    case invalidFragmentIndex(Int)
    case singularMatrix
    case invalidLeafHashes(byteCount: Int)
    case blockIndexOutOfRange(index: Int, count: Int)
    case invalidProofEncoding
    case cipherSizeMismatch(segment: Int64, expected: Int, got: Int)
    case invalidCipherOverhead(Int)
    case tooFewSinks(needed: Int, succeeded: Int, failures: [Int: SinkFailure])
    case invalidRootCount(expected: Int, got: Int)
    case sinkCountMismatch(expected: Int, got: Int)
    case invalidFileSize(Int64)
    case invalidName(String)
    case rootMismatch(expected: String, computed: String)
    case notFound(allocation: String, file: String)
    case corruptFragmentFile(String)
    case io(operation: String, path: String, errno: Int32)
    case writerClosed
    /// The file being encoded is not the size it had when the upload began (it changed meanwhile).
    case sourceSizeChanged(path: String, expected: Int64, found: Int64)

    /// Stable code: callers decide on it, never on the message.
    public var code: String {
        switch self {
        case .invalidShardCounts: return "invalid_shard_counts"
        case .invalidFragmentSize: return "invalid_fragment_size"
        case .fragmentLengthMismatch: return "fragment_length_mismatch"
        case .notEnoughFragments: return "not_enough_fragments"
        case .invalidFragmentIndex: return "invalid_fragment_index"
        case .singularMatrix: return "singular_matrix"
        case .invalidLeafHashes: return "invalid_leaf_hashes"
        case .blockIndexOutOfRange: return "block_index_out_of_range"
        case .invalidProofEncoding: return "invalid_proof_encoding"
        case .cipherSizeMismatch: return "cipher_size_mismatch"
        case .invalidCipherOverhead: return "invalid_cipher_overhead"
        case .tooFewSinks: return "too_few_sinks"
        case .invalidRootCount: return "invalid_root_count"
        case .sinkCountMismatch: return "sink_count_mismatch"
        case .invalidFileSize: return "invalid_file_size"
        case .invalidName: return "invalid_name"
        case .rootMismatch: return "root_mismatch"
        case .notFound: return "not_found"
        case .corruptFragmentFile: return "corrupt_fragment_file"
        case .io: return "io"
        case .writerClosed: return "writer_closed"
        case .sourceSizeChanged: return "source_size_changed"
        }
    }

    public var description: String {
        switch self {
        case .invalidShardCounts(let d, let p):
            return
                "invalid erasure parameters \(d)+\(p): need at least 1 data shard, 0 or more parity shards, at most \(ErasureCoder.maxTotalShards) in total"
        case .invalidFragmentSize(let n): return "fragment size must be positive, got \(n)"
        case .fragmentLengthMismatch(let i, let e, let g):
            return "fragment \(i) has \(g) bytes, expected \(e); all fragments of a chunk must be the same size"
        case .notEnoughFragments(let n, let a):
            return "need \(n) good fragments to decode but only \(a) are usable; bring more blobbers online or repair the file"
        case .invalidFragmentIndex(let i): return "fragment index \(i) is outside the allocation's shards"
        case .singularMatrix: return "the erasure decode matrix is singular (this is a bug: Cauchy submatrices are always invertible)"
        case .invalidLeafHashes(let n): return "a leaf hash list must be a multiple of 32 bytes, got \(n)"
        case .blockIndexOutOfRange(let i, let c): return "block \(i) does not exist; the fragment has \(c) blocks"
        case .invalidProofEncoding: return "the Merkle proof bytes are malformed"
        case .cipherSizeMismatch(let s, let e, let g):
            return "segment cipher returned \(g) bytes for segment \(s), expected \(e); the cipher's overhead is wrong"
        case .invalidCipherOverhead(let n): return "segment cipher overhead \(n) must be between 0 and 1024 bytes"
        case .tooFewSinks(let n, let s, let f):
            return
                "upload reached only \(s) blobbers, need \(n); failures: \(f.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "; "))"
        case .invalidRootCount(let e, let g): return "expected \(e) fragment roots (one per shard), got \(g)"
        case .sinkCountMismatch(let e, let g): return "an upload needs one sink per shard (\(e)), got \(g)"
        case .invalidFileSize(let n): return "file size \(n) is not in 0…\(FileLayout.maxFileSize) bytes"
        case .invalidName(let n): return "'\(n)' is not a valid id: use 1–128 characters from A–Z a–z 0–9 . _ - not starting with '.'"
        case .rootMismatch(let e, let c):
            return "fragment data hashes to Merkle root \(c) but \(e) was expected; the upload was corrupted, send it again"
        case .notFound(let a, let f): return "no fragment '\(f)' in allocation '\(a)'"
        case .corruptFragmentFile(let p): return "fragment file \(p) is damaged; delete it and repair the file from other blobbers"
        case .io(let op, let path, let e): return "\(op) failed for \(path): errno \(e)"
        case .writerClosed: return "this fragment writer was already committed or aborted"
        case .sourceSizeChanged(let p, let e, let f):
            return
                "\(p) was \(e) bytes when its upload began and is \(f > e ? "longer" : "\(f) bytes") now: it changed while it was being read; upload it again once it stays put"
        }
    }
}
