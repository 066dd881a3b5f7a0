/// A node of the command tree: either a group of subcommands or a runnable leaf.
struct Command: Sendable {
    typealias Action = @Sendable (Invocation) async throws -> CommandOutput

    let name: String
    let summary: String
    var usage: String = ""
    var discussion: String = ""
    var examples: [String] = []
    var flags: [Flag] = []
    /// Names of positional arguments, for help; `minArguments...maxArguments` are enforced.
    var arguments: [String] = []
    var minArguments = 0
    var maxArguments = 0
    var subcommands: [Command] = []
    var action: Action?

    func subcommand(named name: String) -> Command? {
        subcommands.first { $0.name == name }
    }
}

/// A `--name` option; `takesValue` options read the next word or `--name=value`.
struct Flag: Sendable, Hashable {
    let name: String
    let help: String
    var valueName: String? = nil
    var repeatable = false

    var takesValue: Bool { valueName != nil }

    static func option(_ name: String, _ valueName: String, _ help: String, repeatable: Bool = false) -> Flag {
        Flag(name: name, help: help, valueName: valueName, repeatable: repeatable)
    }

    static func toggle(_ name: String, _ help: String) -> Flag {
        Flag(name: name, help: help)
    }
}

/// Flags every command accepts.
enum GlobalFlags {
    static let all: [Flag] = [
        .toggle("json", "print one JSON object instead of text"),
        .option("home", "DIR", "Mosaic home folder (default $MOSAIC_HOME or ~/.mosaic)"),
        .option("wallet", "NAME", "act for this wallet instead of the default one"),
        .option("network", "NAME", "use this network from the config instead of the current one"),
        .option("passphrase-file", "FILE", "read the wallet passphrase from FILE (or set MOSAIC_PASSPHRASE)"),
        .toggle("help", "show help for the command"),
    ]
}
