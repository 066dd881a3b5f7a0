import MosaicErrors

/// Why one blobber (a sink, a source) failed a step: the error's stable code, which callers
/// decide on, and its message, which they show.
public struct SinkFailure: Sendable, Equatable, CustomStringConvertible {
    public var code: String
    public var message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    /// The error's code (`failed` for one without) and its text.
    public init(_ error: any Error) {
        self.init(code: errorCode(of: error), message: "\(error)")
    }

    public var description: String { message }
}
