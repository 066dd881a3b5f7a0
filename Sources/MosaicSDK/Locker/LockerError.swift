import Foundation
import MosaicErrors

/// Why a Locker operation failed, each with what to do. The same words reach the command line and
/// the web page.
public enum LockerError: CodedError, Equatable, Sendable, CustomStringConvertible {
    /// The PIN did not open the file's key (AEAD authentication failed). `triesBeforeWait` is how
    /// many more wrong PINs are allowed before tries have to wait (0: the next one waits).
    case incorrectPIN(name: String, triesBeforeWait: Int, wait: Int64)
    /// Too many wrong PINs for this file: no try is made before `retryAfter` seconds have passed.
    case tooManyAttempts(name: String, retryAfter: Int64)
    /// The PIN breaks the rules (length, control characters, UTF-8).
    case invalidPIN(String)
    /// The two PINs typed differ.
    case pinMismatch
    /// No PIN could be read (no terminal, unreadable file).
    case pinUnavailable(String)
    /// The name breaks `Locker.validate(name:)`.
    case invalidName(String)
    /// A file of that name exists and `replace` was not asked.
    case exists(name: String)
    /// No locker file of that name.
    case notFound(name: String)
    /// The file at that name is not PIN-locked.
    case notALockerFile(name: String)
    /// The stored wrap cannot be used.
    case damaged(name: String, reason: String)
    /// The wrong-PIN log cannot be read or written.
    case attemptLog(String)
    /// The storage operation underneath failed.
    case storage(StorageClientError)

    /// The message shown to the user, with what to do.
    public var description: String {
        switch self {
        case .incorrectPIN(let name, let left, let wait):
            let then =
                left > 0
                ? "\(left) more wrong \(left == 1 ? "PIN" : "PINs") allowed before tries have to wait"
                : "the next try waits \(LockerError.seconds(wait))"
            return "incorrect PIN for locker file \(name); \(then)"
        case .tooManyAttempts(let name, let after):
            return "too many incorrect PINs for locker file \(name); wait \(LockerError.seconds(after)) before trying again"
        case .invalidPIN(let why): return why
        case .pinMismatch: return "the two PINs differ; nothing was stored, try again"
        case .pinUnavailable(let why): return why
        case .invalidName(let why): return why
        case .exists(let name): return "locker file \(name) already exists; use --replace to overwrite"
        case .notFound(let name): return "locker file \(name) does not exist; list the locker with 'mosaic locker ls'"
        case .notALockerFile(let name):
            return
                "\(Locker.folder)/\(name) is not a locker file (it has no PIN); read it with 'mosaic download \(Locker.folder)/\(name) LOCAL'"
        case .damaged(let name, let why): return "the locked key of locker file \(name) cannot be used: \(why)"
        case .attemptLog(let why): return "cannot use the PIN attempt log: \(why)"
        case .storage(let e): return e.description
        }
    }

    /// A stable snake_case code for `--json` output and the web API.
    public var code: String {
        switch self {
        case .incorrectPIN: return "incorrect_pin"
        case .tooManyAttempts: return "too_many_attempts"
        case .invalidPIN: return "invalid_pin"
        case .pinMismatch: return "pin_mismatch"
        case .pinUnavailable: return "pin_unavailable"
        case .invalidName: return "invalid_name"
        case .exists: return "exists"
        case .notFound: return "not_found"
        case .notALockerFile: return "not_a_locker_file"
        case .damaged: return "damaged"
        case .attemptLog: return "attempt_log"
        case .storage: return "storage"
        }
    }

    static func seconds(_ s: Int64) -> String {
        if s < 120 { return "\(s) s" }
        if s < 7200 { return "\((s + 59) / 60) min" }
        return "\((s + 3599) / 3600) h"
    }
}
