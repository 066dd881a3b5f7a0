import Foundation
import MosaicHTTP
import MosaicHTTPServer
import MosaicLedger
import MosaicProtocol

/// Contract views: free, unsigned reads of a contract's state at the latest sealed round or a
/// given one (docs/NODE_API.md, "Contract views"). Answers are cached per round (`ViewAnswerCache`).
extension NodeServer {
    func registerViewAPI() {
        let ledger = self.ledger
        let cache = ViewAnswerCache()

        /// The answer of `view` at `round` (default: latest sealed), from the cache when this round
        /// already answered the same arguments.
        @Sendable func answer(_ contract: String, _ view: String, _ args: [String: JSONValue], _ round: UInt64?) throws -> HTTPResponse {
            let target = round ?? ledger.sealedRound
            let key = ViewAnswerCache.key(contract: contract, view: view, args: JSONValue.object(JSONObject(args)).jsonData, round: target)
            if let body = cache.answer(key) { return HTTPResponse(status: 200, body: body, contentType: "application/json") }
            let result = try NodeServer.mapped { () throws(LedgerError) in
                try ledger.view(contract: contract, name: view, args: args, round: target)
            }
            let body = result.jsonData
            cache.store(key, round: target, answer: body)
            return HTTPResponse(status: 200, body: body, contentType: "application/json")
        }

        http.route(
            .post, "/v1/contracts/:contract/views/:view", summary: "Run a contract view (free, unsigned)",
            description:
                "Body {\"args\":{…},\"round\":N}; round defaults to the latest sealed round. 404 for an unknown contract, view or round; 400 with the contract's message for bad args.",
            parameters: [NodeServer.contractName, NodeServer.viewName],
            body: .json(
                .object(
                    [("args", .object([], required: [], additional: true)), ("round", .integer(NodeParameters.roundRange))],
                    required: []), required: false),
            response: "ContractViewResult", errors: [404]
        ) { req in
            let contract = try req[NodeServer.contractName]
            let view = try req[NodeServer.viewName]
            let body: ContractViewRequest = req.body.isEmpty ? ContractViewRequest() : try NodeServer.decodeView(req)
            if let round = body.round, round > UInt64(Int64.max) {
                throw HTTPError.badRequest("round must be from 0 to \(Int64.max); got \(round)", code: "malformed")
            }
            return try answer(contract, view, body.args, body.round)
        }

        http.route(
            .get, "/v1/contracts/:contract/views/:view", summary: "Run a contract view with string arguments",
            description: "Every query parameter except round becomes a string argument.",
            parameters: [NodeServer.contractName, NodeServer.viewName, NodeParameters.round],
            response: "ContractViewResult", errors: [404]
        ) { req in
            let contract = try req[NodeServer.contractName]
            let view = try req[NodeServer.viewName]
            var args: [String: JSONValue] = [:]
            for (k, v) in req.query where k != "round" { args[k] = .string(v) }
            return try answer(contract, view, args, try req[NodeParameters.round])
        }
    }

    static let contractName = Path.string(
        "contract", .string(maxLength: 64, pattern: "^[a-z][a-z0-9_]*$", hint: "a contract name (a-z, 0-9, _)"),
        "contract name")
    static let viewName = Path.string(
        "view", .string(maxLength: 64, pattern: "^[a-z][a-z0-9_]*$", hint: "a view name (a-z, 0-9, _)"), "view name")

    static func decodeView(_ req: HTTPRequest) throws -> ContractViewRequest {
        do { return try req.decodeJSON(ContractViewRequest.self) } catch let e as HTTPError where e.code == "invalid_json" {
            throw HTTPError.badRequest("the body must be {\"args\":{…},\"round\":N}: \(e.message)", code: "malformed")
        }
    }
}
