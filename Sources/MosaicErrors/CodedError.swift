/// An error that keeps a stable machine-readable code from where it is raised to the user: a
/// contract's refusal in a receipt, a server's `{"error":{"code","message"}}` body, the CLI's
/// `--json` error and exit code, the app's JSON errors. Callers decide on `code`, never on the
/// message text, so messages can be reworded without breaking anyone.
public protocol CodedError: Error, CustomStringConvertible {
    /// Stable snake_case code; a code per meaning, not per place it is raised.
    var code: String { get }
    /// What went wrong and, where there is one, what to do about it; for a person.
    var message: String { get }
}

extension CodedError {
    public var message: String { description }
}

/// The code of any error: its own when it has one, else `fallback` (an error from outside
/// Mosaic, such as Foundation's).
public func errorCode(of error: any Error, fallback: String = "failed") -> String {
    (error as? any CodedError)?.code ?? fallback
}
