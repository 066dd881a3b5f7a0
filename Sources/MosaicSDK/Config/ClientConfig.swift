import Foundation
import MosaicErrors
import MosaicHTTP

/// The client's list of networks and which one is current, kept in `$MOSAIC_HOME/config.json`.
public struct ClientConfig: Codable, Sendable, Equatable {
    /// A network the client can talk to.
    public struct Network: Codable, Sendable, Equatable {
        /// The name the CLI and app use for it (`--network NAME`).
        public var name: String
        /// Base URL of a ledger node's HTTP API.
        public var node: String
        /// Base URL of the web app, when one runs for this network.
        public var app: String?
        /// A CA file (PEM) trusted beside the system CAs for this network's node and blobbers (`--ca`).
        public var ca: String?
        /// Plain http:// beyond loopback allowed (`--insecure`); nil and false refuse it.
        public var insecure: Bool?
        /// Other nodes of the same chain, tried in order when `node` stops answering.
        public var fallbackNodes: [String]?

        enum CodingKeys: String, CodingKey {
            case name, node, app, ca, insecure
            case fallbackNodes = "fallback_nodes"
        }

        /// `node`, then each fallback node: the order a client tries them in.
        public var nodeURLs: [String] { [node] + (fallbackNodes ?? []) }

        /// - Parameters:
        ///   - name: the network's name.
        ///   - node: the node API base URL.
        ///   - app: the web app base URL, if one runs.
        ///   - ca: a CA certificate file (PEM) the network's TLS certificates chain to, beside the system CAs.
        ///   - insecure: allow plain http beyond loopback.
        ///   - fallbackNodes: other nodes of the same chain, tried in order when `node` stops answering.
        public init(
            name: String, node: String, app: String? = nil, ca: String? = nil, insecure: Bool? = nil, fallbackNodes: [String]? = nil
        ) {
            self.name = name
            self.node = node
            self.app = app
            self.ca = ca
            self.insecure = insecure
            self.fallbackNodes = fallbackNodes?.isEmpty == true ? nil : fallbackNodes
        }

        /// Makes this process's clients trust `ca` and allow plain HTTP when `insecure` (process-wide:
        /// one process speaks to one network at a time).
        public func applyTransportSecurity() throws(ConfigError) {
            if let ca {
                do { try TLSTrust.addAuthority(file: ca) } catch { throw .unusableCA(path: ca, reason: error.description) }
            }
            if insecure == true { TLSTrust.allowPlainHTTP(true) }
        }

        /// A network name the config accepts: 1 to 64 ASCII letters, digits, `-` or `_`. The CLI
        /// and the web app both check names with this.
        public static func isValidName(_ s: String) -> Bool {
            !s.isEmpty && s.count <= 64 && s.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
        }

        /// A node or app URL the config accepts: http or https, with a host.
        public static func isValidURL(_ s: String) -> Bool {
            guard let u = URL(string: s), let scheme = u.scheme, ["http", "https"].contains(scheme), u.host != nil else { return false }
            return true
        }

        /// The URL as stored: without one trailing `/`.
        public static func trimmed(_ url: String) -> String {
            url.hasSuffix("/") ? String(url.dropLast()) : url
        }
    }

    /// The network used when none is named; nil before the first one is added.
    public var current: String?
    /// The known networks, sorted by name.
    public var networks: [Network]

    /// - Parameters:
    ///   - current: the name of the network used by default.
    ///   - networks: the known networks.
    public init(current: String? = nil, networks: [Network] = []) {
        self.current = current
        self.networks = networks
    }

    /// Where the config lives.
    /// - Parameter home: the Mosaic home folder.
    /// - Returns: `home/config.json`.
    public static func fileURL(home: URL) -> URL { home.appendingPathComponent("config.json") }

    /// Reads the config; a missing file is an empty config, a damaged one a clear error.
    /// - Parameter home: the Mosaic home folder.
    /// - Returns: the config, empty when there is no file yet.
    /// - Throws: `ConfigError.corrupted` when the file cannot be read or decoded.
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
    /// - Parameter home: the Mosaic home folder.
    /// - Throws: `ConfigError.unwritable` when the folder or file cannot be written.
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

    /// The network called `name`.
    /// - Parameter name: a network name.
    /// - Returns: the network, or nil when none has that name.
    public func network(named name: String) -> Network? { networks.first { $0.name == name } }

    /// The network to use: the one named, else the current one.
    /// - Parameter name: the network the user named, if any.
    /// - Returns: the network to talk to.
    /// - Throws: `ConfigError.unknownNetwork` when `name` is not known, `.noNetwork` when no name is
    ///   given and none is current.
    public func resolve(_ name: String?) throws(ConfigError) -> Network {
        if let name {
            guard let n = network(named: name) else { throw .unknownNetwork(name, known: networks.map(\.name)) }
            return n
        }
        guard let current, let n = network(named: current) else { throw .noNetwork }
        return n
    }

    /// Adds or replaces a network; the first one added becomes current.
    /// - Parameter network: the network to add; it replaces one of the same name.
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
    /// `--ca FILE` cannot be read or holds no certificate.
    case unusableCA(path: String, reason: String)
    /// A plain http:// node URL beyond loopback without `--insecure`.
    case plainHTTPRefused(String)

    /// Stable code: callers decide on it, never on the message.
    public var code: String {
        switch self {
        case .corrupted: return "config_corrupted"
        case .unwritable: return "config_unwritable"
        case .unknownNetwork: return "unknown_network"
        case .noNetwork: return "no_network"
        case .invalidName: return "invalid_network_name"
        case .invalidURL: return "invalid_url"
        case .unusableCA: return "unusable_ca"
        case .plainHTTPRefused: return "plain_http_refused"
        }
    }

    /// The message shown to the user, with the command that fixes it.
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
        case .unusableCA(let path, let reason):
            return "cannot use the CA file \(path): \(reason); give the PEM certificate of the CA that signed the network's servers"
        case .plainHTTPRefused(let url):
            return
                "refusing \(url): plain http:// to another machine is not encrypted; use the node's https:// URL (and --ca FILE for a private CA), or pass --insecure for a private network without TLS"
        }
    }
}
