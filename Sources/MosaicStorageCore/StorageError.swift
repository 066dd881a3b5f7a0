/// Failures of the storage core, each saying what went wrong and what to do about it.
public enum StorageError: Error, Equatable, CustomStringConvertible {
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
    case tooFewSinks(needed: Int, succeeded: Int, failures: [Int: String])
    case invalidRootCount(expected: Int, got: Int)
    case sinkCountMismatch(expected: Int, got: Int)
    case invalidFileSize(Int64)
    case invalidName(String)
    case rootMismatch(expected: String, computed: String)
    case notFound(allocation: String, file: String)
    case corruptFragmentFile(String)
    case io(operation: String, path: String, errno: Int32)
    case writerClosed

    public var description: String {
        switch self {
        case let .invalidShardCounts(d, p):
            return "invalid erasure parameters \(d)+\(p): need at least 1 data shard, 0 or more parity shards, at most \(ErasureCoder.maxTotalShards) in total"
        case let .invalidFragmentSize(n): return "fragment size must be positive, got \(n)"
        case let .fragmentLengthMismatch(i, e, g): return "fragment \(i) has \(g) bytes, expected \(e); all fragments of a chunk must be the same size"
        case let .notEnoughFragments(n, a): return "need \(n) good fragments to decode but only \(a) are usable; bring more blobbers online or repair the file"
        case let .invalidFragmentIndex(i): return "fragment index \(i) is outside the allocation's shards"
        case .singularMatrix: return "the erasure decode matrix is singular (this is a bug: Cauchy submatrices are always invertible)"
        case let .invalidLeafHashes(n): return "a leaf hash list must be a multiple of 32 bytes, got \(n)"
        case let .blockIndexOutOfRange(i, c): return "block \(i) does not exist; the fragment has \(c) blocks"
        case .invalidProofEncoding: return "the Merkle proof bytes are malformed"
        case let .cipherSizeMismatch(s, e, g): return "segment cipher returned \(g) bytes for segment \(s), expected \(e); the cipher's overhead is wrong"
        case let .invalidCipherOverhead(n): return "segment cipher overhead \(n) must be between 0 and 1024 bytes"
        case let .tooFewSinks(n, s, f): return "upload reached only \(s) blobbers, need \(n); failures: \(f.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "; "))"
        case let .invalidRootCount(e, g): return "expected \(e) fragment roots (one per shard), got \(g)"
        case let .sinkCountMismatch(e, g): return "an upload needs one sink per shard (\(e)), got \(g)"
        case let .invalidFileSize(n): return "file size \(n) is not in 0…\(FileLayout.maxFileSize) bytes"
        case let .invalidName(n): return "'\(n)' is not a valid id: use 1–128 characters from A–Z a–z 0–9 . _ - not starting with '.'"
        case let .rootMismatch(e, c): return "fragment data hashes to Merkle root \(c) but \(e) was expected; the upload was corrupted, send it again"
        case let .notFound(a, f): return "no fragment '\(f)' in allocation '\(a)'"
        case let .corruptFragmentFile(p): return "fragment file \(p) is damaged; delete it and repair the file from other blobbers"
        case let .io(op, path, e): return "\(op) failed for \(path): errno \(e)"
        case .writerClosed: return "this fragment writer was already committed or aborted"
        }
    }
}
