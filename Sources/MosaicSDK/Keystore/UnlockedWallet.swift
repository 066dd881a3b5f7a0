import MosaicCrypto

/// A wallet after its passphrase was checked: the secrets needed to sign. Never printed.
public struct UnlockedWallet: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The wallet's name in the keystore.
    public let name: String
    /// The recovery phrase; show it only when the user asks for a backup.
    public let mnemonic: Mnemonic
    /// The key that signs the account's transactions, markers and tickets.
    public let signingKey: Ed25519.SigningKey
    /// The account's public key.
    public var publicKey: Ed25519.PublicKey { signingKey.publicKey }
    /// The account's address on the ledger.
    public var clientID: String { signingKey.publicKey.clientID }

    /// Name and client id only: the secrets never reach a log.
    public var description: String { "UnlockedWallet(\(name), client_id: \(clientID), secrets: <redacted>)" }
    /// The same redacted text as `description`.
    public var debugDescription: String { description }
    /// Name and client id only, so debuggers and `dump` show no secret.
    public var customMirror: Mirror { Mirror(self, children: ["name": name, "clientID": clientID], displayStyle: .struct) }
}
