/// `Subprocess` and `SubprocessPipe` live in `MosaicSubprocess` (the devnet's local PostgreSQL
/// starts its programs with them too); every test that imports the support module sees them.
@_exported import MosaicSubprocess
