import Foundation
import MosaicHTTP
import MosaicHTTPServer
import MosaicLedger
import MosaicProtocol

/// The node's path and query parameters, declared once: the server checks them (a bad value is a
/// 400 `malformed` naming the parameter and its bounds) and `/openapi.json` publishes them.
enum NodeParameters {
    /// Transactions one page may skip; deeper pages are refused rather than scanned.
    static let maxOffset = Int(Int32.max)

    static let transactionHash = Path.string("hash", .hex64, "transaction hash (64 hex)")
    static let clientID = Path.string("client_id", .hex64, "account id (64 hex)")
    static let blobberID = Path.string("id", .hex64, "blobber id (64 hex)")
    static let allocationID = Path.string("id", .hex64, "allocation id (64 hex, the new_allocation transaction hash)")
    static let challengeID = Path.string("id", .hex64, "challenge id (64 hex)")
    static let ticketID = Path.string("id", .hex64, "ticket id (64 hex)")
    static let block = Parameter<BlockReference>(
        ParameterSpec(name: "id", location: .path, type: .either(.round, .hex64), required: true, description: "round number or block hash")
    ) {
        switch $0 {
        case .integer(let r)?: return UInt64(exactly: r).map(BlockReference.round)
        case .string(let h)?: return .hash(h)
        default: return nil
        }
    }

    static let wait = Query.choice(
        "wait", [TransactionStatus.pending, .finalized, .sealed],
        "answer as soon as this status (or a later one) is reached")
    static let timeout = Query.number(
        "timeout", in: 0...NodeServer.maxWaitSeconds, default: 30,
        "seconds to wait with `wait` (at most 60); on timeout the current status is returned")
    static let historyLimit = Query.integer("limit", in: 0...1000, default: 20, "page size")
    static let offset = Query.integer("offset", in: 0...maxOffset, default: 0, "transactions to skip")
    static let blocksLimit = Query.integer("limit", in: 0...100, default: 20, "at most this many blocks")
    static let before = Query.integer("before", in: UInt64(0)...UInt64(Int64.max), "only blocks below this round")
    static let roundRange: ClosedRange<Int64> = 0...Int64.max
    static let round = Query.integer("round", in: UInt64(0)...UInt64(Int64.max), "round to read (default: the latest sealed)")
    static let owner = Query.requiredString("owner", .hex64, "owner client id (64 hex)")
    static let allocation = Query.requiredString("allocation", .hex64, "allocation id (64 hex)")
    static let blobber = Query.requiredString("blobber", .hex64, "blobber id (64 hex)")
    static let reader = Query.requiredString("reader", .hex64, "reader client id (64 hex)")
    static let size = Query.requiredInteger("size", in: UInt64(1)...UInt64(Int64.max), "allocation size in bytes")
    static let dataShards = Query.requiredInteger("data", in: 1...64, "data shards")
    static let parityShards = Query.integer("parity", in: 0...64, default: 0, "parity shards")
    static let expire = Query.requiredInteger("expire", in: UInt64(0)...UInt64(Int64.max), "seconds from now until the allocation expires")
    static let search = Query.string("q", .string(maxLength: 256), default: "", "transaction hash, block round or hash, or client id")
}

/// A block named by its round or its hash.
enum BlockReference: Sendable {
    case round(UInt64)
    case hash(String)
}
