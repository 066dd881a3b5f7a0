import MosaicCrypto
import MosaicStorageCore

/// How an upload keeps a file's content key: the metadata's `cipher` name and the functions that
/// turn the key into the metadata's `wrapped_key` (hex) and back. The upload journal holds the same
/// wrapped form, so a resumed upload never has the key in any other form on disk.
struct ContentKeyWrapping: Sendable {
    let cipher: String
    let wrap: @Sendable (SecretBytes) throws -> String
    /// nil when the wrapped key cannot be opened (another wallet, another PIN).
    let unwrap: @Sendable (String) -> SecretBytes?

    /// Sealed to the owner's key: any holder of the wallet opens it (ordinary files).
    static func owner(_ key: Ed25519.SigningKey) -> ContentKeyWrapping {
        ContentKeyWrapping(
            cipher: FileMeta.aesGCMCipher,
            wrap: { Hex.encode(try SealedBox.seal($0, to: key.publicKey)) },
            unwrap: { hex in Hex.decode(hex).flatMap { try? SealedBox.open($0, with: key) } })
    }
}
