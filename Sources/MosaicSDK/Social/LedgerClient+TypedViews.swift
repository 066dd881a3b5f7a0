import MosaicHTTP
import MosaicProtocol

extension LedgerClient {
    /// A view answer decoded straight into `T` (no `JSONValue` in between, which costs about
    /// 15 µs a value to decode on Linux).
    struct TypedViewAnswer<T: Decodable & Sendable>: Decodable, Sendable {
        let round: UInt64
        let result: T
    }

    /// `view(contract:name:args:round:)` with the result decoded as `T`.
    func view<T: Decodable & Sendable>(
        contract: String, name: String, args: [String: JSONValue], round: UInt64?,
        as type: T.Type
    ) async throws(LedgerClientError) -> (round: UInt64, result: T) {
        let body = ContractViewRequest(args: args, round: round)
        let answer = try await call { http in
            try await http.post("/v1/contracts/\(contract)/views/\(name)", json: body, as: TypedViewAnswer<T>.self)
        }
        return (answer.round, answer.result)
    }
}
