import Foundation
import MosaicCrypto

/// The public half of a wallet file: readable without the passphrase (for listing and addressing).
public struct StoredWallet: Sendable, Equatable {
    public let name: String
    public let clientID: String
    public let publicKey: Ed25519.PublicKey
    public let created: Date
    /// The wallet file.
    public let path: URL
    /// Argon2id cost recorded in the file.
    public let kdfParameters: Argon2id.Parameters
}
