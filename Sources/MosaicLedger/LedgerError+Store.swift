import MosaicPostgres
import MosaicProtocol

extension LedgerError {
    /// A failure of the ledger's store while serving a request, as the caller should see it:
    /// `unavailable` (503: try again) when the database cannot be reached, else `storage` (500).
    /// A `LedgerError` thrown inside passes through as it is.
    static func store(_ error: any Error, _ context: String) -> LedgerError {
        if let e = error as? LedgerError { return e }
        // The database's own words (its address among them) stay out of the answer.
        if let e = error as? PostgresError, e.isUnavailable { return .unavailable(context) }
        return .storage("\(context): \(error)")
    }
}
