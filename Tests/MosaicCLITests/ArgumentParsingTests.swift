import Foundation
import Testing

@testable import MosaicCLI

/// The parser and the typed option declarations, called in process: each mistake's exact words
/// are pinned here, and the subprocess tests check the same through the binary.
@Suite struct ArgumentParsingTests {
    let root = RootCommand.tree

    /// The usage error `mosaic ARGS` stops with before anything runs, or nil when it parses.
    func usageError(_ args: [String]) -> String? {
        do {
            _ = try ArgumentParser(root: root).parse(args, environment: [:])
            return nil
        } catch let error as CLIError {
            guard case .usage(let message) = error else { return "not a usage error: \(error.description)" }
            return message
        } catch {
            return "unexpected \(error)"
        }
    }

    /// The command and invocation `mosaic ARGS` runs with.
    func parsed(_ args: [String]) throws -> (Command, Invocation) {
        switch try ArgumentParser(root: root).parse(args, environment: [:]) {
        case .run(let command, let inv): return (command, inv)
        case .help(let path): throw CLIError.failure("asked for help on \(path)")
        }
    }

    @Test func unknownCommandNamesTheNearestOne() {
        #expect(usageError(["walet"]) == "unknown command 'walet' for 'mosaic'; did you mean 'wallet'? (see 'mosaic --help')")
        #expect(
            usageError(["wallet", "sned"])
                == "unknown command 'sned' for 'mosaic wallet'; did you mean 'send'? (see 'mosaic wallet --help')")
        #expect(
            usageError(["wallet"])
                == "'mosaic wallet' needs a subcommand: create, recover, list, show, default, reveal, balance, faucet, send, txns, tx")
    }

    @Test func unknownOptionNamesTheNearestOne() {
        #expect(usageError(["wallet", "send", "--too", "x"]) == "unknown flag '--too' for 'mosaic wallet send'; did you mean --to?")
        #expect(usageError(["version", "--jsno"]) == "unknown flag '--jsno' for 'mosaic version'; did you mean --json?")
        #expect(usageError(["version", "-x"]) == "unknown flag '-x' for 'mosaic version'; flags start with -- (see --help)")
    }

    @Test func missingValuesAndOptions() {
        #expect(usageError(["wallet", "send", "--to"]) == "--to needs a value (CLIENT_ID)")
        #expect(usageError(["wallet", "send", "--to", "ab"]) == "missing --amount for 'mosaic wallet send'; see 'mosaic help wallet send'")
        #expect(usageError(["node"]) == "missing --dir for 'mosaic node'; see 'mosaic help node'")
        #expect(usageError(["network", "add"]) == "'mosaic network add' needs NAME (usage: mosaic network add NAME URL [URL...])")
        // Several node URLs of one chain are fine, up to 16.
        #expect(usageError(["network", "add", "a", "b", "c"]) == nil)
        #expect(
            usageError(["network", "add", "a"] + (1...17).map { "u\($0)" })
                == "'mosaic network add' got an unexpected argument 'u17' (usage: mosaic network add NAME URL [URL...])")
        #expect(usageError(["upload", "--replace=yes", "a", "b"]) == "--replace takes no value")
        #expect(usageError(["alloc", "new", "--name", "a", "--name", "b"]) == "--name given more than once")
    }

    @Test func listenAddressesAreIPv4OrBracketedIPv6() {
        let node = ["node", "--dir", "/tmp/n", "--listen"]
        #expect(usageError(node + ["0.0.0.0:7100"]) == nil)
        #expect(usageError(node + ["[::]:7100"]) == nil)
        #expect(usageError(node + ["[fd00::5]:7100"]) == nil)
        #expect(usageError(node + ["::1:7100"]) == "--listen ::1:7100: put an IPv6 address in brackets, e.g. [::1]:7100")
        #expect(usageError(node + ["[::g]:7100"]) == "--listen [::g]:7100: ::g is not an IPv6 address (give e.g. [::] or [fd00::5])")
        #expect(
            usageError(node + ["node.example.org:7100"])
                == "--listen node.example.org:7100: node.example.org is not an IP address (give e.g. 0.0.0.0, 10.0.0.5 or [::])")
        #expect(usageError(node + ["7100"]) == "--listen 7100: give HOST:PORT, e.g. 0.0.0.0:7100, 10.0.0.5:5051 or [::]:7100")
    }

    @Test func badNumbersAndRangesAreRefusedByTheOptionsType() {
        let terms = ["--size", "1GiB", "--expire", "30d"]
        #expect(usageError(["alloc", "new", "--data", "x", "--parity", "1"] + terms) == "--data x: give a number from 1 to 64")
        #expect(usageError(["alloc", "new", "--data", "65", "--parity", "1"] + terms) == "--data 65: give a number from 1 to 64")
        #expect(usageError(["alloc", "new", "--data", "0", "--parity", "1"] + terms) == "--data 0: give a number from 1 to 64")
        #expect(usageError(["alloc", "new", "--data", "2", "--parity", "-1"] + terms) == "--parity -1: give a number from 0 to 64")
        #expect(
            usageError(["alloc", "new", "--data", "2", "--parity", "1", "--size", "1XB", "--expire", "30d"])
                == "--size 1XB: give a size such as 1048576, 64KiB, 10MiB or 1GiB")
        #expect(
            usageError(["alloc", "new", "--data", "2", "--parity", "1", "--size", "1GiB", "--expire", "500ms"])
                == "--expire 500ms: give a duration such as 1h, 30d or 52w")
        #expect(usageError(["alloc", "update", "ID", "--lock", "abc"]) == "--lock abc: give a token amount such as 1, 0.5 or 0.001")
        #expect(
            usageError(["node", "--dir", "d", "--port", "65536"]) == "--port 65536: give a port number from 0 to 65535 (0 picks a free one)"
        )
        #expect(usageError(["devnet", "--app-port", "-1"]) == "--app-port -1: give a port number from 0 to 65535 (0 picks a free one)")
        #expect(
            usageError(["node", "--dir", "d", "--confirmations", "1001"]) == "--confirmations 1001: give a number of blocks from 0 to 1000")
        #expect(
            usageError(["node", "--dir", "d", "--block-time", "soon"]) == "--block-time soon: give a duration such as 0, 500ms, 1s or 2s")
        #expect(usageError(["devnet", "--blobbers", "33"]) == "--blobbers 33: give a number from 0 to 32")
        #expect(usageError(["wallet", "txns", "--limit", "1001"]) == "--limit 1001: give a whole number from 0 to 1000")
        #expect(usageError(["wallet", "txns", "--offset", "-1"]) == "--offset -1: give a whole number from 0 to 2147483647")
        #expect(usageError(["wallet", "tx", "H", "--wait", "pending"]) == "--wait pending: use finalized or sealed")
        #expect(usageError(["notes", "list", "--limit", "0"]) == "--limit 0: give a whole number from 1 to 500")
        #expect(usageError(["notes", "list", "--after", "x"]) == "--after x: give a whole number")
        #expect(usageError(["notes", "create", "--gas", "0"]) == "--gas 0: give a whole number of gas units, e.g. 5000")
        #expect(usageError(["social", "vote", "A/p", "--weight", "10001"]) == "--weight 10001: give a whole number from -10000 to 10000")
        #expect(usageError(["social", "feed", "--limit", "101"]) == "--limit 101: give a number from 1 to 100")
        #expect(usageError(["social", "feed", "--sort", "best"]) == "--sort best: use trending, hot or created")
        #expect(usageError(["social", "feed", "--round", "r"]) == "--round r: give a round number")
        #expect(usageError(["download", "--range", "9-1", "R", "L"]) == "--range 9-1: give first and last byte, e.g. 0-1048575")
        for bad in ["x", "0,", "-1", "64", "1,,2"] {
            #expect(
                usageError(["download", "--prefer", bad, "R", "L"])
                    == "--prefer \(bad): give blobber indices 0–63 separated by commas, e.g. 0,2 (0 is the first blobber mosaic alloc show lists)"
            )
        }
        for bad in ["2", "1000", "fast", "2MiB/h", "-1MiB/s", "99999999999999999999"] {
            #expect(
                usageError(["upload", "--limit-rate", bad, "L", "R"])
                    == "--limit-rate \(bad): give bytes per second such as 500KiB/s, 2MiB/s or 10MB/s (at least 1KiB/s)")
        }
    }

    @Test func valuesArriveTyped() throws {
        let (_, inv) = try parsed([
            "alloc", "new", "--data", "4", "--parity=2", "--size", "10GiB", "--expire", "90d", "--lock", "1.5", "--json", "--wallet", "w",
        ])
        let o = try AllocCommand.NewOptions.bind(inv.words)
        #expect(o.data.value == 4)
        #expect(o.parity.value == 2)
        #expect(o.size.bytes == 10 << 30)
        #expect(o.expire.seconds == 90 * 86_400)
        #expect(o.lock.map { "\($0)" } == "1.5")
        #expect(o.name == nil)
        #expect(inv.json)
        #expect(inv.global.wallet == "w")

        let (_, post) = try parsed(["social", "post", "--title", "T", "--tag", "a", "--tag", "b", "--for", "U"])
        let p = try SocialCommand.PostOptions.bind(post.words)
        #expect(p.tags == ["a", "b"])
        #expect(p.metadata == "")
        #expect(p.acting.user == "U")

        let (_, down) = try parsed(["download", "--prefer", "3,0,3", "R", "L"])
        #expect(try FileCommands.DownloadOptions.bind(down.words).prefer?.indices == [3, 0])
        for (text, rate) in [("2MiB/s", 2 << 20), ("500KiB", 500 << 10), ("10MB/s", 10_000_000), ("1024", 1024)] {
            let (_, up) = try parsed(["upload", "--limit-rate", text, "L", "R"])
            #expect(try FileCommands.UploadOptions.bind(up.words).limitRate?.bytesPerSecond == Int64(rate))
        }

        let (_, txns) = try parsed(["wallet", "txns"])
        let t = try WalletLedgerCommands.HistoryOptions.bind(txns.words)
        #expect(t.limit.value == 20)
        #expect(t.offset.value == 0)
    }

    @Test func helpComesFromTheDeclarations() throws {
        let help = try HelpPrinter.help(for: ["alloc", "update"], root: root)
        #expect(
            help == """
                mosaic alloc update — extend, grow, add a blobber to, or add tokens to an allocation

                Usage: mosaic alloc update ID [flags]

                Flags:
                  --extend DURATION  move the expiration later
                  --grow SIZE        add user bytes
                  --add-blobber ID   add one more blobber
                  --lock TOKENS      tokens to add to the write pool

                Global flags:
                  --json                  print one JSON object instead of text
                  --home DIR              Mosaic home folder (default $MOSAIC_HOME or ~/.mosaic)
                  --wallet NAME           act for this wallet instead of the default one
                  --network NAME          use this network from the config instead of the current one
                  --passphrase-file FILE  read the wallet passphrase from FILE (or set MOSAIC_PASSPHRASE)
                  --help                  show help for the command

                Examples:
                  mosaic alloc update ID --extend 30d
                  mosaic alloc update ID --grow 1GiB --lock 1
                  mosaic alloc update ID --add-blobber BLOBBER_ID

                """)
        let shared = try HelpPrinter.help(for: ["ls"], root: root)
        #expect(shared.contains("  --alloc ID       allocation id, unique prefix or name (default: the wallet's only active one)\n"))
        #expect(shared.contains("  -r, --recursive  everything below PATH\n"))
        #expect(
            try HelpPrinter.help(for: ["wallet", "faucet"], root: root).contains(
                "  --timeout DURATION  how long to wait for sealing (default 60s)\n"))
    }

    @Test func everyCommandDeclaresEachOptionOnceAndApartFromTheGlobalOnes() {
        let global = Set(GlobalOptions.all.map(\.name))
        #expect(global == ["json", "home", "wallet", "network", "passphrase-file", "help"])
        func walk(_ c: Command, _ path: [String]) {
            let names = c.flags.map(\.name)
            #expect(Set(names).count == names.count, "mosaic \(path.joined(separator: " ")) declares an option twice: \(names)")
            #expect(global.isDisjoint(with: names), "mosaic \(path.joined(separator: " ")) redeclares a global option")
            for sub in c.subcommands { walk(sub, path + [sub.name]) }
        }
        walk(root, [])
    }

    @Test func propertyNamesBecomeKebabCaseOptionNames() {
        #expect(NoOptions.kebabCase("writePrice") == "write-price")
        #expect(NoOptions.kebabCase("publicURL") == "public-url")
        #expect(NoOptions.kebabCase("tlsCert") == "tls-cert")
        #expect(NoOptions.kebabCase("ca") == "ca")
        #expect(AllocCommand.NewOptions.flags.map(\.name) == ["data", "parity", "size", "expire", "lock", "name"])
        #expect(AllocCommand.NewOptions.flags.map { $0.valueName ?? "" } == ["D", "P", "SIZE", "DURATION", "TOKENS", "NAME"])
    }
}
