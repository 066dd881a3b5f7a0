/// Ledger state, transactions, blocks, finality and the built-in contracts.
enum MosaicLedgerModule {}
