/// What a command produced: text for people, and the same facts as JSON for scripts.
struct CommandOutput: Sendable {
    var text: String
    var json: JSONValue

    init(text: String, json: JSONValue) {
        self.text = text
        self.json = json
    }
}

/// Errors the command line reports: usage mistakes exit with 2, failures with 1.
enum CLIError: Error, CustomStringConvertible {
    case usage(String)
    case failure(String)

    var description: String {
        switch self {
        case let .usage(m), let .failure(m): return m
        }
    }

    var exitCode: Int32 {
        switch self {
        case .usage: return 2
        case .failure: return 1
        }
    }

    var code: String {
        switch self {
        case .usage: return "usage"
        case .failure: return "failed"
        }
    }
}
