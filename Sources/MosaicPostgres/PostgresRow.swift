/// One result row, decoded from the server's binary format when the command finished: it owns
/// its values, so nothing of libpq's result outlives the call.
package struct PostgresRow: Sendable, Equatable {
    package let values: [PostgresValue]

    package init(values: [PostgresValue]) { self.values = values }

    package var count: Int { values.count }

    package func value(_ column: Int) throws(PostgresError) -> PostgresValue {
        guard values.indices.contains(column) else { throw .noSuchColumn(column: column) }
        return values[column]
    }

    package func isNull(_ column: Int) throws(PostgresError) -> Bool {
        try value(column) == .null
    }

    package func int64(_ column: Int) throws(PostgresError) -> Int64 {
        guard case .integer(let v) = try value(column) else { throw .typeMismatch(column: column, expected: "an integer") }
        return v
    }

    package func string(_ column: Int) throws(PostgresError) -> String {
        guard case .text(let v) = try value(column) else { throw .typeMismatch(column: column, expected: "text") }
        return v
    }

    package func optionalString(_ column: Int) throws(PostgresError) -> String? {
        try isNull(column) ? nil : string(column)
    }

    package func bytes(_ column: Int) throws(PostgresError) -> [UInt8] {
        guard case .bytes(let v) = try value(column) else { throw .typeMismatch(column: column, expected: "bytes") }
        return v
    }

    package func bool(_ column: Int) throws(PostgresError) -> Bool {
        guard case .boolean(let v) = try value(column) else { throw .typeMismatch(column: column, expected: "a boolean") }
        return v
    }

    /// Reads a `UInt64` stored with `PostgresValue.uint64`.
    package func uint64(_ column: Int) throws(PostgresError) -> UInt64 {
        let b = try bytes(column)
        guard b.count == 8 else { throw .typeMismatch(column: column, expected: "an 8-byte unsigned integer") }
        return b.reduce(0) { $0 << 8 | UInt64($1) }
    }
}
