import MosaicErrors
import MosaicProtocol

/// Why a contract call failed in execution; recorded as the transaction's error, code and message.
public enum ContractError: CodedError, Sendable, Equatable {
    case outOfGas(limit: UInt64)
    case invalidArguments(String)
    case unknownMethod(contract: String, method: String)
    case unknownView(contract: String, view: String)
    case insufficientFunds(needed: UInt64, available: UInt64)
    /// A rule of the contract refused the call: `reason` says which kind of rule (the receipt's
    /// code), the message says what and until when.
    case refused(ExecutionError.Code, String)

    /// The receipt's code.
    public var reason: ExecutionError.Code {
        switch self {
        case .outOfGas: return .outOfGas
        case .invalidArguments: return .invalidArgument
        case .unknownMethod: return .unknownMethod
        case .unknownView: return .unknownView
        case .insufficientFunds: return .insufficientBalance
        case .refused(let code, _): return code
        }
    }

    public var code: String { reason.rawValue }

    /// What the receipt records.
    public var executionError: ExecutionError { ExecutionError(reason, description) }

    public var description: String {
        switch self {
        case .outOfGas(let limit): return "out of gas (limit \(limit))"
        case .invalidArguments(let why): return "invalid arguments: \(why)"
        case .unknownMethod(let contract, let method): return "contract \(contract) has no method \(method)"
        case .unknownView(let contract, let view): return "contract \(contract) has no view \(view)"
        case .insufficientFunds(let needed, let available):
            return "contract has \(TokenAmount(baseUnits: available)) but needs \(TokenAmount(baseUnits: needed))"
        case .refused(_, let message): return message
        }
    }
}
