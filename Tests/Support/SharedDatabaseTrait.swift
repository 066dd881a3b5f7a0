import Testing

extension Trait where Self == ConditionTrait {
    /// Suites that run several nodes or ledgers on one database: only PostgreSQL can be shared (a
    /// SQLite file has one writer), so they run when `MOSAIC_LEDGER_STORE=postgres`.
    package static var sharedDatabase: Self {
        .enabled(
            if: TestLedgerDatabase.isPostgres, "several nodes share one database only on PostgreSQL: run with MOSAIC_LEDGER_STORE=postgres")
    }
}
