import Foundation

/// What a command runs with: its positional arguments, the global options, and the environment
/// it acts in. Its own options arrive typed, from its `CommandOptions` declarations.
struct Invocation: Sendable {
    let commandPath: [String]
    let arguments: [String]
    /// The option words as parsed, for binding declarations only.
    let words: ParsedWords
    let global: GlobalOptions
    let environment: [String: String]

    init(commandPath: [String], arguments: [String], words: ParsedWords, environment: [String: String]) throws {
        self.commandPath = commandPath
        self.arguments = arguments
        self.words = words
        self.global = try GlobalOptions.bind(words)
        self.environment = environment
    }

    var json: Bool { global.json }

    /// `--home`, else `$MOSAIC_HOME`, else `~/.mosaic`.
    var home: URL {
        if let h = global.home { return URL(fileURLWithPath: h, isDirectory: true) }
        if let h = environment["MOSAIC_HOME"], !h.isEmpty { return URL(fileURLWithPath: h, isDirectory: true) }
        let userHome = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: userHome, isDirectory: true).appendingPathComponent(".mosaic", isDirectory: true)
    }
}
