import Foundation
import Testing

@Suite struct CommandLineBasicsTests {
    @Test func versionPrintsTextAndJSON() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let text = try await cli.run(["version"])
        #expect(text.code == 0)
        #expect(text.out.hasPrefix("mosaic "))
        let json = try await cli.run(["version", "--json"])
        #expect(json.code == 0)
        #expect(json.json["version"] as? String != nil)
    }

    @Test func helpListsCommandsAndExamples() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let top = try await cli.run(["--help"])
        #expect(top.code == 0)
        #expect(top.out.contains("network"))
        #expect(top.out.contains("version"))
        let sub = try await cli.run(["help", "network", "add"])
        #expect(sub.code == 0)
        #expect(sub.out.contains("Usage: mosaic network add NAME URL"))
        #expect(sub.out.contains("Examples:"))
    }

    @Test func unknownCommandSuggestsNearestAndExitsTwo() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let r = try await cli.run(["verison"])
        #expect(r.code == 2)
        #expect(r.err.contains("unknown command 'verison'"))
        #expect(r.err.contains("did you mean 'version'"))
    }

    @Test func unknownFlagSuggestsNearestAndExitsTwo() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let r = try await cli.run(["version", "--jsno"])
        #expect(r.code == 2)
        #expect(r.err.contains("unknown flag '--jsno'"))
        #expect(r.err.contains("did you mean --json"))
    }

    @Test func usageErrorsInJSONModeAreJSONObjects() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let r = try await cli.run(["network", "add", "--json"])
        #expect(r.code == 2)
        let error = r.json["error"] as? [String: Any]
        #expect(error?["code"] as? String == "usage")
        #expect((error?["message"] as? String)?.contains("needs NAME") == true)
    }
}

@Suite struct NetworkCommandTests {
    @Test func addUseShowAndListNetworks() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        #expect(try await cli.run(["network", "list"]).out.contains("no networks yet"))
        #expect(try await cli.run(["network", "add", "a", "http://127.0.0.1:7100/"]).code == 0)
        #expect(try await cli.run(["network", "add", "b", "http://127.0.0.1:7200", "--app", "http://127.0.0.1:7300"]).code == 0)
        let shown = try await cli.run(["network", "show", "--json"])
        #expect(shown.json["name"] as? String == "a")
        #expect(shown.json["node"] as? String == "http://127.0.0.1:7100")
        #expect(try await cli.run(["network", "use", "b"]).code == 0)
        let list = try await cli.run(["network", "list", "--json"])
        #expect(list.json["current"] as? String == "b")
        #expect((list.json["networks"] as? [Any])?.count == 2)
        let attrs = try FileManager.default.attributesOfItem(atPath: cli.home.appendingPathComponent("config.json").path)
        #expect((attrs[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test func badNetworkInputIsRefusedAndChangesNothing() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let badURL = try await cli.run(["network", "add", "x", "ftp://host"])
        #expect(badURL.code == 1)
        #expect(badURL.err.contains("invalid node URL"))
        let badName = try await cli.run(["network", "add", "bad name!", "http://127.0.0.1:1"])
        #expect(badName.code == 1)
        #expect(badName.err.contains("invalid network name"))
        let unknown = try await cli.run(["network", "use", "nowhere"])
        #expect(unknown.code == 1)
        #expect(unknown.err.contains("unknown network 'nowhere'"))
        #expect(!FileManager.default.fileExists(atPath: cli.home.appendingPathComponent("config.json").path))
        let missing = try await cli.run(["network", "add", "only-name"])
        #expect(missing.code == 2)
    }

    @Test func damagedConfigGivesClearErrorNamingTheFile() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try Data("{not json".utf8).write(to: cli.home.appendingPathComponent("config.json"))
        let r = try await cli.run(["network", "list"])
        #expect(r.code == 1)
        #expect(r.err.contains("config.json is corrupted"))
    }
}
