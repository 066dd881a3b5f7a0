import Foundation
import MosaicCrypto

/// Encrypts a private note's fields to the owner: AES-256-GCM under
/// `HKDF-SHA256(Ed25519 seed, info "mosaic-notes-v1")`, a random 12-byte nonce per field, and
/// AAD `"mosaic-note:" ‖ owner client id ‖ ":" ‖ field name`, so a title cannot be passed off as a
/// body or moved to another account. Stored as base64(nonce ‖ ciphertext ‖ tag).
struct NoteCipher: Sendable {
    let key: SecretBytes
    let owner: String

    init(signingKey: Ed25519.SigningKey) throws(CryptoError) {
        key = try HKDF.deriveKey(from: signingKey.seed, info: Array("mosaic-notes-v1".utf8))
        owner = signingKey.publicKey.clientID
    }

    private func aad(_ field: String) -> [UInt8] { Array("mosaic-note:\(owner):\(field)".utf8) }

    func seal(_ text: String, field: String) throws(CryptoError) -> String {
        let nonce = Random.bytes(AES256GCM.nonceCount)
        let sealed = try AES256GCM.sealCombined(Array(text.utf8), key: key, nonce: nonce, aad: aad(field))
        return Data(nonce + sealed).base64EncodedString()
    }

    /// The clear text, or nil when the field is not this owner's ciphertext.
    func open(_ base64: String, field: String) -> String? {
        guard let data = Data(base64Encoded: base64), data.count >= AES256GCM.nonceCount + AES256GCM.tagCount else { return nil }
        let bytes = Array(data)
        let nonce = Array(bytes[..<AES256GCM.nonceCount])
        guard let plain = try? AES256GCM.openCombined(Array(bytes[AES256GCM.nonceCount...]), key: key, nonce: nonce, aad: aad(field)) else {
            return nil
        }
        return String(validating: plain, as: UTF8.self)
    }
}
