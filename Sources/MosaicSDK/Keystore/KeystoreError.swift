import MosaicCrypto
import MosaicErrors

/// Keystore failures, each telling the user what to do next.
public enum KeystoreError: CodedError, Equatable, Sendable, CustomStringConvertible {
    case invalidName(String)
    case walletExists(name: String)
    case unknownWallet(name: String, available: [String])
    case noDefaultWallet(available: [String])
    case wrongPassphrase(name: String)
    case emptyPassphrase
    case corrupted(path: String, reason: String)
    case unsupportedVersion(path: String, version: Int)
    case invalidMnemonic(MnemonicError)
    case io(path: String, reason: String)
    case crypto(CryptoError)

    /// Stable code: callers decide on it, never on the message.
    public var code: String {
        switch self {
        case .invalidName: return "invalid_wallet_name"
        case .walletExists: return "wallet_exists"
        case .unknownWallet: return "unknown_wallet"
        case .noDefaultWallet: return "no_default_wallet"
        case .wrongPassphrase: return "wrong_passphrase"
        case .emptyPassphrase: return "empty_passphrase"
        case .corrupted: return "keystore_corrupted"
        case .unsupportedVersion: return "unsupported_version"
        case .invalidMnemonic(let e): return e.code
        case .io: return "io"
        case .crypto(let e): return e.code
        }
    }

    /// The message shown to the user: what went wrong and what to do next.
    public var description: String {
        switch self {
        case .invalidName(let name):
            return "wallet name \"\(name)\" is not allowed: use 1 to 64 letters, digits, '_' or '-'"
        case .walletExists(let name):
            return "a wallet named \"\(name)\" already exists; use another name"
        case .unknownWallet(let name, let available):
            return available.isEmpty
                ? "there is no wallet named \"\(name)\" and no wallets at all yet; create one with `mosaic wallet create`"
                : "there is no wallet named \"\(name)\"; the wallets here are: \(available.joined(separator: ", "))"
        case .noDefaultWallet(let available):
            return available.isEmpty
                ? "there are no wallets yet; create one with `mosaic wallet create`"
                : "no default wallet is set; name one (\(available.joined(separator: ", "))) or set it with `mosaic wallet default NAME`"
        case .wrongPassphrase(let name):
            return "wrong passphrase for wallet \(name)"
        case .emptyPassphrase:
            return "the wallet passphrase must not be empty"
        case .corrupted(let path, let reason):
            return "wallet file \(path) is corrupted (\(reason)); restore it from a backup or recover the wallet from its mnemonic"
        case .unsupportedVersion(let path, let version):
            return
                "wallet file \(path) has format version \(version), which this mosaic does not know; upgrade mosaic, or if the file is damaged restore it from a backup or recover the wallet from its mnemonic"
        case .invalidMnemonic(let error):
            return "the recovery phrase is not valid: \(error)"
        case .io(let path, let reason):
            return "could not access \(path): \(reason); check the folder exists and you may write to it"
        case .crypto(let error):
            return "\(error)"
        }
    }
}
