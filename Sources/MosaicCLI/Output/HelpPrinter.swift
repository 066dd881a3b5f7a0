/// Help text for the command tree: `mosaic --help` and `mosaic help COMMAND`.
enum HelpPrinter {
    static func help(for path: [String], root: Command) throws -> String {
        var command = root
        for word in path {
            guard let sub = command.subcommand(named: word) else {
                let hint = Suggestion.nearest(to: word, in: command.subcommands.map(\.name)).map { "; did you mean '\($0)'?" } ?? ""
                throw CLIError.usage("no help for unknown command '\(word)'\(hint)")
            }
            command = sub
        }
        let full = (["mosaic"] + path).joined(separator: " ")
        var out = path.isEmpty ? "mosaic — \(root.summary)\n" : "\(full) — \(command.summary)\n"
        if command.action != nil {
            out += "\nUsage: \(full)\(command.usage.isEmpty ? "" : " " + command.usage) [flags]\n"
        } else {
            out += "\nUsage: \(full) COMMAND [flags]\n"
        }
        if !command.discussion.isEmpty { out += "\n\(command.discussion)\n" }
        if !command.subcommands.isEmpty {
            out += "\nCommands:\n"
            let width = command.subcommands.map(\.name.count).max() ?? 0
            for sub in command.subcommands {
                out += "  \(sub.name)\(String(repeating: " ", count: width - sub.name.count))  \(sub.summary)\n"
            }
        }
        if !command.flags.isEmpty {
            out += "\nFlags:\n" + flagLines(command.flags)
        }
        out += "\nGlobal flags:\n" + flagLines(GlobalOptions.all)
        if !command.examples.isEmpty {
            out += "\nExamples:\n" + command.examples.map { "  \($0)" }.joined(separator: "\n") + "\n"
        }
        if !command.subcommands.isEmpty {
            out += "\nRun '\(full) COMMAND --help' for more about a command.\n"
        }
        return out
    }

    private static func flagLines(_ flags: [OptionSpec]) -> String {
        let labels = flags.map { ($0.short.map { "-\($0), " } ?? "") + "--\($0.name)" + ($0.valueName.map { " \($0)" } ?? "") }
        let width = labels.map(\.count).max() ?? 0
        return zip(labels, flags).map { label, flag in
            "  \(label)\(String(repeating: " ", count: width - label.count))  \(flag.help)"
        }.joined(separator: "\n") + "\n"
    }
}
