import Foundation
import Testing

/// Every command the CLI (and the SDK errors it prints) suggests in quotes, `'mosaic …'`, is
/// run: a hint that the parser refuses (exit 2, a usage error) is a hint that does not work.
/// Placeholders (ID, TOKENS, NAME, `\(…)`) get sample values; commands that start servers are
/// checked through their help, flag by flag, instead of being started.
@Suite struct CLIHintTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The quoted hints in the sources of the CLI, the SDK and the blobber runtime, as written.
    static func hints() throws -> [String] {
        var found = Set<String>()
        let regex = try NSRegularExpression(pattern: "'mosaic ([^']+)'")
        for dir in ["Sources/MosaicCLI", "Sources/MosaicSDK", "Sources/MosaicBlobber"] {
            let base = root.appendingPathComponent(dir)
            guard let files = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in files where url.pathExtension == "swift" {
                let text = try String(contentsOf: url, encoding: .utf8)
                for m in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                    guard let r = Range(m.range(at: 1), in: text) else { continue }
                    found.insert(String(text[r]))
                }
            }
        }
        return found.sorted()
    }

    /// Sample words for a hint's placeholders and interpolations.
    static func words(_ hint: String) -> [String]? {
        // A hint built from the command path the user typed (help texts) is not a fixed command.
        if hint.contains("commandPath") || hint.contains("path.joined") || hint.contains("…") { return nil }
        let hex = String(repeating: "a", count: 64)
        var out: [String] = []
        for raw in interpolationsJoined(hint).split(separator: " ").map(String.init) {
            var w = raw
            if w.hasPrefix("\\(") || w.contains("\\(") {
                if w.contains("Locker.folder") {
                    w = "/locker/x"
                } else if w.contains("TokenAmount") {
                    w = "1"
                } else if w.contains("name") {
                    w = "x"
                } else {
                    w = hex
                }
            }
            switch w {
            case "ID": w = hex
            case "TOKENS", "AMOUNT", "N": w = "2"
            case "NAME", "APP", "T", "B": w = "x"
            case "TICKET": w = "mosaic-ticket:x"
            case "URL": w = "http://127.0.0.1:9"
            case "FILE", "LOCAL": w = "/nonexistent/mosaic-hint-file"
            default: break
            }
            out.append(w)
        }
        return out
    }

    /// The hint with the spaces inside each `\(…)` (balanced parentheses) removed, so an
    /// interpolation stays one word.
    static func interpolationsJoined(_ hint: String) -> String {
        var out = ""
        var depth = 0
        var chars = Array(hint)[...]
        while let c = chars.first {
            chars = chars.dropFirst()
            if c == "\\", chars.first == "(" && depth == 0 {
                out.append(c)
                out.append("(")
                chars = chars.dropFirst()
                depth = 1
                continue
            }
            if depth > 0 {
                if c == "(" { depth += 1 } else if c == ")" { depth -= 1 }
                if c != " " { out.append(c) }
                continue
            }
            out.append(c)
        }
        return out
    }

    static let servers: Set<String> = ["devnet", "blobber", "node", "app"]

    /// The commands the README and docs/ show, as written: code spans (`mosaic …`) and code lines
    /// that start with `mosaic ` (without their `# comment`, each part of `a && b` on its own).
    static func docCommands() throws -> [String] {
        var found = Set<String>()
        let docs = root.appendingPathComponent("docs")
        let files =
            [root.appendingPathComponent("README.md")]
            + (try FileManager.default.contentsOfDirectory(at: docs, includingPropertiesForKeys: nil).filter { $0.pathExtension == "md" })
        let span = try NSRegularExpression(pattern: "`mosaic ([^`]+)`")
        for url in files {
            let text = try String(contentsOf: url, encoding: .utf8)
            for m in span.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let r = Range(m.range(at: 1), in: text) else { continue }
                found.insert(String(text[r]))
            }
            for line in text.split(separator: "\n") {
                var code = line.trimmingCharacters(in: .whitespaces)
                guard code.hasPrefix("mosaic "), !code.contains("─►") else { continue }
                if let comment = code.range(of: " #") { code = String(code[..<comment.lowerBound]) }
                for part in code.components(separatedBy: "&&") {
                    let command = part.trimmingCharacters(in: .whitespaces)
                    if command.hasPrefix("mosaic ") { found.insert(String(command.dropFirst("mosaic ".count))) }
                }
            }
        }
        return found.sorted()
    }

    /// A documented command as arguments: optional parts are kept (their flags are checked too),
    /// the first of `a|b` alternatives is taken, and placeholders get sample values.
    static func docWords(_ command: String) -> [String] {
        let hex = String(repeating: "a", count: 64)
        var words: [String] = []
        var current = ""
        var quoted = false
        var started = false
        for c in command.filter({ $0 != "[" && $0 != "]" && $0 != "…" }) {
            if c == "'" {
                quoted.toggle()
                started = true
            } else if c == " " && !quoted {
                if started { words.append(current) }
                current = ""
                started = false
            } else {
                current.append(c)
                started = true
            }
        }
        if started { words.append(current) }
        // A note's id is a whole number; elsewhere an ID is a 64-hex client or allocation id.
        let id = words.first == "notes" ? "1" : hex
        return words.map { raw in
            let w = raw.hasPrefix("-") ? raw : String(raw.split(separator: "|").first ?? Substring(raw))
            switch w {
            case "ID": return id
            case "CLIENT_ID", "BLOBBER_ID": return hex
            case "AUTHOR/PERMLINK": return hex + "/x"
            case "TOKENS", "AMOUNT", "N", "W": return "2"
            case "NAME": return "alice"
            case "APP", "T", "B", "P", "C", "NEXT", "TEXT": return "x"
            case "F", "FILE", "PATH", "DIR": return "/nonexistent/mosaic-hint-file"
            case "URL": return "http://127.0.0.1:9"
            case "JSON": return "{}"
            default: return w
            }
        }
    }

    /// Runs one hint: a server command is checked through its help (every flag the hint uses is
    /// listed), a bare command name must name a command, anything else must get past the parser.
    static func check(_ args: [String], hint: String, with cli: CLIRunner) async throws {
        guard let first = args.first else { return }
        if servers.contains(first) {
            let commandWords = args.prefix { !$0.hasPrefix("-") }
            let help = try await cli.run(Array(commandWords) + ["--help"])
            #expect(help.code == 0, "'mosaic \(hint)': \(help.err)")
            for flag in args where flag.hasPrefix("--") {
                #expect(
                    help.out.contains(flag),
                    "'mosaic \(hint)': \(flag) is not a flag of 'mosaic \(commandWords.joined(separator: " "))'")
            }
            return
        }
        let bare = !args.contains { $0.hasPrefix("-") } && args.count <= 2 && !args.contains { $0.count == 64 || $0.hasPrefix("/") }
        if bare {
            // A reference to a command ('mosaic share', 'mosaic alloc new'): it names one.
            let help = try await cli.run(args + ["--help"])
            #expect(help.code == 0, "'mosaic \(hint)' names no command: \(help.err)")
            return
        }
        let r = try await cli.run(args, stdin: "")
        #expect(r.code != 2, "'mosaic \(hint)' is refused by the parser: \(r.err)")
    }

    @Test func everyCommandInTheDocsParses() async throws {
        let all = try CLIHintTests.docCommands()
        #expect(all.count > 40, "found \(all.count) commands in the docs")
        #expect(all.contains("wallet send --to CLIENT_ID --amount 0.25"))
        #expect(
            CLIHintTests.docWords("social feed --sort trending|hot|created [--tag T]") == [
                "social", "feed", "--sort", "trending", "--tag", "x",
            ])
        #expect(
            CLIHintTests.docWords("notes add --title Groceries --body 'milk, eggs'") == [
                "notes", "add", "--title", "Groceries", "--body", "milk, eggs",
            ])
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        for command in all {
            let args = CLIHintTests.docWords(command)
            if let flag = args.last, flag.hasPrefix("--"), args.dropLast().allSatisfy({ !$0.hasPrefix("-") }) {
                // A reference to one flag (`mosaic download --ticket`): the command's help lists it.
                let help = try await cli.run(Array(args.dropLast()) + ["--help"])
                #expect(help.code == 0 && help.out.contains(flag), "'mosaic \(command)': \(flag) is not in its help: \(help.err)")
                continue
            }
            try await CLIHintTests.check(args, hint: command, with: cli)
        }
    }

    @Test func everyPrintedHintParses() async throws {
        let all = try CLIHintTests.hints()
        #expect(all.count > 20, "found \(all.count) hints")
        #expect(all.contains("wallet send --to \\(id) --amount \\(TokenAmount(baseUnits: need - balance))"))
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        for hint in all {
            guard let args = CLIHintTests.words(hint) else { continue }
            try await CLIHintTests.check(args, hint: hint, with: cli)
        }
    }
}
