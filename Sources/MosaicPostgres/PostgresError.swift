import MosaicErrors

/// Everything that can go wrong talking to PostgreSQL. Callers match on the case (or on `code`),
/// never on the message; the server's own message and SQLSTATE are kept for the logs.
package enum PostgresError: CodedError, Sendable, Equatable, CustomStringConvertible {
    /// The server could not be reached or refused the connection (bad URL, auth, not running).
    case connect(message: String)
    /// The connection broke while a command ran (server restarted, network gone).
    case connectionLost(message: String)
    /// The SQL did not compile; a programming error in the caller.
    case prepare(sql: String, sqlState: String, message: String)
    /// A UNIQUE, PRIMARY KEY, NOT NULL, FOREIGN KEY or CHECK constraint rejected a write (class 23).
    case constraint(sqlState: String, message: String)
    /// A serialization failure or deadlock (40001, 40P01): the transaction may be retried.
    case serialization(sqlState: String, message: String)
    /// Any other failure while running a statement, with the server's SQLSTATE.
    case execute(sqlState: String, message: String)
    /// More parameters than the wire protocol carries in one statement (65 535).
    case tooManyParameters(count: Int)
    /// A column index past the end of the row.
    case noSuchColumn(column: Int)
    /// A column held a value of another type than the caller asked for.
    case typeMismatch(column: Int, expected: String)
    /// A result column of a type this wrapper does not decode (its type OID).
    case unsupportedType(column: Int, oid: UInt32)
    /// An identifier for a generated statement (table or column name) that is not a plain name.
    case invalidIdentifier(String)
    /// The connection was closed before this call.
    case closed

    /// The server cannot be reached or the session to it broke: the same command may succeed
    /// once it is back (nothing was done, or a transaction was rolled back with the session).
    package var isUnavailable: Bool {
        switch self {
        case .connect, .connectionLost: return true
        default: return false
        }
    }

    /// A stable machine-readable code for each case.
    package var code: String {
        switch self {
        case .connect: return "postgres.connect"
        case .connectionLost: return "postgres.connection_lost"
        case .prepare: return "postgres.prepare"
        case .constraint: return "postgres.constraint"
        case .serialization: return "postgres.serialization"
        case .execute: return "postgres.execute"
        case .tooManyParameters: return "postgres.too_many_parameters"
        case .noSuchColumn: return "postgres.no_such_column"
        case .typeMismatch: return "postgres.type_mismatch"
        case .unsupportedType: return "postgres.unsupported_type"
        case .invalidIdentifier: return "postgres.invalid_identifier"
        case .closed: return "postgres.closed"
        }
    }

    package var description: String {
        switch self {
        case .connect(let message): return "cannot connect to PostgreSQL: \(message)"
        case .connectionLost(let message): return "connection to PostgreSQL lost: \(message)"
        case .prepare(let sql, let state, let message): return "invalid SQL (\(state): \(message)): \(sql)"
        case .constraint(let state, let message): return "constraint violated (\(state)): \(message)"
        case .serialization(let state, let message): return "transaction conflict (\(state)), may be retried: \(message)"
        case .execute(let state, let message): return "PostgreSQL error \(state): \(message)"
        case .tooManyParameters(let count): return "\(count) parameters in one statement (at most 65535)"
        case .noSuchColumn(let column): return "no column \(column) in the row"
        case .typeMismatch(let column, let expected): return "column \(column) does not hold \(expected)"
        case .unsupportedType(let column, let oid): return "column \(column) has type OID \(oid), which is not decoded"
        case .invalidIdentifier(let name): return "not a plain SQL identifier: \(name)"
        case .closed: return "PostgreSQL connection is closed"
        }
    }

    /// Sorts a server error by its SQLSTATE class.
    static func classify(sqlState: String, message: String) -> PostgresError {
        if sqlState.hasPrefix("23") { return .constraint(sqlState: sqlState, message: message) }
        if sqlState == "40001" || sqlState == "40P01" { return .serialization(sqlState: sqlState, message: message) }
        if sqlState.hasPrefix("08") || sqlState.hasPrefix("57P") { return .connectionLost(message: message) }
        return .execute(sqlState: sqlState, message: message)
    }
}
