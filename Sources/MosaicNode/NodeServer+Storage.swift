import Foundation
import MosaicHTTP
import MosaicLedger
import MosaicProtocol

/// Free reads of the storage contract (docs/NODE_API.md, storage section): what blobbers poll
/// (their open challenges, revoked tickets, redeemed read counters) and what clients show
/// (blobbers, allocations, the tokens an allocation must lock).
extension NodeServer {
    func registerStorageAPI() {
        let ledger = self.ledger

        http.route(.get, "/v1/storage/blobbers", summary: "Registered blobbers in registration order",
                   response: "{\"blobbers\":[BlobberInfo…]}") { _ in
            let list = try NodeServer.mapped { () throws(LedgerError) in try ledger.storageBlobbers() }
            return try .json(BlobberList(blobbers: list))
        }

        http.route(.get, "/v1/storage/blobbers/:id", summary: "One blobber",
                   params: ["id": "blobber id (64 hex)"], response: "BlobberInfo") { req in
            let id = try NodeServer.hexParam(req, "id")
            guard let b = try NodeServer.mapped({ () throws(LedgerError) in try ledger.storageBlobber(id) }) else {
                throw HTTPError.notFound("blobber \(id) is not registered")
            }
            return try .json(b)
        }

        http.route(.get, "/v1/storage/blobbers/:id/challenges", summary: "A blobber's open challenges, oldest first",
                   params: ["id": "blobber id (64 hex)"], response: "{\"challenges\":[Challenge…]}") { req in
            let id = try NodeServer.hexParam(req, "id")
            let list = try NodeServer.mapped { () throws(LedgerError) in try ledger.storageOpenChallenges(blobber: id) }
            return try .json(ChallengeList(challenges: list))
        }

        http.route(.get, "/v1/storage/allocations", summary: "An owner's allocations, oldest first (every status)",
                   query: ["owner": "owner client id (64 hex)"], response: "{\"allocations\":[Allocation…]}") { req in
            let owner = try NodeServer.hexQuery(req, "owner")
            let list = try NodeServer.mapped { () throws(LedgerError) in try ledger.storageAllocations(owner: owner) }
            return try .json(AllocationList(allocations: list))
        }

        http.route(.get, "/v1/storage/allocations/:id", summary: "One allocation with its blobbers and counters",
                   params: ["id": "allocation id (64 hex, the new_allocation transaction hash)"], response: "Allocation") { req in
            let id = try NodeServer.hexParam(req, "id")
            guard let a = try NodeServer.mapped({ () throws(LedgerError) in try ledger.storageAllocation(id) }) else {
                throw HTTPError.notFound("allocation \(id) does not exist")
            }
            return try .json(a)
        }

        http.route(.get, "/v1/storage/challenges/:id", summary: "One challenge, open or closed",
                   params: ["id": "challenge id (64 hex)"], response: "Challenge") { req in
            let id = try NodeServer.hexParam(req, "id")
            guard let c = try NodeServer.mapped({ () throws(LedgerError) in try ledger.storageChallenge(id) }) else {
                throw HTTPError.notFound("challenge \(id) does not exist")
            }
            return try .json(c)
        }

        http.route(.get, "/v1/storage/tickets/:id/revoked", summary: "Whether the owner revoked an auth ticket",
                   params: ["id": "ticket id (64 hex)"], query: ["owner": "the ticket owner's client id"],
                   response: "{\"ticket_id\",\"owner\",\"revoked\"}") { req in
            let id = try NodeServer.hexParam(req, "id")
            let owner = try NodeServer.hexQuery(req, "owner")
            let revoked = try NodeServer.mapped { () throws(LedgerError) in try ledger.isTicketRevoked(id, owner: owner) }
            return try .json(TicketRevocationView(ticketID: id, owner: owner, revoked: revoked))
        }

        http.route(.get, "/v1/storage/read-pools/:client_id", summary: "Tokens a reader has locked to pay blobbers for reads",
                   params: ["client_id": "reader client id"], response: "{\"client_id\",\"balance\"}") { req in
            let id = try NodeServer.clientID(req)
            let pool = try NodeServer.mapped { () throws(LedgerError) in try ledger.storageReadPool(id) }
            return try .json(ReadPoolView(clientID: id, balance: pool))
        }

        http.route(.get, "/v1/storage/read-counter", summary: "Highest redeemed read-marker counter",
                   query: ["allocation": "allocation id", "blobber": "blobber id", "reader": "reader client id"],
                   response: "{\"counter\"}") { req in
            let a = try NodeServer.hexQuery(req, "allocation")
            let b = try NodeServer.hexQuery(req, "blobber")
            let r = try NodeServer.hexQuery(req, "reader")
            let c = try NodeServer.mapped { () throws(LedgerError) in try ledger.storageReadCounter(allocation: a, blobber: b, reader: r) }
            return try .json(ReadCounterView(counter: c))
        }

        http.route(.get, "/v1/storage/quote", summary: "Tokens a new allocation must lock (base units)",
                   description: "Covers the d + p most expensive blobbers with room; 409 not_enough_blobbers when fewer than d + p have room.",
                   query: ["size": "bytes", "data": "data shards", "parity": "parity shards", "expire": "seconds from now"],
                   response: "StorageQuoteView") { req in
            let size = try NodeServer.unsigned(req.query["size"], name: "size")
            let data = try NodeServer.integer(req.query["data"], name: "data", default: -1, range: 1...64)
            let parity = try NodeServer.integer(req.query["parity"], name: "parity", default: 0, range: 0...64)
            let seconds = try NodeServer.unsigned(req.query["expire"], name: "expire")
            guard size > 0 else { throw HTTPError.badRequest("size must be positive", code: "malformed") }
            let quote = try NodeServer.mapped { () throws(LedgerError) in
                try ledger.storageAllocationQuote(dataShards: data, parityShards: parity, size: size, seconds: seconds)
            }
            guard let quote else {
                let count = (try? ledger.storageBlobbers().count) ?? 0
                throw HTTPError(status: 409, code: "not_enough_blobbers",
                                message: "not enough blobbers: \(data)+\(parity) shards need \(data + parity) blobbers with room, \(count) registered")
            }
            return try .json(StorageQuoteView(size: size, dataShards: data, parityShards: parity, seconds: seconds, lock: quote))
        }
    }

    static func hexParam(_ req: HTTPRequest, _ name: String) throws -> String {
        let v = try req.param(name)
        guard Transaction.isHexID(v) else {
            throw HTTPError.badRequest("\(name) must be 64 lowercase hex characters; got \"\(v.prefix(80))\"", code: "malformed")
        }
        return v
    }

    static func hexQuery(_ req: HTTPRequest, _ name: String) throws -> String {
        guard let v = req.query[name], !v.isEmpty else { throw HTTPError.badRequest("missing query parameter \(name)", code: "malformed") }
        guard Transaction.isHexID(v) else {
            throw HTTPError.badRequest("\(name) must be 64 lowercase hex characters; got \"\(v.prefix(80))\"", code: "malformed")
        }
        return v
    }

    static func unsigned(_ text: String?, name: String) throws -> UInt64 {
        guard let text, let v = UInt64(text) else {
            throw HTTPError.badRequest("\(name) must be a non-negative integer; got \"\((text ?? "").prefix(40))\"", code: "malformed")
        }
        return v
    }
}
