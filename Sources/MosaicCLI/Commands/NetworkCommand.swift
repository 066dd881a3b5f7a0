import Foundation
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
                table.add([n.name == config.current ? "*" : "", n.name, n.node, n.app ?? "-"])
            }
            let text =
                config.networks.isEmpty
                ? "no networks yet; start one with 'mosaic devnet' or add one with 'mosaic network add NAME URL'"
                : table.rendered()
            return CommandOutput(
                text: text,
                json: .object([
                    ("current", .optional(config.current)),
                    ("networks", .array(config.networks.map(json))),
                ]))
        })

    static let add = Command(
        name: "add", summary: "add a network (or change its URL)",
        usage: "NAME URL", examples: ["mosaic network add staging http://10.0.0.5:7100"],
        options: AddOptions.self, arguments: ["NAME", "URL"], minArguments: 2, maxArguments: 2,
        action: { o, inv in
            let name = inv.arguments[0]
            let url = inv.arguments[1]
            guard ClientConfig.Network.isValidName(name) else { throw ConfigError.invalidName(name) }
            guard ClientConfig.Network.isValidURL(url) else { throw ConfigError.invalidURL(url) }
            if let app = o.app, !ClientConfig.Network.isValidURL(app) { throw ConfigError.invalidURL(app) }
            var config = try ClientConfig.load(home: inv.home)
            let network = ClientConfig.Network(
                name: name, node: ClientConfig.Network.trimmed(url), app: o.app.map(ClientConfig.Network.trimmed))
            config.upsert(network)
            try config.save(home: inv.home)
            return CommandOutput(
                text: "added network \(name) (\(network.node))" + (config.current == name ? "; it is now the current network" : ""),
                json: json(network))
        })

    struct AddOptions: CommandOptions {
        @Option("app", "URL", help: "URL of the network's web app") var app: String?
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
            return CommandOutput(text: "now using network \(network.name) (\(network.node))", json: json(network))
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
                node:  \(network.node)
                app:   \(network.app ?? "-")
                """
            return CommandOutput(text: text, json: json(network))
        })

    static func json(_ n: ClientConfig.Network) -> JSONValue {
        .object([("name", .string(n.name)), ("node", .string(n.node)), ("app", .optional(n.app))])
    }
}
