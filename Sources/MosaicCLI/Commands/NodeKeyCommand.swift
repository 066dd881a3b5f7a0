import Foundation
import MosaicCrypto
import MosaicLedger
import MosaicProtocol

/// `mosaic node key --dir DIR`: the node's public key, made on first use, so that the genesis of
/// a chain several nodes share can list them all as producers before any of them starts.
enum NodeKeyCommand {
    static let command = Command(
        name: "key", summary: "print a node's public key (made in DIR/node.key on first use) for a genesis's producers",
        examples: ["mosaic node key --dir ./node1", "mosaic node key --dir ./node2 --json"],
        options: Options.self, action: { o, _ in try run(o) })

    struct Options: CommandOptions {
        @Option("dir", "DIR", help: "ledger directory of the node (created if missing)") var dir: String
    }

    static func run(_ o: Options) throws -> CommandOutput {
        do {
            try FileManager.default.createDirectory(atPath: o.dir, withIntermediateDirectories: true)
        } catch {
            throw CLIError.failure("cannot create \(o.dir): \(error.localizedDescription)")
        }
        let key: String
        do { key = try Ledger.nodeKey(directory: o.dir).publicKey.hex } catch {
            throw CLIError.coded(code: error.code, message: error.description)
        }
        return CommandOutput(
            text:
                "\(key)\n(the public key of \((o.dir as NSString).appendingPathComponent("node.key")); list it in the genesis \"producers\" of the chain this node may make blocks for)",
            json: .object([("node_key", .string(key)), ("dir", .string(o.dir))]))
    }
}
