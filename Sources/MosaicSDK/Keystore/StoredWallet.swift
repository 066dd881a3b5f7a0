import Foundation
import MosaicCrypto

/// The public half of a wallet file: readable without the passphrase (for listing and addressing).
public struct StoredWallet: Sendable, Equatable {
    /// The wallet's name (its file is `<name>.json`).
    public let name: String
    /// The account's address on the ledger: hex SHA-256 of the public key.
    public let clientID: String
    /// The account's Ed25519 public key.
    public let publicKey: Ed25519.PublicKey
    /// When the wallet was first stored (kept across passphrase changes).
    public let created: Date
    /// The wallet file.
    public let path: URL
    /// Argon2id cost recorded in the file.
    public let kdfParameters: Argon2id.Parameters
}
