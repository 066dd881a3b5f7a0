import Foundation
import MosaicCrypto

/// The on-disk JSON form of a wallet (docs/PROTOCOL.md §1 "Keystore file").
struct WalletFile: Codable, Sendable {
    static let currentVersion = 1
    static let kdfAlgorithm = "argon2id13"
    static let cipherAlgorithm = "aes-256-gcm"

    struct KDF: Codable, Sendable {
        var algorithm: String
        var opsLimit: UInt64
        var memLimit: UInt64
        var salt: String
        enum CodingKeys: String, CodingKey {
            case algorithm
            case opsLimit = "ops_limit"
            case memLimit = "mem_limit"
            case salt
        }
    }

    struct Cipher: Codable, Sendable {
        var algorithm: String
        var nonce: String
        var ciphertext: String
    }

    var version: Int
    var name: String
    var clientID: String
    var publicKey: String
    var created: String
    var kdf: KDF
    var cipher: Cipher
    var checksum: String

    enum CodingKeys: String, CodingKey {
        case version, name
        case clientID = "client_id"
        case publicKey = "public_key"
        case created, kdf, cipher, checksum
    }

    /// Header bytes bound into the AEAD: each field length-prefixed so no two headers collide.
    var associatedData: [UInt8] {
        let fields = [
            "mosaic-wallet", String(version), name, clientID, publicKey, created,
            kdf.algorithm, String(kdf.opsLimit), String(kdf.memLimit), kdf.salt,
            cipher.algorithm, cipher.nonce,
        ]
        var out = [UInt8]()
        for f in fields {
            out += Array("\(f.utf8.count):".utf8) + Array(f.utf8) + [0x0a]
        }
        return out
    }

    /// Integrity check over everything, so damage is told apart from a wrong passphrase.
    var computedChecksum: String {
        Hex.encode(SHA256.hash(associatedData + Array(cipher.ciphertext.utf8)))
    }

    func encoded() throws(KeystoreError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do { return Array(try encoder.encode(self)) + [0x0a] } catch {
            throw .io(path: name, reason: "could not encode the wallet: \(error)")
        }
    }

    /// Decodes lowercase hex of an exact length; nil otherwise (so every file has one spelling).
    static func strictHex(_ text: String, count: Int? = nil) -> [UInt8]? {
        guard let bytes = Hex.decode(text), Hex.encode(bytes) == text else { return nil }
        if let count, bytes.count != count { return nil }
        return bytes
    }

    static func timestamp(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: date)
    }

    static func parseTimestamp(_ text: String) -> Date? {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f.date(from: text)
    }
}
