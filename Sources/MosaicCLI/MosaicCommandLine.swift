import Foundation
import MosaicErrors
import MosaicProtocol
import MosaicSDK

/// Entry point of the `mosaic` executable: parse, run, print, and exit 0 (success),
/// 1 (failure) or 2 (usage error).
public enum MosaicCommandLine {
    public static let version = "0.1.0"

    public static func main() async {
        let code = await run(
            arguments: Array(CommandLine.arguments.dropFirst()),
            environment: ProcessInfo.processInfo.environment)
        exit(code)
    }

    static func run(arguments: [String], environment: [String: String]) async -> Int32 {
        let root = RootCommand.tree
        let wantsJSON = arguments.contains("--json")
        do {
            switch try ArgumentParser(root: root).parse(arguments, environment: environment) {
            case .help(let path):
                Console.out(try HelpPrinter.help(for: path, root: root))
                return 0
            case .run(let command, let invocation):
                guard let action = command.action else { return 2 }
                let output = try await action(invocation)
                if output.alreadyPrinted {
                    // Printed while running.
                } else if invocation.json {
                    Console.out(output.json.rendered() + "\n")
                } else if !output.text.isEmpty {
                    Console.out(output.text.hasSuffix("\n") ? output.text : output.text + "\n")
                }
                return output.exitCode
            }
        } catch {
            report(code: errorCode(of: error), message: String(describing: error), json: wantsJSON)
            return exitCode(of: error)
        }
    }

    private static func report(code: String, message: String, json: Bool) {
        if json {
            Console.out(JSONValue.object([("error", .object([("code", .string(code)), ("message", .string(message))]))]).rendered() + "\n")
        }
        Console.err("error: \(message)\n")
    }

    /// 2 for a usage mistake, 1 for every other failure (its `--json` code says which).
    static func exitCode(of error: any Error) -> Int32 {
        (error as? CLIError)?.exitCode ?? 1
    }
}

/// Writes to the standard streams without touching C globals (Swift 6 forbids `stdout`).
enum Console {
    static func out(_ text: String) { FileHandle.standardOutput.write(Data(text.utf8)) }
    static func err(_ text: String) { FileHandle.standardError.write(Data(text.utf8)) }
    static var isTerminal: Bool { isatty(1) == 1 }
    static var isStdinTerminal: Bool { isatty(0) == 1 }
}
