import Foundation
import MosaicHTTP
import MosaicProtocol
import MosaicSDK

/// `mosaic network list|add|use|show`: which ledger node the client talks to.
enum NetworkCommand {
    static let command = Command(
        name: "network", summary: "list, add, switch and show networks",
        subcommands: [list, add, use, show])

    static let list = Command(
        name: "list", summary: "list the networks this client knows",
        examples: ["mosaic network list"],
        action: { inv in
            let config = try ClientConfig.load(home: inv.home)
            var table = Table(["", "NAME", "NODE", "APP"])
            for n in config.networks {
                let more = n.fallbackNodes.map { " (+\($0.count) more)" } ?? ""
                table.add([n.name == config.current ? "*" : "", n.name, n.node + more, n.app ?? "-"])
            }
            let text =
                config.networks.isEmpty
                ? "no networks yet; start one with 'mosaic devnet' or add one with 'mosaic network add NAME URL'"
                : table.rendered()
            return CommandOutput(
                text: text,
                json: .object([
                    ("current", .optional(config.current)),
                    ("networks", .array(try config.networks.map(json))),
                ]))
        })

    static let add = Command(
        name: "add", summary: "add a network (or change its URL)",
        usage: "NAME URL [URL...]",
        discussion: """
            More than one URL names several nodes of the same chain: the first is used, and when it stops
            answering the client goes on with the next. Plain http:// to a node that is not on loopback is refused unless --insecure is given: traffic to
            another machine is encrypted by default. A node on https:// with a certificate from a private CA
            needs --ca FILE (that CA's PEM certificate); it is trusted beside the system CAs.
            """,
        examples: [
            "mosaic network add staging https://node.example.org:7100",
            "mosaic network add lab https://10.0.0.5:7100 --ca ./lab-ca.pem",
            "mosaic network add lan http://10.0.0.5:7100 --insecure",
            "mosaic network add prod https://n1.example.org:7100 https://n2.example.org:7100 https://n3.example.org:7100",
        ],
        options: AddOptions.self, arguments: ["NAME", "URL", "URL…"], minArguments: 2, maxArguments: 1 + maxNodes,
        action: { o, inv in
            let name = inv.arguments[0]
            let urls = Array(inv.arguments.dropFirst())
            guard ClientConfig.Network.isValidName(name) else { throw ConfigError.invalidName(name) }
            for url in urls {
                guard ClientConfig.Network.isValidURL(url) else { throw ConfigError.invalidURL(url) }
                if !o.insecure, let u = URL(string: url), (try? TLSTrust.check(u)) == nil { throw ConfigError.plainHTTPRefused(url) }
            }
            if let app = o.app, !ClientConfig.Network.isValidURL(app) { throw ConfigError.invalidURL(app) }
            var ca: String?
            if let file = o.ca {
                let path = URL(fileURLWithPath: file).standardizedFileURL.path
                do { try TLSTrust.addAuthority(file: path) } catch { throw ConfigError.unusableCA(path: path, reason: "\(error)") }
                ca = path
            }
            var config = try ClientConfig.load(home: inv.home)
            let nodes = urls.map(ClientConfig.Network.trimmed)
            let network = ClientConfig.Network(
                name: name, node: nodes[0], app: o.app.map(ClientConfig.Network.trimmed), ca: ca,
                insecure: o.insecure ? true : nil, fallbackNodes: Array(nodes.dropFirst()))
            config.upsert(network)
            try config.save(home: inv.home)
            return CommandOutput(
                text: "added network \(name) (\(network.node))" + (config.current == name ? "; it is now the current network" : ""),
                json: try json(network))
        })

    /// The most node URLs one network lists.
    static let maxNodes = 16

    struct AddOptions: CommandOptions {
        @Option("app", "URL", help: "URL of the network's web app") var app: String?
        @Option("ca", "FILE", help: "CA certificate (PEM) trusted beside the system CAs for this network") var ca: String?
        @Flag("insecure", help: "allow plain http:// beyond loopback (no encryption)") var insecure: Bool
    }

    static let use = Command(
        name: "use", summary: "make a network the current one",
        usage: "NAME", examples: ["mosaic network use devnet"],
        arguments: ["NAME"], minArguments: 1, maxArguments: 1,
        action: { inv in
            var config = try ClientConfig.load(home: inv.home)
            let network = try config.resolve(inv.arguments[0])
            config.current = network.name
            try config.save(home: inv.home)
            return CommandOutput(text: "now using network \(network.name) (\(network.node))", json: try json(network))
        })

    static let show = Command(
        name: "show", summary: "show the current network (or the one named)",
        usage: "[NAME]", examples: ["mosaic network show", "mosaic network show devnet --json"],
        arguments: ["NAME"], minArguments: 0, maxArguments: 1,
        action: { inv in
            let config = try ClientConfig.load(home: inv.home)
            let network = try config.resolve(inv.arguments.first ?? inv.global.network)
            let text = """
                name:  \(network.name)
                node:  \(network.nodeURLs.joined(separator: "\n       "))
                app:   \(network.app ?? "-")
                ca:    \(network.ca ?? "-")\(network.insecure == true ? "\ninsecure: plain http allowed" : "")
                """
            return CommandOutput(text: text, json: try json(network))
        })

    /// A network as the config keeps it (its Codable form), with `insecure` always said.
    static func json(_ n: ClientConfig.Network) throws -> JSONValue { try .output(n, after: [("insecure", .bool(n.insecure == true))]) }
}
