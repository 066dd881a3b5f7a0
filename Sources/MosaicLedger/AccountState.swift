/// One account row as the engine keeps it.
struct AccountState: Sendable, Hashable {
    var balance: UInt64 = 0
    var nonce: UInt64 = 0
}
