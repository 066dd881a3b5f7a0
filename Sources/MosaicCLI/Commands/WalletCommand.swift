import Foundation
import MosaicCrypto
import MosaicProtocol
import MosaicSDK

/// `mosaic wallet …`: named wallets in the encrypted keystore, and (with a network) balance,
/// faucet, send and history.
enum WalletCommand {
    static var command: Command {
        Command(
            name: "wallet", summary: "create, recover and use wallets",
            subcommands: [create, recover, list, show, setDefault, reveal] + WalletLedgerCommands.all)
    }

    static let create = Command(
        name: "create", summary: "create a wallet: a new 24-word mnemonic and its keys",
        discussion: "The mnemonic is printed once. Write it down: it is the only way to recover the wallet.",
        examples: [
            "mosaic wallet create", "mosaic wallet create --name savings",
            "MOSAIC_PASSPHRASE=… mosaic wallet create --name ci --json",
        ],
        options: NewWalletName.self,
        action: { o, inv in
            let keystore = Keystore(home: inv.home, environment: inv.environment)
            let name = try o.checked(in: keystore)
            let passphrase = try PassphraseSource.resolve(
                passphraseFile: inv.global.passphraseFile, environment: inv.environment,
                prompt: "New passphrase for wallet \(name): ", confirm: true)
            let (wallet, mnemonic) = try keystore.create(name: name, passphrase: passphrase)
            let phrase = mnemonic.revealPhrase()
            let words = mnemonic.revealWords()
            var text = """
                Created wallet \(wallet.name)\(keystore.defaultName == wallet.name ? " (default)" : "")
                client id:   \(wallet.clientID)
                public key:  \(wallet.publicKey.hex)

                Recovery mnemonic (shown once; write it down and keep it offline):

                """
            for row in stride(from: 0, to: words.count, by: 4) {
                text +=
                    words[row..<min(row + 4, words.count)].enumerated().map { i, w in
                        let label = String(row + i + 1)
                        return String(repeating: " ", count: 3 - label.count) + label + ". "
                            + w.padding(toLength: 10, withPad: " ", startingAt: 0)
                    }.joined(separator: " ") + "\n"
            }
            text += "\nAnyone with these words controls the wallet's tokens and files."
            return CommandOutput(
                text: text,
                json: .object([
                    ("name", .string(wallet.name)), ("client_id", .string(wallet.clientID)),
                    ("public_key", .string(wallet.publicKey.hex)), ("mnemonic", .string(phrase)),
                    ("default", .bool(keystore.defaultName == wallet.name)),
                ]))
        })

    /// `--name` of a wallet about to be created or recovered.
    struct NewWalletName: CommandOptions {
        @Option("name", "NAME", help: "wallet name (default: \"default\")") var name = "default"

        /// The name, checked and not yet taken in `keystore`.
        func checked(in keystore: Keystore) throws -> String {
            try Keystore.validate(name: name)
            if keystore.names().contains(name) { throw KeystoreError.walletExists(name: name) }
            return name
        }
    }

    struct RecoverOptions: CommandOptions {
        var wallet = NewWalletName()
        @Option("mnemonic-file", "FILE", help: "read the mnemonic from FILE") var mnemonicFile: String?
    }

    static let recover = Command(
        name: "recover", summary: "recover a wallet from its 24-word mnemonic",
        discussion: "The mnemonic is read from --mnemonic-file, or from standard input (a prompt on a terminal).",
        examples: ["mosaic wallet recover --name restored --mnemonic-file words.txt"],
        options: RecoverOptions.self,
        action: { o, inv in
            let keystore = Keystore(home: inv.home, environment: inv.environment)
            let name = try o.wallet.checked(in: keystore)
            let phrase = try readMnemonic(file: o.mnemonicFile)
            let mnemonic: Mnemonic
            do throws(MnemonicError) { mnemonic = try Mnemonic(phrase: phrase) } catch { throw KeystoreError.invalidMnemonic(error) }
            let passphrase = try PassphraseSource.resolve(
                passphraseFile: inv.global.passphraseFile, environment: inv.environment,
                prompt: "New passphrase for wallet \(name): ", confirm: true)
            let wallet = try keystore.recover(name: name, mnemonic: mnemonic, passphrase: passphrase)
            return CommandOutput(
                text: "Recovered wallet \(wallet.name)\nclient id:   \(wallet.clientID)\npublic key:  \(wallet.publicKey.hex)",
                json: storedJSON(wallet, isDefault: keystore.defaultName == wallet.name))
        })

    static let list = Command(
        name: "list", summary: "list the wallets in this keystore",
        examples: ["mosaic wallet list", "mosaic wallet list --json"],
        action: { inv in
            let keystore = Keystore(home: inv.home, environment: inv.environment)
            let wallets = keystore.list()
            let def = keystore.defaultName
            var table = Table(["", "NAME", "CLIENT ID", "CREATED"])
            for w in wallets {
                table.add([w.name == def ? "*" : "", w.name, w.clientID, UTCTime.iso8601(Int64(w.created.timeIntervalSince1970))])
            }
            let text = wallets.isEmpty ? "no wallets yet; create one with 'mosaic wallet create'" : table.rendered()
            return CommandOutput(
                text: text,
                json: .object([
                    ("default", .optional(def)),
                    ("wallets", .array(wallets.map { storedJSON($0, isDefault: $0.name == def) })),
                ]))
        })

    static let show = Command(
        name: "show", summary: "show a wallet's client id and public key",
        usage: "[NAME]", examples: ["mosaic wallet show", "mosaic wallet show savings --json"],
        arguments: ["NAME"], minArguments: 0, maxArguments: 1,
        action: { inv in
            let keystore = Keystore(home: inv.home, environment: inv.environment)
            let name = try keystore.resolveName(inv.arguments.first ?? inv.global.wallet)
            let w = try keystore.wallet(named: name)
            let text = """
                name:        \(w.name)\(keystore.defaultName == w.name ? " (default)" : "")
                client id:   \(w.clientID)
                public key:  \(w.publicKey.hex)
                created:     \(UTCTime.iso8601(Int64(w.created.timeIntervalSince1970)))
                file:        \(w.path.path)
                """
            return CommandOutput(text: text, json: storedJSON(w, isDefault: keystore.defaultName == w.name))
        })

    static let setDefault = Command(
        name: "default", summary: "make a wallet the default one",
        usage: "NAME", examples: ["mosaic wallet default savings"],
        arguments: ["NAME"], minArguments: 1, maxArguments: 1,
        action: { inv in
            let keystore = Keystore(home: inv.home, environment: inv.environment)
            try keystore.setDefault(name: inv.arguments[0])
            let w = try keystore.wallet(named: inv.arguments[0])
            return CommandOutput(text: "\(w.name) is now the default wallet", json: storedJSON(w, isDefault: true))
        })

    static let reveal = Command(
        name: "reveal", summary: "print a wallet's mnemonic after checking its passphrase",
        usage: "[NAME]", examples: ["mosaic wallet reveal savings"],
        arguments: ["NAME"], minArguments: 0, maxArguments: 1,
        action: { inv in
            let keystore = Keystore(home: inv.home, environment: inv.environment)
            let name = try keystore.resolveName(inv.arguments.first ?? inv.global.wallet)
            _ = try keystore.wallet(named: name)
            let passphrase = try PassphraseSource.resolve(
                passphraseFile: inv.global.passphraseFile, environment: inv.environment,
                prompt: "Passphrase for wallet \(name): ")
            let wallet = try keystore.unlock(name: name, passphrase: passphrase)
            let phrase = wallet.mnemonic.revealPhrase()
            return CommandOutput(text: phrase, json: .object([("name", .string(name)), ("mnemonic", .string(phrase))]))
        })

    static func storedJSON(_ w: StoredWallet, isDefault: Bool) -> JSONValue {
        .object([
            ("name", .string(w.name)), ("client_id", .string(w.clientID)),
            ("public_key", .string(w.publicKey.hex)), ("created", .string(UTCTime.iso8601(Int64(w.created.timeIntervalSince1970)))),
            ("default", .bool(isDefault)),
        ])
    }

    /// The mnemonic from a file, or one line of standard input.
    static func readMnemonic(file: String?) throws -> String {
        if let file {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw CLIError.failure("cannot read mnemonic file \(file): no such file or not readable")
            }
            return String(decoding: data, as: UTF8.self)
        }
        if Console.isStdinTerminal {
            Console.err("Enter the 24-word mnemonic: ")
        }
        guard let line = readLine(strippingNewline: true), !line.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw CLIError.failure("no mnemonic given; pass --mnemonic-file FILE or type the words on standard input")
        }
        return line
    }
}
