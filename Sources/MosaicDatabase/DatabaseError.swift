import MosaicErrors

/// Everything that can go wrong talking to SQLite, with the engine's own message kept for the logs.
package enum DatabaseError: CodedError, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be opened or configured (permissions, missing directory, corrupt header).
    case open(path: String, message: String)
    /// The SQL did not compile; a programming error in the caller.
    case prepare(sql: String, message: String)
    /// A UNIQUE, PRIMARY KEY, NOT NULL or CHECK constraint rejected a write.
    case constraint(message: String)
    /// The database is locked by another process for longer than the busy timeout.
    case busy(message: String)
    /// Any other failure while running a statement, with SQLite's result code.
    case execute(code: Int32, message: String)
    /// A column held a value of another type than the caller asked for.
    case typeMismatch(column: Int, expected: String)
    /// The connection was closed before this call.
    case closed

    /// Stable code: callers decide on it, never on the message.
    public var code: String {
        switch self {
        case .open: return "database_open"
        case .prepare: return "database_prepare"
        case .constraint: return "constraint"
        case .busy: return "busy"
        case .execute: return "database_error"
        case .typeMismatch: return "type_mismatch"
        case .closed: return "closed"
        }
    }

    public var description: String {
        switch self {
        case .open(let path, let message): return "cannot open database at \(path): \(message)"
        case .prepare(let sql, let message): return "invalid SQL (\(message)): \(sql)"
        case .constraint(let message): return "constraint violated: \(message)"
        case .busy(let message): return "database is busy (another process holds a lock): \(message)"
        case .execute(let code, let message): return "database error \(code): \(message)"
        case .typeMismatch(let column, let expected): return "column \(column) does not hold \(expected)"
        case .closed: return "database is closed"
        }
    }
}
