import Foundation
import Glibc
import MosaicCrypto

/// Named wallets on disk under `$MOSAIC_HOME/wallets/` (default `~/.mosaic`), one JSON file each,
/// the recovery phrase encrypted under Argon2id(passphrase) with AES-256-GCM.
/// Format: docs/PROTOCOL.md §1 "Keystore file".
public struct Keystore: Sendable {
    /// The Mosaic home folder (`$MOSAIC_HOME` or `~/.mosaic`).
    public let home: URL
    /// Argon2id cost for newly written files (existing files keep the cost they record).
    public let kdfParameters: Argon2id.Parameters

    /// `home/wallets/`: one `<name>.json` per wallet plus the `default` file, kept at mode 0700.
    public var walletsDirectory: URL { home.appendingPathComponent("wallets", isDirectory: true) }
    var defaultFile: URL { walletsDirectory.appendingPathComponent("default") }

    /// - Parameters:
    ///   - home: overrides `$MOSAIC_HOME`; tests pass a temp folder.
    ///   - kdfParameters: cost for new files; tests pass `.testing` to stay fast.
    ///   - environment: where `MOSAIC_HOME` and `HOME` are read; tests pass their own.
    public init(
        home: URL? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        kdfParameters: Argon2id.Parameters = .moderate
    ) {
        if let home {
            self.home = home
        } else if let env = environment["MOSAIC_HOME"], !env.isEmpty {
            self.home = URL(fileURLWithPath: env, isDirectory: true)
        } else {
            let userHome =
                environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
                ?? FileManager.default.homeDirectoryForCurrentUser
            self.home = userHome.appendingPathComponent(".mosaic", isDirectory: true)
        }
        self.kdfParameters = kdfParameters
    }

    // MARK: names

    /// Wallet names: 1–64 of [A-Za-z0-9_-], so a name is always a safe file name.
    /// - Parameter name: the wallet name to check.
    /// - Throws: `KeystoreError.invalidName` when the name breaks the rule.
    public static func validate(name: String) throws(KeystoreError) {
        let ok =
            (1...64).contains(name.utf8.count)
            && name.utf8.allSatisfy { c in
                (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c == 0x5f || c == 0x2d
            }
        guard ok else { throw .invalidName(name) }
    }

    /// The wallet file a name maps to, whether or not it exists yet.
    /// - Parameter name: a wallet name (not checked here; see `validate(name:)`).
    /// - Returns: `wallets/<name>.json` under `home`.
    public func path(for name: String) -> URL {
        walletsDirectory.appendingPathComponent(name + ".json")
    }

    /// Names of all wallet files, sorted.
    public func names() -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: walletsDirectory.path)) ?? []
        return files.compactMap { f -> String? in
            guard f.hasSuffix(".json") else { return nil }
            let n = String(f.dropLast(5))
            return (try? Keystore.validate(name: n)) != nil ? n : nil
        }.sorted()
    }

    // MARK: creating

    /// Creates a wallet from a fresh 24-word phrase. Show the returned mnemonic to the user once.
    /// The first wallet created becomes the default one.
    /// - Parameters:
    ///   - name: the wallet's name (see `validate(name:)`).
    ///   - passphrase: encrypts the phrase on disk; it is never stored.
    /// - Returns: the stored wallet's public details and the new phrase.
    /// - Throws: `KeystoreError` — `.invalidName`, `.emptyPassphrase`, `.walletExists` when the name
    ///   is taken, `.io` when the file cannot be written.
    public func create(name: String, passphrase: SecretBytes) throws(KeystoreError) -> (wallet: StoredWallet, mnemonic: Mnemonic) {
        let mnemonic = Mnemonic.generate()
        return (try store(name: name, mnemonic: mnemonic, passphrase: passphrase), mnemonic)
    }

    /// Stores a wallet from an existing recovery phrase.
    /// - Parameters:
    ///   - name: the wallet's name (see `validate(name:)`).
    ///   - mnemonic: the recovery phrase the wallet is derived from.
    ///   - passphrase: encrypts the phrase on disk.
    /// - Returns: the stored wallet's public details.
    /// - Throws: `KeystoreError` — `.invalidName`, `.emptyPassphrase`, `.walletExists`, `.io`.
    public func recover(name: String, mnemonic: Mnemonic, passphrase: SecretBytes) throws(KeystoreError) -> StoredWallet {
        try store(name: name, mnemonic: mnemonic, passphrase: passphrase)
    }

    /// Stores a wallet from a typed recovery phrase; errors name the word that is wrong.
    /// - Parameters:
    ///   - name: the wallet's name (see `validate(name:)`).
    ///   - phrase: the recovery phrase as typed (24 words).
    ///   - passphrase: encrypts the phrase on disk.
    /// - Returns: the stored wallet's public details.
    /// - Throws: `KeystoreError.invalidMnemonic` when the phrase is not valid, otherwise as
    ///   `recover(name:mnemonic:passphrase:)`.
    public func recover(name: String, phrase: String, passphrase: SecretBytes) throws(KeystoreError) -> StoredWallet {
        let mnemonic: Mnemonic
        do { mnemonic = try Mnemonic(phrase: phrase) } catch { throw .invalidMnemonic(error) }
        return try store(name: name, mnemonic: mnemonic, passphrase: passphrase)
    }

    private func store(
        name: String, mnemonic: Mnemonic, passphrase: SecretBytes,
        replacing: Bool = false, created: Date = Date()
    ) throws(KeystoreError) -> StoredWallet {
        try Keystore.validate(name: name)
        guard passphrase.count > 0 else { throw .emptyPassphrase }
        try prepareDirectories()
        let url = path(for: name)
        if !replacing && FileManager.default.fileExists(atPath: url.path) { throw .walletExists(name: name) }

        let key = mnemonic.signingKey()
        let salt = Random.bytes(Argon2id.saltCount)
        let nonce = Random.bytes(AES256GCM.nonceCount)
        var file = WalletFile(
            version: WalletFile.currentVersion, name: name, clientID: key.publicKey.clientID,
            publicKey: key.publicKey.hex, created: WalletFile.timestamp(created),
            kdf: .init(
                algorithm: WalletFile.kdfAlgorithm, opsLimit: kdfParameters.opsLimit,
                memLimit: kdfParameters.memLimitBytes, salt: Hex.encode(salt)),
            cipher: .init(algorithm: WalletFile.cipherAlgorithm, nonce: Hex.encode(nonce), ciphertext: ""),
            checksum: "")
        do {
            let aesKey = try Argon2id.deriveKey(password: passphrase, salt: salt, parameters: kdfParameters)
            var plain = Array(mnemonic.revealPhrase().utf8)
            defer { for i in plain.indices { plain[i] = 0 } }
            let sealed = try AES256GCM.sealCombined(plain, key: aesKey, nonce: nonce, aad: file.associatedData)
            file.cipher.ciphertext = Hex.encode(sealed)
        } catch {
            throw .crypto(error)
        }
        file.checksum = file.computedChecksum
        let encoded = try file.encoded()
        do {
            try AtomicFile.write(encoded, to: url, replace: replacing)
        } catch {
            switch error {
            case .exists: throw .walletExists(name: name)
            case .io(let path, let reason): throw .io(path: path, reason: reason)
            }
        }
        if defaultName == nil { try setDefault(name: name) }
        return StoredWallet(
            name: name, clientID: file.clientID, publicKey: key.publicKey,
            created: WalletFile.parseTimestamp(file.created) ?? created, path: url,
            kdfParameters: kdfParameters)
    }

    /// Creates `$MOSAIC_HOME` and `wallets/` with mode 0700 (and tightens `wallets/` if looser).
    private func prepareDirectories() throws(KeystoreError) {
        for dir in [home, walletsDirectory] {
            if mkdir(dir.path, 0o700) != 0 && errno != EEXIST {
                throw .io(path: dir.path, reason: AtomicFile.errnoText())
            }
        }
        guard chmod(walletsDirectory.path, 0o700) == 0 else {
            throw .io(path: walletsDirectory.path, reason: AtomicFile.errnoText())
        }
    }

    // MARK: reading

    /// Public details of every readable wallet (damaged files are left out; `wallet(named:)` explains them).
    /// - Returns: the wallets sorted by name.
    public func list() -> [StoredWallet] {
        names().compactMap { try? wallet(named: $0) }
    }

    /// Public details of one wallet, without its passphrase.
    /// - Parameter name: the wallet's name.
    /// - Returns: its name, client id, public key, creation time and file.
    /// - Throws: `KeystoreError` — `.unknownWallet` when there is none by that name, `.corrupted` or
    ///   `.unsupportedVersion` when its file cannot be trusted, `.io` when it cannot be read.
    public func wallet(named name: String) throws(KeystoreError) -> StoredWallet {
        try read(name: name).wallet
    }

    /// Decrypts a wallet. A wrong passphrase and a damaged file give different errors.
    /// - Parameters:
    ///   - name: the wallet's name.
    ///   - passphrase: the passphrase it was stored with.
    /// - Returns: the wallet with its phrase and signing key; keep it in memory only.
    /// - Throws: `KeystoreError.wrongPassphrase` for a wrong passphrase; `.corrupted`, `.unknownWallet`,
    ///   `.io` or `.crypto` otherwise.
    public func unlock(name: String, passphrase: SecretBytes) throws(KeystoreError) -> UnlockedWallet {
        let (file, stored) = try read(name: name)
        let p = stored.path.path
        // `read` checked that these decode.
        guard let salt = WalletFile.strictHex(file.kdf.salt), let nonce = WalletFile.strictHex(file.cipher.nonce),
            let sealed = WalletFile.strictHex(file.cipher.ciphertext)
        else {
            throw .corrupted(path: p, reason: "invalid hex")
        }
        var plain: [UInt8]
        do {
            let aesKey = try Argon2id.deriveKey(password: passphrase, salt: salt, parameters: stored.kdfParameters)
            plain = try AES256GCM.openCombined(sealed, key: aesKey, nonce: nonce, aad: file.associatedData)
        } catch .authenticationFailed {
            throw .wrongPassphrase(name: name)
        } catch {
            throw .crypto(error)
        }
        defer { for i in plain.indices { plain[i] = 0 } }
        let mnemonic: Mnemonic
        do { mnemonic = try Mnemonic(phrase: String(decoding: plain, as: UTF8.self)) } catch {
            throw .corrupted(path: p, reason: "the decrypted recovery phrase is invalid: \(error)")
        }
        let key = mnemonic.signingKey()
        guard key.publicKey == stored.publicKey else {
            throw .corrupted(path: p, reason: "the recovery phrase does not derive the recorded public key")
        }
        return UnlockedWallet(name: name, mnemonic: mnemonic, signingKey: key)
    }

    /// Reads, decodes and checks a wallet file without decrypting it.
    private func read(name: String) throws(KeystoreError) -> (file: WalletFile, wallet: StoredWallet) {
        try Keystore.validate(name: name)
        let url = path(for: name)
        let p = url.path
        guard FileManager.default.fileExists(atPath: p) else {
            throw .unknownWallet(name: name, available: names())
        }
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw .io(path: p, reason: "\(error.localizedDescription)")
        }
        guard data.count <= 1 << 20 else { throw .corrupted(path: p, reason: "it is \(data.count) bytes, far larger than a wallet") }
        guard !data.isEmpty else { throw .corrupted(path: p, reason: "it is empty") }
        let file: WalletFile
        do { file = try JSONDecoder().decode(WalletFile.self, from: data) } catch {
            throw .corrupted(path: p, reason: "it is not a complete wallet JSON document; it may be truncated")
        }
        guard file.version == WalletFile.currentVersion else { throw .unsupportedVersion(path: p, version: file.version) }
        guard file.checksum == file.computedChecksum else {
            throw .corrupted(path: p, reason: "its checksum does not match its contents, so it was altered or damaged")
        }
        guard file.name == name else {
            throw .corrupted(path: p, reason: "it holds wallet \"\(file.name)\" but is named \(name).json")
        }
        guard file.kdf.algorithm == WalletFile.kdfAlgorithm, file.cipher.algorithm == WalletFile.cipherAlgorithm else {
            throw .corrupted(path: p, reason: "unknown algorithm \(file.kdf.algorithm)/\(file.cipher.algorithm)")
        }
        guard WalletFile.strictHex(file.kdf.salt, count: Argon2id.saltCount) != nil,
            WalletFile.strictHex(file.cipher.nonce, count: AES256GCM.nonceCount) != nil,
            let sealed = WalletFile.strictHex(file.cipher.ciphertext), sealed.count > AES256GCM.tagCount
        else {
            throw .corrupted(path: p, reason: "salt, nonce or ciphertext is not valid lowercase hex of the right length")
        }
        guard let pk = Ed25519.PublicKey(hex: file.publicKey), pk.hex == file.publicKey, pk.clientID == file.clientID else {
            throw .corrupted(path: p, reason: "public_key and client_id do not match")
        }
        guard let created = WalletFile.parseTimestamp(file.created) else {
            throw .corrupted(path: p, reason: "created is not an ISO 8601 time")
        }
        let params = Argon2id.Parameters(opsLimit: file.kdf.opsLimit, memLimitBytes: file.kdf.memLimit)
        guard params.opsLimit >= 1, params.opsLimit <= 64, params.memLimitBytes >= 8192, params.memLimitBytes <= 4 << 30 else {
            throw .corrupted(path: p, reason: "Argon2id parameters out of range")
        }
        return (
            file,
            StoredWallet(
                name: name, clientID: file.clientID, publicKey: pk, created: created,
                path: url, kdfParameters: params)
        )
    }

    /// Re-encrypts a wallet under a new passphrase (new salt and nonce; the account is unchanged).
    /// The old file is replaced atomically, so a crash leaves either the old or the new one.
    /// - Parameters:
    ///   - name: the wallet's name.
    ///   - old: its current passphrase.
    ///   - new: the passphrase to store it under from now on.
    /// - Returns: the wallet's public details (its creation time is kept).
    /// - Throws: `KeystoreError` as `unlock(name:passphrase:)` for `old`, `.emptyPassphrase` for an
    ///   empty `new`, `.io` when the file cannot be replaced.
    public func changePassphrase(name: String, from old: SecretBytes, to new: SecretBytes) throws(KeystoreError) -> StoredWallet {
        let unlocked = try unlock(name: name, passphrase: old)
        let created = try wallet(named: name).created
        return try store(name: name, mnemonic: unlocked.mnemonic, passphrase: new, replacing: true, created: created)
    }

    /// Deletes a wallet file (and the default setting if it pointed there). Irreversible
    /// unless the user kept the recovery phrase.
    /// - Parameter name: the wallet's name.
    /// - Throws: `KeystoreError` — `.invalidName`, `.unknownWallet`, `.io` when the file cannot be removed.
    public func remove(name: String) throws(KeystoreError) {
        try Keystore.validate(name: name)
        let p = path(for: name).path
        guard FileManager.default.fileExists(atPath: p) else { throw .unknownWallet(name: name, available: names()) }
        guard unlink(p) == 0 else { throw .io(path: p, reason: AtomicFile.errnoText()) }
        if defaultName == name { unlink(defaultFile.path) }
        AtomicFile.syncDirectory(walletsDirectory.path)
    }

    // MARK: default wallet

    /// The default wallet's name (from `wallets/default`), or nil when none is set.
    public var defaultName: String? {
        guard let data = FileManager.default.contents(atPath: defaultFile.path) else { return nil }
        let name = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return (try? Keystore.validate(name: name)) != nil ? name : nil
    }

    /// Makes `name` the wallet used when none is named.
    /// - Parameter name: an existing wallet's name.
    /// - Throws: `KeystoreError.unknownWallet` when there is no such wallet, `.io` when the setting
    ///   cannot be written.
    public func setDefault(name: String) throws(KeystoreError) {
        try Keystore.validate(name: name)
        guard FileManager.default.fileExists(atPath: path(for: name).path) else {
            throw .unknownWallet(name: name, available: names())
        }
        try prepareDirectories()
        do {
            try AtomicFile.write(Array((name + "\n").utf8), to: defaultFile)
        } catch {
            throw .io(path: defaultFile.path, reason: error.description)
        }
    }

    /// `name` if given, else the default wallet; a clear error when neither exists.
    /// - Parameter name: the name the user gave, if any.
    /// - Returns: the name to use.
    /// - Throws: `KeystoreError.noDefaultWallet` when `name` is nil and no default is set.
    public func resolveName(_ name: String?) throws(KeystoreError) -> String {
        if let name { return name }
        if let d = defaultName { return d }
        throw .noDefaultWallet(available: names())
    }
}

extension Keystore {
    /// Convenience overloads for passphrases already held in a String.
    /// `create(name:passphrase:)` with a String passphrase (its UTF-8 bytes).
    /// - Throws: `KeystoreError`, as the `SecretBytes` overload.
    public func create(name: String, passphrase: String) throws(KeystoreError) -> (wallet: StoredWallet, mnemonic: Mnemonic) {
        try create(name: name, passphrase: SecretBytes(Array(passphrase.utf8)))
    }

    /// `recover(name:phrase:passphrase:)` with a String passphrase (its UTF-8 bytes).
    /// - Throws: `KeystoreError`, as the `SecretBytes` overload.
    public func recover(name: String, phrase: String, passphrase: String) throws(KeystoreError) -> StoredWallet {
        try recover(name: name, phrase: phrase, passphrase: SecretBytes(Array(passphrase.utf8)))
    }

    /// `unlock(name:passphrase:)` with a String passphrase (its UTF-8 bytes).
    /// - Throws: `KeystoreError`, as the `SecretBytes` overload.
    public func unlock(name: String, passphrase: String) throws(KeystoreError) -> UnlockedWallet {
        try unlock(name: name, passphrase: SecretBytes(Array(passphrase.utf8)))
    }
}
