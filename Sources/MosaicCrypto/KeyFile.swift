import Foundation
import MosaicErrors

/// A server's own Ed25519 key in a file of its folder (a blobber's `blobber.key`, a node's
/// `node.key`): 64 hex characters of seed, created on first use, readable by the owner only.
package enum KeyFile {
    /// The key at `path`, created with a fresh seed (mode 0600) when the file does not exist.
    /// - Throws: `KeyFileError.unreadable` when the file cannot be read or written, or
    ///   `.malformed` when it does not hold a 64-hex-character seed.
    package static func signingKey(at path: String) throws(KeyFileError) -> Ed25519.SigningKey {
        if FileManager.default.fileExists(atPath: path) {
            chmod(path, 0o600)
        } else {
            let seed = Ed25519.SigningKey.generate().seed.copyBytes()
            guard
                FileManager.default.createFile(atPath: path, contents: Data(Hex.encode(seed).utf8), attributes: [.posixPermissions: 0o600])
            else { throw .unreadable("cannot write a new key to \(path): check that its folder exists and is writable") }
        }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw .unreadable("cannot read the key file \(path): check its owner and permissions")
        }
        guard let seed = Hex.decode(text.trimmingCharacters(in: .whitespacesAndNewlines)), seed.count == Ed25519.seedCount,
            let key = try? Ed25519.SigningKey(seed: SecretBytes(seed))
        else {
            throw .malformed("\(path) is not a 64-hex-character Ed25519 seed; restore it from a backup (a new key is a new identity)")
        }
        return key
    }
}

/// Why a key file could not give a key.
package enum KeyFileError: CodedError, Equatable, CustomStringConvertible {
    /// The file cannot be read, or a new one cannot be written.
    case unreadable(String)
    /// The file does not hold a seed.
    case malformed(String)

    package var code: String {
        switch self {
        case .unreadable: "key_unreadable"
        case .malformed: "key_malformed"
        }
    }

    package var description: String {
        switch self {
        case .unreadable(let m), .malformed(let m): m
        }
    }
}
