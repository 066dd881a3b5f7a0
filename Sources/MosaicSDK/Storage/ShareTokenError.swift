/// Why a share string cannot be used.
public enum ShareTokenError: Error, Equatable, Sendable, CustomStringConvertible {
    case malformed(String)
    case notForThisWallet(recipient: String)

    public var description: String {
        switch self {
        case .malformed(let why): return why
        case .notForThisWallet(let r):
            return "this ticket was shared with \(r), not with this wallet; download with that wallet (--wallet NAME)"
        }
    }
}
