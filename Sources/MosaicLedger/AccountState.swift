/// One account row as the engine keeps it.
package struct AccountState: Sendable, Hashable {
    var balance: UInt64 = 0
    var nonce: UInt64 = 0
}
