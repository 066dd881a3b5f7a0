import Foundation
import MosaicHTTP
import MosaicHTTPServer
import MosaicLedger
import MosaicProtocol

/// Free reads of the storage contract (docs/NODE_API.md, storage section): what blobbers poll
/// (their open challenges, revoked tickets, redeemed read counters) and what clients show
/// (blobbers, allocations, the tokens an allocation must lock).
extension NodeServer {
    func registerStorageAPI() {
        let ledger = self.ledger

        http.route(
            .get, "/v1/storage/blobbers", summary: "Registered blobbers in registration order",
            response: "{\"blobbers\":[BlobberInfo…]}"
        ) { _ in
            let list = try NodeServer.storage(ledger) { s, v throws(ContractError) in try s.blobbers(v) }
            return try .json(BlobberList(blobbers: list))
        }

        storageRecord("/v1/storage/blobbers/:id", summary: "One blobber", id: NodeParameters.blobberID, response: "BlobberInfo") {
            s, v, id throws(ContractError) in
            try s.blobber(v, id: id)
        } missing: {
            "blobber \($0) is not registered"
        }

        storageRead(
            "/v1/storage/blobbers/:id/challenges", summary: "A blobber's open challenges, oldest first", NodeParameters.blobberID,
            response: "{\"challenges\":[Challenge…]}"
        ) { s, v, id throws(ContractError) in
            ChallengeList(challenges: try s.openChallenges(v, blobber: id))
        }

        storageRead(
            "/v1/storage/allocations", summary: "An owner's allocations, oldest first (every status)", NodeParameters.owner,
            response: "{\"allocations\":[Allocation…]}"
        ) { s, v, owner throws(ContractError) in
            AllocationList(allocations: try s.allocations(v, owner: owner))
        }

        storageRecord(
            "/v1/storage/allocations/:id", summary: "One allocation with its blobbers and counters", id: NodeParameters.allocationID,
            response: "Allocation"
        ) { s, v, id throws(ContractError) in
            try s.allocation(v, id: id)
        } missing: {
            "allocation \($0) does not exist"
        }

        storageRecord(
            "/v1/storage/challenges/:id", summary: "One challenge, open or closed", id: NodeParameters.challengeID, response: "Challenge"
        ) { s, v, id throws(ContractError) in
            try s.challenge(v, id: id)
        } missing: {
            "challenge \($0) does not exist"
        }

        http.route(
            .get, "/v1/storage/tickets/:id/revoked", summary: "Whether the owner revoked an auth ticket",
            parameters: [NodeParameters.ticketID, NodeParameters.owner],
            response: "{\"ticket_id\",\"owner\",\"revoked\"}"
        ) { req in
            let id = try req[NodeParameters.ticketID]
            let owner = try req[NodeParameters.owner]
            let revoked = try NodeServer.storage(ledger) { s, v throws(ContractError) in
                try s.isTicketRevoked(v, ticketID: id, owner: owner)
            }
            return try .json(TicketRevocationView(ticketID: id, owner: owner, revoked: revoked))
        }

        storageRead(
            "/v1/storage/read-pools/:client_id", summary: "Tokens a reader has locked to pay blobbers for reads", NodeParameters.clientID,
            response: "{\"client_id\",\"balance\"}"
        ) { s, v, id throws(ContractError) in
            ReadPoolView(clientID: id, balance: try s.readPool(v, clientID: id))
        }

        http.route(
            .get, "/v1/storage/read-counter", summary: "Highest redeemed read-marker counter",
            parameters: [NodeParameters.allocation, NodeParameters.blobber, NodeParameters.reader],
            response: "{\"counter\"}"
        ) { req in
            let a = try req[NodeParameters.allocation]
            let b = try req[NodeParameters.blobber]
            let r = try req[NodeParameters.reader]
            let c = try NodeServer.storage(ledger) { s, v throws(ContractError) in
                try s.readCounter(v, allocation: a, blobber: b, reader: r)
            }
            return try .json(ReadCounterView(counter: c))
        }

        http.route(
            .get, "/v1/storage/quote", summary: "Tokens a new allocation must lock (base units)",
            description: "Covers the d + p most expensive blobbers with room; 409 not_enough_blobbers when fewer than d + p have room.",
            parameters: [NodeParameters.size, NodeParameters.dataShards, NodeParameters.parityShards, NodeParameters.expire],
            response: "StorageQuoteView", errors: [409]
        ) { req in
            let size = try req[NodeParameters.size]
            let data = try req[NodeParameters.dataShards]
            let parity = try req[NodeParameters.parityShards]
            let seconds = try req[NodeParameters.expire]
            let quote = try NodeServer.storage(ledger) { s, v throws(ContractError) in
                try s.allocationQuote(v, dataShards: data, parityShards: parity, size: size, seconds: seconds)
            }
            guard let quote else {
                let count = (try? NodeServer.storage(ledger) { s, v throws(ContractError) in try s.blobbers(v).count }) ?? 0
                throw HTTPError(
                    status: 409, code: "not_enough_blobbers",
                    message: "not enough blobbers: \(data)+\(parity) shards need \(data + parity) blobbers with room, \(count) registered")
            }
            return try .json(StorageQuoteView(size: size, dataShards: data, parityShards: parity, seconds: seconds, lock: quote))
        }
    }

    /// A GET route answering a read of the storage contract that takes one parameter.
    private func storageRead<R: Encodable & Sendable>(
        _ path: String, summary: String, _ parameter: Parameter<String>, response: String,
        read: @escaping @Sendable (StorageContract, ContractView, String) throws(ContractError) -> R
    ) {
        let ledger = self.ledger
        http.route(.get, path, summary: summary, parameters: [parameter], response: response) { req in
            let p = try req[parameter]
            return try .json(try NodeServer.storage(ledger) { s, v throws(ContractError) in try read(s, v, p) })
        }
    }

    /// A GET route answering one record of the storage contract by its id, or 404 with `missing(id)`.
    private func storageRecord<R: Encodable & Sendable>(
        _ path: String, summary: String, id parameter: Parameter<String>, response: String,
        read: @escaping @Sendable (StorageContract, ContractView, String) throws(ContractError) -> R?,
        missing: @escaping @Sendable (String) -> String
    ) {
        let ledger = self.ledger
        http.route(.get, path, summary: summary, parameters: [parameter], response: response, errors: [404]) { req in
            let id = try req[parameter]
            guard let record = try NodeServer.storage(ledger, { s, v throws(ContractError) in try read(s, v, id) }) else {
                throw HTTPError.notFound(missing(id))
            }
            return try .json(record)
        }
    }

    /// Runs a typed view of the storage contract (StorageContract+Views.swift) at the latest
    /// committed round; a chain without the storage contract answers 404.
    static func storage<R>(_ ledger: Ledger, _ body: (StorageContract, ContractView) throws(ContractError) -> R) throws(HTTPError) -> R {
        try NodeServer.mapped { () throws(LedgerError) in try ledger.read("storage", as: StorageContract.self, body) }
    }
}
