import MosaicErrors
import MosaicProtocol

/// What a command produced: text for people, and the same facts as JSON for scripts.
struct CommandOutput: Sendable {
    var text: String
    var json: JSONValue
    /// True when the command printed everything itself while it ran (servers).
    var alreadyPrinted = false
    /// The process exit code after the output is printed: a folder transfer that printed its
    /// summary but had failed files exits 1.
    var exitCode: Int32 = 0

    init(text: String, json: JSONValue) {
        self.text = text
        self.json = json
    }

    /// For long-running commands that print their own lines as they go.
    static let printed: CommandOutput = {
        var o = CommandOutput(text: "", json: .null)
        o.alreadyPrinted = true
        return o
    }()
}

/// Errors the command line reports: usage mistakes exit with 2, failures with 1. A failure that
/// explains an SDK error keeps that error's code (`coded`), so `--json` shows the real cause.
enum CLIError: CodedError, CustomStringConvertible {
    case usage(String)
    case failure(String)
    case coded(code: String, message: String)

    var description: String {
        switch self {
        case .usage(let m), .failure(let m), .coded(_, let m): return m
        }
    }

    var exitCode: Int32 {
        switch self {
        case .usage: return 2
        case .failure, .coded: return 1
        }
    }

    var code: String {
        switch self {
        case .usage: return "usage"
        case .failure: return "failed"
        case .coded(let code, _): return code
        }
    }
}
