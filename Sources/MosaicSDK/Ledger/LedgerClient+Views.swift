import MosaicHTTP
import MosaicProtocol

extension LedgerClient {
    /// Runs a contract view: free and unsigned, answered from the latest sealed round unless
    /// `round` is given.
    public func view(contract: String, name: String, args: [String: JSONValue] = [:], round: UInt64? = nil) async throws(LedgerClientError)
        -> ContractViewResult
    {
        let body = ContractViewRequest(args: args, round: round)
        return try await call {
            try await http.post("/v1/contracts/\(contract)/views/\(name)", json: body, as: ContractViewResult.self)
        }
    }
}
