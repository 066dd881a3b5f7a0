import Foundation
import MosaicErrors

/// The client's list of networks and which one is current, kept in `$MOSAIC_HOME/config.json`.
public struct ClientConfig: Codable, Sendable, Equatable {
    /// A network the client can talk to.
    public struct Network: Codable, Sendable, Equatable {
        public var name: String
        /// Base URL of a ledger node's HTTP API.
        public var node: String
        /// Base URL of the web app, when one runs for this network.
        public var app: String?

        public init(name: String, node: String, app: String? = nil) {
            self.name = name
            self.node = node
            self.app = app
        }
    }

    public var current: String?
    public var networks: [Network]

    public init(current: String? = nil, networks: [Network] = []) {
        self.current = current
        self.networks = networks
    }

    public static func fileURL(home: URL) -> URL { home.appendingPathComponent("config.json") }

    /// Reads the config; a missing file is an empty config, a damaged one a clear error.
    public static func load(home: URL) throws(ConfigError) -> ClientConfig {
        let url = fileURL(home: home)
        guard FileManager.default.fileExists(atPath: url.path) else { return ClientConfig() }
        do {
            let data = try Data(contentsOf: url)
            return try JSONDecoder().decode(ClientConfig.self, from: data)
        } catch {
            throw .corrupted(path: url.path, reason: "\(error)")
        }
    }

    /// Writes atomically (temp file, fsync, rename) so a crash never leaves half a config. Creates
    /// the home folder (0700) on first use: `mosaic devnet` is often the first command run.
    public func save(home: URL) throws(ConfigError) {
        let url = ClientConfig.fileURL(home: home)
        do {
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try AtomicFile.write(Array(try encoder.encode(self)), to: url)
        } catch {
            throw .unwritable(path: url.path, reason: "\(error)")
        }
    }

    public func network(named name: String) -> Network? { networks.first { $0.name == name } }

    /// The network to use: the one named, else the current one.
    public func resolve(_ name: String?) throws(ConfigError) -> Network {
        if let name {
            guard let n = network(named: name) else { throw .unknownNetwork(name, known: networks.map(\.name)) }
            return n
        }
        guard let current, let n = network(named: current) else { throw .noNetwork }
        return n
    }

    /// Adds or replaces a network; the first one added becomes current.
    public mutating func upsert(_ network: Network) {
        networks.removeAll { $0.name == network.name }
        networks.append(network)
        networks.sort { $0.name < $1.name }
        if current == nil { current = network.name }
    }
}

/// Problems with the client config, each saying what to do.
public enum ConfigError: CodedError, Equatable, CustomStringConvertible {
    case corrupted(path: String, reason: String)
    case unwritable(path: String, reason: String)
    case unknownNetwork(String, known: [String])
    case noNetwork
    case invalidName(String)
    case invalidURL(String)

    /// Stable code: callers decide on it, never on the message.
    public var code: String {
        switch self {
        case .corrupted: return "config_corrupted"
        case .unwritable: return "config_unwritable"
        case .unknownNetwork: return "unknown_network"
        case .noNetwork: return "no_network"
        case .invalidName: return "invalid_network_name"
        case .invalidURL: return "invalid_url"
        }
    }

    public var description: String {
        switch self {
        case .corrupted(let path, let reason):
            return "config file \(path) is corrupted (\(reason)); fix or delete it, then add networks again with 'mosaic network add'"
        case .unwritable(let path, let reason):
            return "cannot write config file \(path): \(reason)"
        case .unknownNetwork(let name, let known):
            let list =
                known.isEmpty
                ? "none yet; add one with 'mosaic network add NAME URL' or start 'mosaic devnet'" : known.joined(separator: ", ")
            return "unknown network '\(name)'; known networks: \(list)"
        case .noNetwork:
            return
                "no network selected; start one with 'mosaic devnet', or add one with 'mosaic network add NAME URL' and 'mosaic network use NAME'"
        case .invalidName(let name):
            return "invalid network name '\(name)': use 1-64 letters, digits, '-' or '_'"
        case .invalidURL(let url):
            return "invalid node URL '\(url)': give an http:// or https:// URL such as http://127.0.0.1:7100"
        }
    }
}
