import Foundation

/// What a command runs with: its parsed flags and arguments, and the environment it acts in.
struct Invocation: Sendable {
    let commandPath: [String]
    let arguments: [String]
    let values: [String: [String]]
    let toggles: Set<String>
    let environment: [String: String]

    var json: Bool { toggles.contains("json") }

    func has(_ flag: String) -> Bool { toggles.contains(flag) || values[flag] != nil }

    func value(_ flag: String) -> String? { values[flag]?.last }

    func all(_ flag: String) -> [String] { values[flag] ?? [] }

    /// The value of a flag that must be present.
    func required(_ flag: String) throws -> String {
        guard let v = value(flag) else {
            throw CLIError.usage(
                "missing --\(flag) for 'mosaic \(commandPath.joined(separator: " "))'; see 'mosaic help \(commandPath.joined(separator: " "))'"
            )
        }
        return v
    }

    /// `--home`, else `$MOSAIC_HOME`, else `~/.mosaic`.
    var home: URL {
        if let h = value("home") { return URL(fileURLWithPath: h, isDirectory: true) }
        if let h = environment["MOSAIC_HOME"], !h.isEmpty { return URL(fileURLWithPath: h, isDirectory: true) }
        let userHome = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: userHome, isDirectory: true).appendingPathComponent(".mosaic", isDirectory: true)
    }
}
