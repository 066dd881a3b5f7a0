/// Parses `mosaic` arguments against the command tree; every mistake becomes a usage error
/// that names the problem and the nearest valid spelling.
struct ArgumentParser {
    let root: Command

    enum Result {
        case run(Command, Invocation)
        case help([String])
    }

    func parse(_ args: [String], environment: [String: String]) throws -> Result {
        var path: [String] = []
        var command = root
        var rest = args[...]

        // Walk down the subcommands; global flags may appear anywhere.
        var pending: [String] = []
        while let word = rest.first, !command.subcommands.isEmpty {
            if word.hasPrefix("-") {
                pending.append(word)
                rest = rest.dropFirst()
                // A command that runs and also has subcommands (`mosaic devnet`, `mosaic devnet time …`)
                // may take its own valued flags before a subcommand word.
                let known = command.action != nil ? GlobalOptions.all + command.flags : GlobalOptions.all
                if let flag = known.first(where: { "--\($0.name)" == word }), flag.takesValue, let v = rest.first {
                    pending.append(v)
                    rest = rest.dropFirst()
                }
                continue
            }
            if word == "help" && path.isEmpty {
                return .help(Array(rest.dropFirst()))
            }
            if command.action != nil && command.subcommand(named: word) == nil { break }
            guard let sub = command.subcommand(named: word) else {
                let names = command.subcommands.map(\.name)
                let hint = Suggestion.nearest(to: word, in: names).map { "; did you mean '\($0)'?" } ?? ""
                let scope = path.isEmpty ? "mosaic" : "mosaic \(path.joined(separator: " "))"
                throw CLIError.usage("unknown command '\(word)' for '\(scope)'\(hint) (see '\(scope) --help')")
            }
            path.append(word)
            command = sub
            rest = rest.dropFirst()
        }
        let words = pending + Array(rest)
        if words.contains("--help") || words.contains("-h") { return .help(path) }
        if command.action == nil {
            if path.isEmpty { return .help([]) }
            let names = command.subcommands.map(\.name).joined(separator: ", ")
            throw CLIError.usage("'mosaic \(path.joined(separator: " "))' needs a subcommand: \(names)")
        }

        let flags = command.flags + GlobalOptions.all
        var values: [String: [String]] = [:]
        var toggles: Set<String> = []
        var positional: [String] = []
        var i = 0
        var onlyPositional = false
        while i < words.count {
            let word = words[i]
            i += 1
            if onlyPositional || !word.hasPrefix("--") || word == "-" {
                if word == "--" && !onlyPositional {
                    onlyPositional = true
                    continue
                }
                if !onlyPositional, word.count == 2, word.hasPrefix("-"), let letter = word.last,
                    let flag = flags.first(where: { $0.short == letter && !$0.takesValue })
                {
                    toggles.insert(flag.name)
                    continue
                }
                if !onlyPositional && word.hasPrefix("-") && word.count > 1 && Int(word) == nil && word != "-" {
                    throw CLIError.usage(
                        "unknown flag '\(word)' for 'mosaic \(path.joined(separator: " "))'; flags start with -- (see --help)")
                }
                positional.append(word)
                continue
            }
            var name = String(word.dropFirst(2))
            var inline: String?
            if let eq = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            guard let flag = flags.first(where: { $0.name == name }) else {
                let hint = Suggestion.nearest(to: name, in: flags.map(\.name)).map { "; did you mean --\($0)?" } ?? ""
                throw CLIError.usage("unknown flag '--\(name)' for 'mosaic \(path.joined(separator: " "))'\(hint)")
            }
            if flag.takesValue {
                let value: String
                if let inline {
                    value = inline
                } else {
                    guard i < words.count else {
                        throw CLIError.usage("--\(name) needs a value (\(flag.valueName ?? "VALUE"))")
                    }
                    value = words[i]
                    i += 1
                }
                if !flag.repeatable, values[name] != nil {
                    throw CLIError.usage("--\(name) given more than once")
                }
                values[name, default: []].append(value)
            } else {
                if inline != nil { throw CLIError.usage("--\(name) takes no value") }
                toggles.insert(name)
            }
        }
        let cmdName = "mosaic \(path.joined(separator: " "))"
        if positional.count < command.minArguments {
            let missing = command.arguments.dropFirst(positional.count).first ?? "argument"
            throw CLIError.usage("'\(cmdName)' needs \(missing) (usage: \(cmdName) \(command.usage))")
        }
        if positional.count > command.maxArguments {
            throw CLIError.usage(
                "'\(cmdName)' got an unexpected argument '\(positional[command.maxArguments])' (usage: \(cmdName) \(command.usage))")
        }
        let parsed = ParsedWords(commandPath: path, values: values, toggles: toggles)
        // Typed options refuse a bad value here, before the command runs.
        try command.validate?(parsed)
        return .run(command, try Invocation(commandPath: path, arguments: positional, words: parsed, environment: environment))
    }
}
