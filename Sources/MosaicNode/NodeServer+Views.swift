import Foundation
import MosaicHTTP
import MosaicLedger
import MosaicProtocol

/// Contract views: free, unsigned reads of a contract's state at the latest sealed round or a
/// given one (docs/NODE_API.md, "Contract views").
extension NodeServer {
    func registerViewAPI() {
        let ledger = self.ledger

        http.route(.post, "/v1/contracts/:contract/views/:view", summary: "Run a contract view (free, unsigned)",
                   description: "Body {\"args\":{…},\"round\":N}; round defaults to the latest sealed round. 404 for an unknown contract, view or round; 400 with the contract's message for bad args.",
                   params: ["contract": "contract name", "view": "view name"],
                   request: "ContractViewRequest", response: "ContractViewResult") { req in
            let contract = try req.param("contract"), view = try req.param("view")
            let body: ContractViewRequest = req.body.isEmpty ? ContractViewRequest() : try NodeServer.decodeView(req)
            let result = try NodeServer.mapped { () throws(LedgerError) in
                try ledger.view(contract: contract, name: view, args: body.args, round: body.round)
            }
            return HTTPResponse(status: 200, body: result.jsonData, contentType: "application/json")
        }

        http.route(.get, "/v1/contracts/:contract/views/:view", summary: "Run a contract view with string arguments",
                   description: "Every query parameter except round becomes a string argument.",
                   params: ["contract": "contract name", "view": "view name"],
                   query: ["round": "round to read (default: latest sealed)"], response: "ContractViewResult") { req in
            let contract = try req.param("contract"), view = try req.param("view")
            var args: [String: JSONValue] = [:]
            for (k, v) in req.query where k != "round" { args[k] = .string(v) }
            var round: UInt64?
            if let r = req.query["round"] {
                guard let n = UInt64(r) else { throw HTTPError.badRequest("round must be a whole number; got \"\(r.prefix(40))\"", code: "malformed") }
                round = n
            }
            let result = try NodeServer.mapped { () throws(LedgerError) in
                try ledger.view(contract: contract, name: view, args: args, round: round)
            }
            return HTTPResponse(status: 200, body: result.jsonData, contentType: "application/json")
        }
    }

    static func decodeView(_ req: HTTPRequest) throws -> ContractViewRequest {
        do { return try req.decodeJSON(ContractViewRequest.self) } catch let e as HTTPError where e.code == "invalid_json" {
            throw HTTPError.badRequest("the body must be {\"args\":{…},\"round\":N}: \(e.message)", code: "malformed")
        }
    }
}
