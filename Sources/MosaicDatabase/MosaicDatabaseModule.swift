/// SQLite access shared by the ledger and the blobbers.
enum MosaicDatabaseModule {}
