import MosaicErrors

/// The terms of a new allocation, checked once for every client (the CLI and the web app) against
/// the rules of Mosaic's storage contract, so that a bad form is refused before anything is
/// signed. The contract checks them again; these are its standard limits.
public struct AllocationTerms: Sendable, Hashable {
    /// Most data plus parity shards of one allocation.
    public static let maxShards = 64
    /// Smallest allocation, bytes (1 MiB).
    public static let minSize: UInt64 = 1 << 20
    /// Shortest lifetime, seconds (one hour).
    public static let minSeconds: UInt64 = 3600
    /// Longest lifetime, seconds (100 years).
    public static let maxSeconds: UInt64 = 100 * 365 * 86_400

    public let dataShards: Int
    public let parityShards: Int
    /// User bytes.
    public let size: UInt64
    /// Lifetime from now, seconds.
    public let seconds: UInt64

    /// - Throws: `AllocationTermsError` naming the first term out of range and the range.
    public init(dataShards: Int, parityShards: Int, size: UInt64, seconds: UInt64) throws(AllocationTermsError) {
        guard dataShards >= 1, parityShards >= 0, dataShards <= Self.maxShards, parityShards <= Self.maxShards - dataShards else {
            throw .shards(data: dataShards, parity: parityShards)
        }
        guard size >= Self.minSize else { throw .size(size) }
        guard (Self.minSeconds...Self.maxSeconds).contains(seconds) else { throw .lifetime(seconds: seconds) }
        self.dataShards = dataShards
        self.parityShards = parityShards
        self.size = size
        self.seconds = seconds
    }
}

/// Which term of a new allocation is out of range, and the range.
public enum AllocationTermsError: CodedError, Equatable, Sendable {
    case shards(data: Int, parity: Int)
    case size(UInt64)
    case lifetime(seconds: UInt64)

    public var code: String {
        switch self {
        case .shards: "invalid_shards"
        case .size: "invalid_size"
        case .lifetime: "invalid_expire"
        }
    }

    public var description: String { message }

    public var message: String {
        switch self {
        case .shards(let d, let p):
            "Data shards must be at least 1 and parity shards at least 0, \(AllocationTerms.maxShards) at most together (got \(d)+\(p))."
        case .size(let n):
            "The size must be at least \(Quantity.formatBytes(AllocationTerms.minSize)) (got \(Quantity.formatBytes(n)))."
        case .lifetime(let s):
            "The lifetime must be from 1 hour to 100 years (got \(s) s)."
        }
    }
}
