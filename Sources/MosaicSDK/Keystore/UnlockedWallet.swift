import MosaicCrypto

/// A wallet after its passphrase was checked: the secrets needed to sign. Never printed.
public struct UnlockedWallet: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public let name: String
    public let mnemonic: Mnemonic
    public let signingKey: Ed25519.SigningKey
    public var publicKey: Ed25519.PublicKey { signingKey.publicKey }
    public var clientID: String { signingKey.publicKey.clientID }

    public var description: String { "UnlockedWallet(\(name), client_id: \(clientID), secrets: <redacted>)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["name": name, "clientID": clientID], displayStyle: .struct) }
}
