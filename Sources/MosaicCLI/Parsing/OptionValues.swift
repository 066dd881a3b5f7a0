import MosaicLedger
import MosaicProtocol
import MosaicSDK
import MosaicStorageCore

// The types options parse into. Each owns its check and its one refusal message, so an option
// declared with the type can neither skip the check nor word it differently.

extension String: OptionValue {
    static var valueName: String { "VALUE" }
    static func parse(_ text: String, option: String) throws -> String { text }
}

extension TokenAmount: OptionValue {
    static var valueName: String { "TOKENS" }
    static func parse(_ text: String, option: String) throws -> TokenAmount {
        do { return try TokenAmount(parsing: text) } catch {
            throw CLIError.usage("--\(option) \(text): give a token amount such as 1, 0.5 or 0.001")
        }
    }
}

/// A size such as 1048576, 64KiB or 1GiB (`ByteSize`).
struct ByteCount: OptionValue {
    let bytes: UInt64
    static var valueName: String { "SIZE" }
    static func parse(_ text: String, option: String) throws -> ByteCount { ByteCount(bytes: try ByteSize.parse(text, flag: option)) }
}

/// A lifetime of at least one second such as 1h, 30d or 52w, in whole seconds.
struct Lifetime: OptionValue {
    let seconds: UInt64
    static var valueName: String { "DURATION" }
    static func parse(_ text: String, option: String) throws -> Lifetime {
        guard let ms = DurationText.milliseconds(text), ms >= 1000 else {
            throw CLIError.usage("--\(option) \(text): give a duration such as 1h, 30d or 52w")
        }
        return Lifetime(seconds: UInt64(ms / 1000))
    }
}

/// An interval such as 0, 500ms, 1s or 2s (block times, timeouts).
struct Interval: OptionValue {
    let duration: Duration
    static var valueName: String { "DURATION" }
    static func parse(_ text: String, option: String) throws -> Interval { Interval(duration: try DurationText.parse(text, flag: option)) }
}

/// Where a node keeps its ledger (`--db`): `sqlite` (the default, in --dir) or a PostgreSQL URL.
struct LedgerDatabaseOption: OptionValue {
    let database: LedgerDatabase
    static var valueName: String { "URL" }
    static func parse(_ text: String, option: String) throws -> LedgerDatabaseOption {
        if text == "sqlite" { return LedgerDatabaseOption(database: .sqlite) }
        guard text.hasPrefix("postgres://") || text.hasPrefix("postgresql://"), text.count > "postgres://".count else {
            throw CLIError.usage("--\(option) \(text.prefix(80)): give sqlite or postgres://USER@HOST:PORT/DATABASE")
        }
        return LedgerDatabaseOption(database: .postgres(url: text))
    }
}

/// "A-B": first and last byte, inclusive, as a range of plaintext offsets.
struct ByteRange: OptionValue {
    let range: Range<Int64>
    static var valueName: String { "A-B" }
    static func parse(_ text: String, option: String) throws -> ByteRange {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let a = Int64(parts[0]), let b = Int64(parts[1]), a >= 0, b >= a, b < Int64.max else {
            throw CLIError.usage("--\(option) \(text): give first and last byte, e.g. 0-1048575")
        }
        return ByteRange(range: a..<(b + 1))
    }
}

/// A whole number in the range of its type; the type names the range once.
protocol BoundedNumber: OptionValue {
    associatedtype Number: FixedWidthInteger & Sendable
    static var range: ClosedRange<Number> { get }
    var value: Number { get }
    init(value: Number)
    /// What the refusal asks for: "a number" unless the type says more ("a whole number").
    static var noun: String { get }
    /// The usage error for text that is no number in `range`.
    static func refusal(_ text: String, option: String) -> String
}

extension BoundedNumber {
    static var valueName: String { "N" }
    static var noun: String { "a number" }

    /// "--limit 0: give a whole number from 1 to 500"; without the range when every value of
    /// the type is allowed ("--round r: give a round number").
    static func refusal(_ text: String, option: String) -> String {
        let whole = range == Number.min...Number.max
        return "--\(option) \(text): give \(noun)" + (whole ? "" : " from \(range.lowerBound) to \(range.upperBound)")
    }

    static func parse(_ text: String, option: String) throws -> Self {
        guard let n = Number(text), range.contains(n) else { throw CLIError.usage(refusal(text, option: option)) }
        return Self(value: n)
    }
}

/// A TCP port on 127.0.0.1; 0 picks a free one.
struct Port: BoundedNumber {
    let value: UInt16
    static let range = UInt16.min...UInt16.max
    static var valueName: String { "P" }
    static func refusal(_ text: String, option: String) -> String {
        "--\(option) \(text): give a port number from 0 to 65535 (0 picks a free one)"
    }
}

/// Blocks after a transaction's block before it is sealed.
struct Confirmations: BoundedNumber {
    let value: UInt64
    static let range: ClosedRange<UInt64> = 0...1000
    static var noun: String { "a number of blocks" }
}

/// Data shards of an allocation: any this many blobbers rebuild a file.
struct DataShards: BoundedNumber {
    let value: Int
    static let range = 1...AllocationTerms.maxShards
    static var valueName: String { "D" }
}

/// Parity shards of an allocation: this many blobbers may be lost.
struct ParityShards: BoundedNumber {
    let value: Int
    static let range = 0...AllocationTerms.maxShards
    static var valueName: String { "P" }
}

/// Files a folder upload, download or sync moves at once.
struct TransferJobs: BoundedNumber {
    let value: Int
    static let range = 1...64
}

/// Blobbers a devnet runs in process.
struct DevnetBlobbers: BoundedNumber {
    let value: Int
    static let range = 0...32
}

/// Ledger nodes a devnet runs in process (more than one shares a PostgreSQL database).
struct DevnetNodes: BoundedNumber {
    let value: Int
    static let range = 1...Devnet.maxNodes
}

/// A transfer rate (`--limit-rate 2MiB/s`): bytes per second as a size (`ByteSize`), with or
/// without "/s"; at least 1 KiB/s, so that a typo such as `--limit-rate 2` is not a transfer that
/// never ends.
struct TransferRate: OptionValue {
    let bytesPerSecond: Int64
    static var valueName: String { "RATE" }
    static let minimum: Int64 = 1024
    static func parse(_ text: String, option: String) throws -> TransferRate {
        let size = text.hasSuffix("/s") ? String(text.dropLast(2)) : text
        guard let n = ByteSize.bytes(size), n >= UInt64(minimum), let v = Int64(exactly: n) else {
            throw CLIError.usage(
                "--\(option) \(text.prefix(80)): give bytes per second such as 500KiB/s, 2MiB/s or 10MB/s (at least 1KiB/s)")
        }
        return TransferRate(bytesPerSecond: v)
    }
}

/// Blobbers a download reads from first (`--prefer 0,2`): their indices in the allocation, as
/// `--json` numbers them (`committed`, `failed`, `dropped`): 0 is the first `mosaic alloc show` lists.
struct BlobberPreference: OptionValue {
    let indices: [Int]
    static var valueName: String { "N[,N…]" }
    static func parse(_ text: String, option: String) throws -> BlobberPreference {
        var out: [Int] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let i = Int(part), (0..<ErasureCoder.maxTotalShards).contains(i) else {
                throw CLIError.usage(
                    "--\(option) \(text.prefix(80)): give blobber indices 0–\(ErasureCoder.maxTotalShards - 1) separated by commas, e.g. 0,2 (0 is the first blobber mosaic alloc show lists)"
                )
            }
            if !out.contains(i) { out.append(i) }
        }
        return BlobberPreference(indices: out)
    }
}

/// Where a devnet keeps its chain (`--db`): `sqlite` (the default) or `postgres` (a local server).
struct DevnetDatabaseOption: OptionValue {
    let database: Devnet.Database
    static var valueName: String { "sqlite|postgres" }
    static func parse(_ text: String, option: String) throws -> DevnetDatabaseOption {
        switch text {
        case "sqlite": return DevnetDatabaseOption(database: .sqlite)
        case "postgres", "postgresql": return DevnetDatabaseOption(database: .postgres)
        default:
            throw CLIError.usage(
                "--\(option) \(text.prefix(80)): give sqlite or postgres (a PostgreSQL server the devnet starts under its folder)")
        }
    }
}

/// Transactions on one page of `wallet txns`.
struct HistoryLimit: BoundedNumber {
    let value: Int
    static let range = 0...1000
    static var noun: String { "a whole number" }
}

/// How many of the newest items to skip.
struct PageOffset: BoundedNumber {
    let value: Int
    static let range = 0...Int(Int32.max)
    static var noun: String { "a whole number" }
}

/// Notes on one page of `notes list`.
struct NotesLimit: BoundedNumber {
    let value: Int
    static let range = 1...500
    static var noun: String { "a whole number" }
}

/// Posts or votes on one page of a social list.
struct SocialLimit: BoundedNumber {
    let value: Int
    static let range = 1...100
}

/// A computation limit for one contract call.
struct GasLimit: BoundedNumber {
    let value: UInt64
    static let range = 1...UInt64.max
    static func refusal(_ text: String, option: String) -> String { "--\(option) \(text): give a whole number of gas units, e.g. 5000" }
}

/// A note id or a round of the notes contract.
struct WholeNumber: BoundedNumber {
    let value: UInt64
    static let range = UInt64.min...UInt64.max
    static var noun: String { "a whole number" }
}

/// A ledger round to read social state at.
struct RoundNumber: BoundedNumber {
    let value: UInt64
    static let range = UInt64.min...UInt64.max
    static var noun: String { "a round number" }
}

/// A vote: 10000 full upvote, negative a downvote, 0 removes it.
struct VoteWeight: BoundedNumber {
    let value: Int
    static let range = -10_000...10_000
    static var valueName: String { "W" }
    static var noun: String { "a whole number" }
}

/// The status `wallet tx --wait` waits for.
struct WaitTarget: OptionValue {
    let status: TransactionStatus
    static var valueName: String { "STATUS" }
    static func parse(_ text: String, option: String) throws -> WaitTarget {
        guard let s = TransactionStatus(rawValue: text), s == .finalized || s == .sealed else {
            throw CLIError.usage("--\(option) \(text): use finalized or sealed")
        }
        return WaitTarget(status: s)
    }
}

extension SocialSort: OptionValue {
    static var valueName: String { "SORT" }
    static func parse(_ text: String, option: String) throws -> SocialSort {
        guard let sort = SocialSort(rawValue: text) else { throw CLIError.usage("--\(option) \(text): use trending, hot or created") }
        return sort
    }
}

extension SocialPostID: OptionValue {
    static var valueName: String { "AUTHOR/PERMLINK" }
    static func parse(_ text: String, option: String) throws -> SocialPostID { try SocialCommand.postID(text) }
}

/// `vote,comment`: the scopes of an app grant.
struct ScopeList: OptionValue {
    let scopes: [SocialScope]
    static var valueName: String { "LIST" }
    static func parse(_ text: String, option: String) throws -> ScopeList {
        switch SocialScope.parseList(text) {
        case .success(let s): return ScopeList(scopes: s)
        case .failure(let e): throw CLIError.usage("--\(option): \(e.description)")
        }
    }
}
