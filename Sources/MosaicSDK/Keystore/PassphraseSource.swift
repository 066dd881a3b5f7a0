import Foundation
import Glibc
import MosaicCrypto

/// Where a wallet passphrase comes from: scripts use the environment or a file, people a prompt.
public enum PassphraseSource: Sendable {
    /// An environment variable, `MOSAIC_PASSPHRASE` by default.
    case environment(variable: String)
    /// A file (`--passphrase-file`); one trailing newline (LF or CRLF) is stripped.
    case file(path: String)
    /// Ask on the terminal with echo off; `confirm` asks twice (for new wallets).
    case prompt(message: String, confirm: Bool)

    /// The environment variable scripts set to pass a passphrase without a prompt.
    public static let environmentVariable = "MOSAIC_PASSPHRASE"

    /// The usual order: an explicit `--passphrase-file`, then `MOSAIC_PASSPHRASE`, then a prompt.
    /// - Parameters:
    ///   - passphraseFile: the `--passphrase-file` path, if one was given.
    ///   - environment: where `MOSAIC_PASSPHRASE` is looked up.
    ///   - message: the prompt shown on the terminal.
    ///   - confirm: ask twice at the prompt (new wallets).
    /// - Returns: the passphrase bytes.
    /// - Throws: `PassphraseError` as `read(environment:)` for the source chosen.
    public static func resolve(
        passphraseFile: String?,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        prompt message: String = "Wallet passphrase: ",
        confirm: Bool = false
    ) throws(PassphraseError) -> SecretBytes {
        if let passphraseFile { return try PassphraseSource.file(path: passphraseFile).read(environment: environment) }
        if environment[environmentVariable] != nil {
            return try PassphraseSource.environment(variable: environmentVariable).read(environment: environment)
        }
        return try PassphraseSource.prompt(message: message, confirm: confirm).read(environment: environment)
    }

    /// Reads the passphrase from this source.
    /// - Parameter environment: where an `.environment` source is looked up.
    /// - Returns: the passphrase bytes (never empty).
    /// - Throws: `PassphraseError` — `.environmentNotSet`, `.fileUnreadable`, `.empty`, `.notATerminal`
    ///   when a prompt is needed without a terminal, `.mismatch` when the two typed ones differ,
    ///   `.terminal` when echo cannot be turned off.
    public func read(environment: [String: String] = ProcessInfo.processInfo.environment) throws(PassphraseError) -> SecretBytes {
        switch self {
        case .environment(let variable):
            guard let value = environment[variable] else { throw .environmentNotSet(variable: variable) }
            guard !value.isEmpty else { throw .empty(source: variable) }
            return SecretBytes(Array(value.utf8))
        case .file(let path):
            guard let data = FileManager.default.contents(atPath: path) else {
                let reason = FileManager.default.fileExists(atPath: path) ? "permission denied or not a file" : "no such file"
                throw .fileUnreadable(path: path, reason: reason)
            }
            var bytes = [UInt8](data)
            if bytes.last == 0x0a { bytes.removeLast() }
            if bytes.last == 0x0d { bytes.removeLast() }
            defer { for i in bytes.indices { bytes[i] = 0 } }
            guard !bytes.isEmpty else { throw .empty(source: path) }
            return SecretBytes(bytes)
        case .prompt(let message, let confirm):
            let first = try PassphraseSource.ask(message)
            guard first.count > 0 else { throw .empty(source: "the terminal") }
            if confirm {
                let second = try PassphraseSource.ask("Repeat the passphrase: ")
                guard first == second else { throw .mismatch }
            }
            return first
        }
    }

    /// Reads one line from stdin with terminal echo off; the prompt goes to stderr.
    static func ask(_ message: String) throws(PassphraseError) -> SecretBytes {
        guard isatty(STDIN_FILENO) == 1 else { throw .notATerminal }
        FileHandle.standardError.write(Data(message.utf8))
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { throw .terminal(reason: String(cString: strerror(errno))) }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        quiet.c_lflag |= tcflag_t(ECHONL)
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet) == 0 else { throw .terminal(reason: String(cString: strerror(errno))) }
        defer { _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved) }
        var line = [UInt8]()
        defer { for i in line.indices { line[i] = 0 } }
        var byte: UInt8 = 0
        while true {
            let n = Glibc.read(STDIN_FILENO, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 || byte == 0x0a { break }
            line.append(byte)
        }
        if line.last == 0x0d { line.removeLast() }
        return SecretBytes(line)
    }
}
