import Foundation
import MosaicHTTP
import MosaicHTTPServer
import MosaicProtocol
import MosaicSDK
import MosaicStorageCore

/// The web app's path and query parameters, declared once: the server checks them before the
/// route runs (a 400 naming the parameter, its bounds and what to send) and `/openapi.json`
/// publishes them.
enum AppParameters {
    static let transactionHash = Path.string("hash", .hex64, "transaction hash (64 hex)")
    static let allocationID = Path.string("id", .hex64, "allocation id (64 hex)")
    static let noteID = Path.integer("id", in: UInt64(1)...UInt64(Int64.max), "note id")
    static let ticket = Path.string("ticket", .string(maxLength: 8192), "the share link's ticket")

    static let limit = Query.integer("limit", in: 1...100, default: 20, "page size")
    static let offset = Query.integer("offset", in: 0...Int(Int32.max), default: 0, "transactions to skip")
    static let until = Query.choice("until", [TransactionStatus.pending, .finalized, .sealed], default: .sealed, "the status to wait for")
    static let timeout = Query.integer("timeout", in: 1...60, default: 30, "seconds to wait")
    static let qrText = Query.requiredString("text", .string(maxLength: 512), "the text to encode (at most 512 bytes)")

    /// An allocation id; without it the wallet's only active allocation is used.
    static let alloc = Query.string("alloc", .hex64, "allocation id (64 hex); default: the wallet's only active allocation")
    static let folder = Query.string("path", .string(maxLength: RemotePath.maxBytes), default: "/", "remote folder")
    static let file = Query.requiredString("path", .string(maxLength: RemotePath.maxBytes), "remote path of the file")
    static let replace = Query.boolean("replace", "true (or 1) to replace an existing file")
    static let lockerName = Query.string("name", .string(maxLength: 255), default: "", "the locker file's name")
    static let lockerPIN = Header.string("X-Locker-PIN", .string(maxLength: 1024), "the PIN, percent-encoded UTF-8")
    static let lockerPINRepeat = Header.string("X-Locker-PIN-Repeat", .string(maxLength: 1024), "the PIN again")

    static let quoteSize = Query.string("size", .string(maxLength: 32), default: "1GiB", "a size such as 500MiB or 1GiB")
    static let quoteData = Query.integer("data", in: 1...AllocationTerms.maxShards, default: 2, "data shards")
    static let quoteParity = Query.integer("parity", in: 0...AllocationTerms.maxShards, default: 2, "parity shards")
    static let quoteExpire = Query.string("expire", .string(maxLength: 32), default: "30d", "a duration such as 7d or 30d")

    static let notesLimit = Query.integer("limit", in: 1...500, default: 100, "notes per page")
    static let after = Query.integer("after", in: UInt64(0)...UInt64(Int64.max), "the last note id of the previous page")
    static let round = Query.integer("round", in: UInt64(0)...UInt64(Int64.max), "the round of the first page, so pages do not shift")

    static let sort = Query.choice("sort", SocialSort.allCases, default: .trending, "the feed")
    static let tag = Query.string("tag", .string(maxLength: 25), "only posts with this tag (1–24 of a-z, 0-9, -)")
    static let feedLimit = Query.integer("limit", in: 1...SocialRules.maxFeedLimit, default: 20, "posts per page")
    static let start = Query.string(
        "start", .string(maxLength: SocialPostID.maxTextBytes), "the `next` of the previous page (AUTHOR/PERMLINK)")
    static let postID = Query.requiredString("id", .string(maxLength: SocialPostID.maxTextBytes), "the post id: AUTHOR/PERMLINK")
    static let socialAccount = Query.requiredString("account", .string(maxLength: 64), "a profile name or client id")
}
