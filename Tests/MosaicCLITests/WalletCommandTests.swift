import Foundation
import Testing

/// The 24-word phrase of all-zero entropy; its keys are the vector in docs/PROTOCOL.md.
let zeroPhrase = Array(repeating: "abandon", count: 23).joined(separator: " ") + " art"

@Suite struct WalletCommandTests: DevnetCLITesting {
    @Test func createPrintsKeysAndMnemonicOnceAndBecomesDefault() async throws {
        let cli = try cli()
        defer { cli.cleanup() }
        let r = try await cli.run(["wallet", "create", "--json"])
        #expect(r.code == 0)
        let words = (r.json["mnemonic"] as? String)?.split(separator: " ") ?? []
        #expect(words.count == 24)
        let clientID = try #require(r.json["client_id"] as? String)
        #expect(clientID.count == 64)
        #expect(r.json["default"] as? Bool == true)
        // The mnemonic never appears again: not in show, not in list, not in the file in clear.
        let show = try await cli.run(["wallet", "show"])
        #expect(show.out.contains(clientID))
        #expect(!show.out.contains(String(words[0] + " " + words[1])))
        let file = try String(contentsOf: cli.home.appendingPathComponent("wallets/default.json"), encoding: .utf8)
        #expect(!file.contains(words.joined(separator: " ")))
        let attrs = try FileManager.default.attributesOfItem(atPath: cli.home.appendingPathComponent("wallets/default.json").path)
        #expect((attrs[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let text = try await cli.run(["wallet", "create", "--name", "second"])
        #expect(text.out.contains("write it down"))
        #expect(text.out.contains(" 24. "))
    }

    @Test func recoverFromFileGivesTheDocumentedKeys() async throws {
        let cli = try cli()
        defer { cli.cleanup() }
        let file = cli.home.appendingPathComponent("words.txt")
        try Data((zeroPhrase + "\n").utf8).write(to: file)
        let r = try await cli.run(["wallet", "recover", "--name", "zero", "--mnemonic-file", file.path, "--json"])
        #expect(r.code == 0)
        #expect(r.json["client_id"] as? String == "3c2580b8ceac726c77974e646456cccf89fdb89b7a7a705ae50e68fae9897801")
        #expect(r.json["public_key"] as? String == "60ab5a95f4186d2a21d82eece8c58b32e6485b72442dd10fb66372d7b3e8283e")
        let fromStdin = try await cli.run(["wallet", "recover", "--name", "zero2", "--json"], stdin: zeroPhrase + "\n")
        #expect(fromStdin.json["client_id"] as? String == "3c2580b8ceac726c77974e646456cccf89fdb89b7a7a705ae50e68fae9897801")
        let revealed = try await cli.run(["wallet", "reveal", "zero", "--json"])
        #expect(revealed.json["mnemonic"] as? String == zeroPhrase)
    }

    @Test func recoverExplainsAWrongWordAndABadChecksum() async throws {
        let cli = try cli()
        defer { cli.cleanup() }
        let typo = zeroPhrase.replacingOccurrences(of: " art", with: " artt")
        let r = try await cli.run(["wallet", "recover"], stdin: typo + "\n")
        #expect(r.code == 1)
        #expect(r.err.contains("artt"))
        #expect(r.err.contains("art"))
        let badSum = Array(repeating: "abandon", count: 24).joined(separator: " ")
        let c = try await cli.run(["wallet", "recover"], stdin: badSum + "\n")
        #expect(c.code == 1)
        #expect(c.err.contains("checksum"))
        let listed = try await cli.run(["wallet", "list", "--json"]).json["wallets"] as? [Any]
        #expect(listed == nil || listed?.isEmpty == true)
    }

    @Test func listShowAndDefaultAcrossSeveralWallets() async throws {
        let cli = try cli()
        defer { cli.cleanup() }
        let a = try await cli.run(["wallet", "create", "--name", "a", "--json"]).json
        let b = try await cli.run(["wallet", "create", "--name", "b", "--json"]).json
        let list = try await cli.run(["wallet", "list", "--json"]).json
        #expect(list["default"] as? String == "a")
        #expect((list["wallets"] as? [[String: Any]])?.map { $0["name"] as? String } == ["a", "b"])
        #expect(try await cli.run(["wallet", "default", "b"]).code == 0)
        let shown = try await cli.run(["wallet", "show", "--json"]).json
        #expect(shown["client_id"] as? String == b["client_id"] as? String)
        let named = try await cli.run(["wallet", "show", "--wallet", "a", "--json"]).json
        #expect(named["client_id"] as? String == a["client_id"] as? String)
    }

    @Test func mistakesGetClearErrorsAndChangeNothing() async throws {
        let cli = try cli()
        defer { cli.cleanup() }
        #expect(try await cli.run(["wallet", "create", "--name", "a"]).code == 0)
        let exists = try await cli.run(["wallet", "create", "--name", "a"])
        #expect(exists.code == 1)
        #expect(exists.err.contains("already exists"))
        let badName = try await cli.run(["wallet", "create", "--name", "../evil"])
        #expect(badName.code == 1)
        #expect(badName.err.contains("is not allowed"))
        let unknown = try await cli.run(["wallet", "show", "nobody"])
        #expect(unknown.code == 1)
        #expect(unknown.err.contains("the wallets here are: a"))
        let noDefault = try await cli.run(["wallet", "default"])
        #expect(noDefault.code == 2)
        var wrong = cli
        wrong.environment["MOSAIC_PASSPHRASE"] = "not it"
        let w = try await wrong.run(["wallet", "reveal", "a"])
        #expect(w.code == 1)
        #expect(w.err == "error: wrong passphrase for wallet a\n")
        let noPass = try CLIRunner()
        defer { noPass.cleanup() }
        let np = try await noPass.run(["wallet", "create"])
        #expect(np.code == 1)
        #expect(np.err.contains("MOSAIC_PASSPHRASE") || np.err.contains("passphrase"))
    }

    @Test func corruptedWalletFileIsNamedInTheError() async throws {
        let cli = try cli()
        defer { cli.cleanup() }
        #expect(try await cli.run(["wallet", "create", "--name", "a"]).code == 0)
        let path = cli.home.appendingPathComponent("wallets/a.json")
        let bytes = try Data(contentsOf: path)
        try bytes.prefix(bytes.count / 2).write(to: path)
        let r = try await cli.run(["wallet", "reveal", "a"])
        #expect(r.code == 1)
        #expect(r.err.contains("a.json is corrupted"))
    }
}
