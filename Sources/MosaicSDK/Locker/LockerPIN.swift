import Foundation
import MosaicCrypto

/// A Locker PIN: 4 to 64 characters (digits or any text, no control characters), NFC-normalised
/// UTF-8 so the same PIN typed on another keyboard or in the browser gives the same bytes.
/// It is only ever an input to Argon2id; it is never stored, logged or sent anywhere but there.
public struct LockerPIN: Sendable {
    /// Shortest PIN, in characters.
    public static let minCharacters = 4
    /// Longest PIN, in characters.
    public static let maxCharacters = 64

    let secret: SecretBytes

    /// - Parameter text: the PIN as typed.
    /// - Throws: `LockerError.invalidPIN` saying which rule it breaks.
    public init(_ text: String) throws(LockerError) {
        let scalars = text.unicodeScalars
        guard !text.isEmpty else {
            throw .invalidPIN("the PIN is empty; a locker PIN needs \(Self.minCharacters) to \(Self.maxCharacters) characters")
        }
        guard !scalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .invalidPIN(
                "the PIN contains a control character (a line break or tab?); use \(Self.minCharacters) to \(Self.maxCharacters) visible characters"
            )
        }
        let count = text.count
        guard count >= Self.minCharacters, count <= Self.maxCharacters else {
            throw .invalidPIN(
                "the PIN has \(count) character\(count == 1 ? "" : "s"); a locker PIN needs \(Self.minCharacters) to \(Self.maxCharacters)")
        }
        var bytes = Array(text.precomposedStringWithCanonicalMapping.utf8)
        secret = SecretBytes(bytes)
        for i in bytes.indices { bytes[i] = 0 }
    }

    /// Constant-time comparison (for "enter the PIN twice").
    /// - Parameter other: the PIN typed the second time.
    public func matches(_ other: LockerPIN) -> Bool { secret == other.secret }

    /// From raw bytes (a file or a terminal line): must be UTF-8.
    /// - Parameter bytes: the PIN's bytes.
    /// - Throws: `LockerError.invalidPIN` when they are not UTF-8 or break a rule.
    public init(bytes: SecretBytes) throws(LockerError) {
        let text: String? = bytes.withUnsafeBytes { String(validating: $0, as: UTF8.self) }
        guard let text else { throw .invalidPIN("the PIN is not valid UTF-8 text") }
        try self.init(text)
    }

    /// `--pin-file FILE` if given (one trailing newline is dropped), else a prompt on the terminal
    /// without echo; `confirm` asks twice (when a file is locked) and refuses a mismatch.
    /// - Parameters:
    ///   - pinFile: the `--pin-file` path, if given.
    ///   - prompt: the prompt shown on the terminal.
    ///   - confirm: ask twice.
    /// - Returns: the PIN.
    /// - Throws: `LockerError` — `.pinUnavailable` when neither a file nor a terminal gives one,
    ///   `.pinMismatch`, `.invalidPIN`.
    public static func read(pinFile: String?, prompt: String, confirm: Bool) throws(LockerError) -> LockerPIN {
        if let pinFile {
            guard let data = FileManager.default.contents(atPath: pinFile) else {
                let why = FileManager.default.fileExists(atPath: pinFile) ? "permission denied or not a file" : "no such file"
                throw .pinUnavailable("could not read the PIN file \(pinFile): \(why)")
            }
            var bytes = [UInt8](data)
            defer { for i in bytes.indices { bytes[i] = 0 } }
            if bytes.last == 0x0a { bytes.removeLast() }
            if bytes.last == 0x0d { bytes.removeLast() }
            return try LockerPIN(bytes: SecretBytes(bytes))
        }
        let first = try ask(prompt)
        if confirm {
            let second = try ask("Repeat the PIN: ")
            guard first.matches(second) else { throw .pinMismatch }
        }
        return first
    }

    static func ask(_ prompt: String) throws(LockerError) -> LockerPIN {
        let line: SecretBytes
        do { line = try PassphraseSource.ask(prompt) } catch {
            switch error {
            case .notATerminal:
                throw .pinUnavailable("a PIN is needed but stdin is not a terminal, so it cannot be asked for; pass --pin-file FILE")
            default:
                throw .pinUnavailable("could not read the PIN from the terminal: \(error)")
            }
        }
        return try LockerPIN(bytes: line)
    }
}
