import MosaicHTTP
import MosaicProtocol

extension LedgerClient {
    /// Runs a contract view: free and unsigned, answered from the latest sealed round unless
    /// `round` is given.
    /// - Parameters:
    ///   - contract: the contract's name, e.g. "notes".
    ///   - name: the view's name.
    ///   - args: the view's arguments.
    ///   - round: a past round to read at; nil for the latest sealed one.
    /// - Returns: the round read and the view's JSON result.
    /// - Throws: `LedgerClientError`; `.rejected` when the contract refuses the arguments, `.notFound`
    ///   for an unknown contract or view.
    public func view(contract: String, name: String, args: [String: JSONValue] = [:], round: UInt64? = nil) async throws(LedgerClientError)
        -> ContractViewResult
    {
        let body = ContractViewRequest(args: args, round: round)
        return try await call { http in
            try await http.post("/v1/contracts/\(contract)/views/\(name)", json: body, as: ContractViewResult.self)
        }
    }
}
