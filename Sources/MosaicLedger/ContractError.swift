import MosaicProtocol

/// Why a contract call failed in execution; recorded as the transaction's error.
public enum ContractError: Error, Sendable, Equatable, CustomStringConvertible {
    case outOfGas(limit: UInt64)
    case invalidArguments(String)
    case unknownMethod(contract: String, method: String)
    case unknownView(contract: String, view: String)
    case insufficientFunds(needed: UInt64, available: UInt64)
    /// A rule of the contract refused the call; the message says what and until when.
    case refused(String)

    public var description: String {
        switch self {
        case .outOfGas(let limit): return "out of gas (limit \(limit))"
        case .invalidArguments(let why): return "invalid arguments: \(why)"
        case .unknownMethod(let contract, let method): return "contract \(contract) has no method \(method)"
        case .unknownView(let contract, let view): return "contract \(contract) has no view \(view)"
        case .insufficientFunds(let needed, let available):
            return "contract has \(TokenAmount(baseUnits: available)) but needs \(TokenAmount(baseUnits: needed))"
        case .refused(let message): return message
        }
    }
}
