/// The ledger node process: its HTTP JSON API and explorer pages.
enum MosaicNodeModule {}
