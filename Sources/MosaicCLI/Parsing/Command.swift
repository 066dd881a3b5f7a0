/// A node of the command tree: either a group of subcommands or a runnable leaf.
struct Command: Sendable {
    typealias Action = @Sendable (Invocation) async throws -> CommandOutput

    let name: String
    let summary: String
    var usage: String = ""
    var discussion: String = ""
    var examples: [String] = []
    /// From the command's `CommandOptions` declarations; the only place options are named.
    private(set) var flags: [OptionSpec] = []
    /// Names of positional arguments, for help; `minArguments...maxArguments` are enforced.
    var arguments: [String] = []
    var minArguments = 0
    var maxArguments = 0
    var subcommands: [Command] = []
    private(set) var action: Action?
    /// Binds the options without running, so that the parser reports a bad value before anything runs.
    private(set) var validate: (@Sendable (ParsedWords) throws -> Void)?

    /// A group of subcommands (it runs nothing itself).
    init(name: String, summary: String, discussion: String = "", examples: [String] = [], subcommands: [Command]) {
        self.name = name
        self.summary = summary
        self.discussion = discussion
        self.examples = examples
        self.subcommands = subcommands
    }

    /// A runnable command whose options are the typed properties of `O`.
    init<O: CommandOptions>(
        name: String, summary: String, usage: String = "", discussion: String = "", examples: [String] = [],
        options: O.Type, arguments: [String] = [], minArguments: Int = 0, maxArguments: Int = 0,
        subcommands: [Command] = [], action: @escaping @Sendable (O, Invocation) async throws -> CommandOutput
    ) {
        self.name = name
        self.summary = summary
        self.usage = usage
        self.discussion = discussion
        self.examples = examples
        self.flags = O.flags
        self.arguments = arguments
        self.minArguments = minArguments
        self.maxArguments = maxArguments
        self.subcommands = subcommands
        self.action = { inv in try await action(try O.bind(inv.words), inv) }
        self.validate = { words in _ = try O.bind(words) }
    }

    /// A runnable command with no options of its own (the global ones still apply).
    init(
        name: String, summary: String, usage: String = "", discussion: String = "", examples: [String] = [],
        arguments: [String] = [], minArguments: Int = 0, maxArguments: Int = 0,
        action: @escaping @Sendable (Invocation) async throws -> CommandOutput
    ) {
        self.init(
            name: name, summary: summary, usage: usage, discussion: discussion, examples: examples, options: NoOptions.self,
            arguments: arguments, minArguments: minArguments, maxArguments: maxArguments
        ) { _, inv in try await action(inv) }
    }

    func subcommand(named name: String) -> Command? {
        subcommands.first { $0.name == name }
    }
}

/// A `--name` option as the parser and help see it; `takesValue` options read the next word or
/// `--name=value`. Commands never build these by hand: they come from `@Option`/`@Flag` declarations.
struct OptionSpec: Sendable, Hashable {
    let name: String
    let help: String
    var valueName: String? = nil
    var repeatable = false
    /// A one-letter alias of a toggle (`-r`).
    var short: Character? = nil

    var takesValue: Bool { valueName != nil }

    static func option(_ name: String, _ valueName: String, _ help: String, repeatable: Bool = false) -> OptionSpec {
        OptionSpec(name: name, help: help, valueName: valueName, repeatable: repeatable)
    }

    static func toggle(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, help: help)
    }
}

/// Options every command accepts.
struct GlobalOptions: CommandOptions {
    @Flag(help: "print one JSON object instead of text") var json: Bool
    @Option("home", "DIR", help: "Mosaic home folder (default $MOSAIC_HOME or ~/.mosaic)") var home: String?
    @Option("wallet", "NAME", help: "act for this wallet instead of the default one") var wallet: String?
    @Option("network", "NAME", help: "use this network from the config instead of the current one") var network: String?
    @Option("passphrase-file", "FILE", help: "read the wallet passphrase from FILE (or set MOSAIC_PASSPHRASE)")
    var passphraseFile: String?
    @Flag(help: "show help for the command") var help: Bool

    static let all: [OptionSpec] = flags
}
