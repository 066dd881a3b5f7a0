import Foundation
import Glibc
import MosaicCrypto
import Testing

@testable import MosaicSDK

/// A fresh temp folder per test, removed afterwards.
final class TempHome {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("mosaic-ks-" + Hex.encode(Random.bytes(8)), isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
}

@Suite struct KeystoreTests {
    let temp: TempHome
    let store: Keystore

    init() throws {
        temp = try TempHome()
        store = Keystore(home: temp.url.appendingPathComponent("home"), kdfParameters: .testing)
    }

    @Test func createThenUnlockRoundTrip() throws {
        let (wallet, mnemonic) = try store.create(name: "alice", passphrase: "hunter22")
        #expect(mnemonic.wordCount == 24)
        #expect(wallet.name == "alice")
        let unlocked = try store.unlock(name: "alice", passphrase: "hunter22")
        #expect(unlocked.mnemonic == mnemonic)
        #expect(unlocked.clientID == wallet.clientID)
        #expect(unlocked.publicKey == wallet.publicKey)
        let msg = Array("tx".utf8)
        #expect(wallet.publicKey.isValidSignature(unlocked.signingKey.signature(for: msg), for: msg))
        // The file never holds the phrase in clear and records its KDF cost.
        let text = try String(contentsOf: wallet.path, encoding: .utf8)
        #expect(!text.contains(mnemonic.revealWords()[0] + " " + mnemonic.revealWords()[1]))
        #expect(text.contains("\"ops_limit\" : 1") && text.contains(wallet.clientID))
        #expect(try store.wallet(named: "alice") == wallet)
    }

    @Test func recoverGivesTheDocumentedAccount() throws {
        let phrase = Array(repeating: "abandon", count: 23).joined(separator: " ") + " art"
        let w = try store.recover(name: "vector", phrase: phrase, passphrase: "pw")
        #expect(w.clientID == "3c2580b8ceac726c77974e646456cccf89fdb89b7a7a705ae50e68fae9897801")
        #expect(throws: KeystoreError.invalidMnemonic(.checksumMismatch)) {
            try store.recover(name: "bad", phrase: Array(repeating: "abandon", count: 24).joined(separator: " "), passphrase: "pw")
        }
    }

    @Test func wrongPassphraseHasExactMessage() throws {
        _ = try store.create(name: "bob", passphrase: "right")
        do {
            _ = try store.unlock(name: "bob", passphrase: "wrong")
            Issue.record("unlocked with a wrong passphrase")
        } catch {
            #expect(error == .wrongPassphrase(name: "bob"))
            #expect(error.description == "wrong passphrase for wallet bob")
        }
    }

    @Test func truncatedFileIsReportedAsCorrupted() throws {
        let (w, _) = try store.create(name: "carol", passphrase: "pw")
        let data = try Data(contentsOf: w.path)
        for cut in [0, 1, data.count / 2, data.count - 3] {
            try data.prefix(cut).write(to: w.path)
            do {
                _ = try store.unlock(name: "carol", passphrase: "pw")
                Issue.record("unlocked a truncated file (\(cut) bytes)")
            } catch {
                guard case .corrupted(let path, _) = error else {
                    Issue.record("cut \(cut): \(error)")
                    continue
                }
                #expect(path == w.path.path)
                #expect(error.description.hasPrefix("wallet file \(w.path.path) is corrupted ("))
                #expect(error.description.hasSuffix("; restore it from a backup or recover the wallet from its mnemonic"))
            }
        }
    }

    /// Every single flipped byte is detected as damage naming the file, never as a wrong passphrase.
    @Test func everyFlippedByteIsDetected() throws {
        let (w, _) = try store.create(name: "dave", passphrase: "pw")
        let original = [UInt8](try Data(contentsOf: w.path))
        for i in original.indices {
            var bytes = original
            bytes[i] ^= 0x01
            try Data(bytes).write(to: w.path)
            do {
                _ = try store.unlock(name: "dave", passphrase: "pw")
                Issue.record("flip at \(i) went unnoticed")
            } catch {
                switch error {
                case .corrupted(let path, _), .unsupportedVersion(let path, _):
                    #expect(path == w.path.path)
                    #expect(error.description.contains(w.path.path))
                default:
                    Issue.record("flip at \(i) gave \(error)")
                }
            }
        }
        try Data(original).write(to: w.path)
        #expect(try store.unlock(name: "dave", passphrase: "pw").name == "dave")
    }

    @Test func filesArePrivate() throws {
        let (w, _) = try store.create(name: "erin", passphrase: "pw")
        var st = stat()
        #expect(stat(w.path.path, &st) == 0)
        #expect(st.st_mode & 0o777 == 0o600)
        #expect(stat(store.walletsDirectory.path, &st) == 0)
        #expect(st.st_mode & 0o777 == 0o700)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: store.walletsDirectory.path).filter { $0.contains("tmp") }
        #expect(leftovers.isEmpty)
    }

    @Test func severalWalletsAndDefault() throws {
        #expect(store.defaultName == nil)
        #expect(throws: KeystoreError.noDefaultWallet(available: [])) { try store.resolveName(nil) }
        _ = try store.create(name: "main", passphrase: "a")
        _ = try store.create(name: "savings_2", passphrase: "b")
        #expect(store.defaultName == "main")
        try store.setDefault(name: "savings_2")
        #expect(store.defaultName == "savings_2")
        #expect(try store.resolveName(nil) == "savings_2")
        #expect(store.names() == ["main", "savings_2"])
        #expect(store.list().map(\.name) == ["main", "savings_2"])
        #expect(throws: KeystoreError.walletExists(name: "main")) { try store.create(name: "main", passphrase: "c") }
        do {
            _ = try store.unlock(name: "nope", passphrase: "a")
            Issue.record("unknown wallet unlocked")
        } catch {
            #expect(error == .unknownWallet(name: "nope", available: ["main", "savings_2"]))
            #expect(error.description.contains("main, savings_2"))
        }
        #expect(throws: KeystoreError.unknownWallet(name: "ghost", available: ["main", "savings_2"])) {
            try store.setDefault(name: "ghost")
        }
        for bad in ["", "has space", "../etc", String(repeating: "x", count: 65), "é"] {
            #expect(throws: KeystoreError.invalidName(bad)) { try store.create(name: bad, passphrase: "a") }
        }
        #expect(throws: KeystoreError.emptyPassphrase) { try store.create(name: "empty", passphrase: "") }
        // Each wallet opens only with its own passphrase.
        #expect(try store.unlock(name: "savings_2", passphrase: "b").name == "savings_2")
        #expect(throws: KeystoreError.wrongPassphrase(name: "main")) { try store.unlock(name: "main", passphrase: "b") }
    }

    @Test func changePassphraseKeepsTheAccount() throws {
        let (w, m) = try store.create(name: "henry", passphrase: "old")
        let changed = try store.changePassphrase(name: "henry", from: SecretBytes(Array("old".utf8)), to: SecretBytes(Array("new".utf8)))
        #expect(changed.clientID == w.clientID)
        #expect(abs(changed.created.timeIntervalSince(w.created)) < 1)
        #expect(throws: KeystoreError.wrongPassphrase(name: "henry")) { try store.unlock(name: "henry", passphrase: "old") }
        #expect(try store.unlock(name: "henry", passphrase: "new").mnemonic == m)
        #expect(throws: KeystoreError.wrongPassphrase(name: "henry")) {
            try store.changePassphrase(name: "henry", from: SecretBytes(Array("old".utf8)), to: SecretBytes(Array("x".utf8)))
        }
    }

    @Test func removeDeletesWalletAndDefault() throws {
        _ = try store.create(name: "gone", passphrase: "pw")
        #expect(store.defaultName == "gone")
        try store.remove(name: "gone")
        #expect(store.names().isEmpty && store.defaultName == nil)
        #expect(throws: KeystoreError.unknownWallet(name: "gone", available: [])) { try store.remove(name: "gone") }
    }

    @Test func homeComesFromEnvironment() {
        let ks = Keystore(environment: ["MOSAIC_HOME": "/tmp/mh", "HOME": "/home/u"])
        #expect(ks.walletsDirectory.path == "/tmp/mh/wallets")
        #expect(ks.kdfParameters == .moderate)
        #expect(Keystore(environment: ["HOME": "/home/u"]).home.path == "/home/u/.mosaic")
    }

    @Test func configSavesIntoAHomeThatDoesNotExistYet() throws {
        let home = temp.url.appendingPathComponent("fresh/.mosaic", isDirectory: true)
        try ClientConfig(current: "devnet", networks: [.init(name: "devnet", node: "http://127.0.0.1:7100")]).save(home: home)
        #expect(try ClientConfig.load(home: home).current == "devnet")
        let mode = try FileManager.default.attributesOfItem(atPath: home.path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o700)
    }

    @Test func unlockedWalletIsRedacted() throws {
        let (_, mnemonic) = try store.create(name: "frank", passphrase: "pw")
        let u = try store.unlock(name: "frank", passphrase: "pw")
        let word = mnemonic.revealWords()[0] + " " + mnemonic.revealWords()[1]
        let seedHex = Hex.encode(u.signingKey.seed.copyBytes())
        var dumped = ""
        dump(u, to: &dumped)
        for text in ["\(u)", String(reflecting: u), dumped, "\(mnemonic)", String(reflecting: mnemonic)] {
            #expect(!text.contains(word) && !text.contains(seedHex))
        }
    }
}

@Suite struct PassphraseSourceTests {
    @Test func fromFileStripsOneTrailingNewline() throws {
        let temp = try TempHome()
        let f = temp.url.appendingPathComponent("pw")
        try Data("s3cret pass\n".utf8).write(to: f)
        #expect(try PassphraseSource.file(path: f.path).read() == SecretBytes(Array("s3cret pass".utf8)))
        try Data("crlf\r\n".utf8).write(to: f)
        #expect(try PassphraseSource.resolve(passphraseFile: f.path, environment: [:]) == SecretBytes(Array("crlf".utf8)))
        try Data("\n".utf8).write(to: f)
        #expect(throws: PassphraseError.empty(source: f.path)) { try PassphraseSource.file(path: f.path).read() }
        #expect(throws: PassphraseError.fileUnreadable(path: "/nonexistent/pw", reason: "no such file")) {
            try PassphraseSource.file(path: "/nonexistent/pw").read()
        }
    }

    @Test func fromEnvironment() throws {
        let env = ["MOSAIC_PASSPHRASE": "from env"]
        #expect(try PassphraseSource.resolve(passphraseFile: nil, environment: env) == SecretBytes(Array("from env".utf8)))
        #expect(throws: PassphraseError.environmentNotSet(variable: "X")) {
            try PassphraseSource.environment(variable: "X").read(environment: [:])
        }
    }

    @Test func promptWithoutTerminalIsAClearError() throws {
        guard isatty(STDIN_FILENO) != 1 else { return }  // only meaningful when tests run without a TTY
        #expect(throws: PassphraseError.notATerminal) { try PassphraseSource.resolve(passphraseFile: nil, environment: [:]) }
        #expect(PassphraseError.notATerminal.description.contains("MOSAIC_PASSPHRASE"))
    }
}
