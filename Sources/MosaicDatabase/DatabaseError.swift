/// Everything that can go wrong talking to SQLite, with the engine's own message kept for the logs.
public enum DatabaseError: Error, Sendable, Equatable, CustomStringConvertible {
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

    public var description: String {
        switch self {
        case let .open(path, message): return "cannot open database at \(path): \(message)"
        case let .prepare(sql, message): return "invalid SQL (\(message)): \(sql)"
        case let .constraint(message): return "constraint violated: \(message)"
        case let .busy(message): return "database is busy (another process holds a lock): \(message)"
        case let .execute(code, message): return "database error \(code): \(message)"
        case let .typeMismatch(column, expected): return "column \(column) does not hold \(expected)"
        case .closed: return "database is closed"
        }
    }
}
