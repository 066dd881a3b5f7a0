import Foundation
import MosaicHTTP
import MosaicHTTPServer
import MosaicProtocol
import MosaicSDK

/// Network details and switching (which locks every session, as signing in again is expected).
extension AppServer {
    struct UseNetworkBody: Decodable { let name: String }
    struct AddNetworkBody: Decodable {
        let name: String
        let node: String
        let app: String?
    }

    func registerNetworkRoutes() {
        api(.get, "/api/network", summary: "The current network and the known ones", access: .open) { [self] _ in
            let network = try mapConfig { try networkState.current() }
            let all = try mapConfig { try networkState.all() }
            var body: [String: Any] = [
                "name": network.name, "node": network.node, "app": network.app ?? NSNull(),
                "blobbers": [] as [Any],
                "networks": all.map { ["name": $0.name, "node": $0.node] },
                "reachable": false,
            ]
            // Chain facts come from the node itself; an unreachable node still shows the config.
            if let client = try? LedgerClient(network: network), let info = try? await client.network() {
                body["reachable"] = true
                body["chain_id"] = info.chainID
                body["symbol"] = info.symbol
                body["block_time_ms"] = info.blockTimeMillis
                body["confirmations"] = info.confirmations
                body["latest_round"] = info.latestRound
                body["explorer"] = client.baseURL.appendingPathComponent("explorer").absoluteString
                body["signature_scheme"] = "ed25519"
                body["faucet_tokens"] = TokenAmount(baseUnits: info.faucetPourAmount).description
                body["minimum_fee_tokens"] = TokenAmount(baseUnits: info.minimumFee).description
                if let blobbers = try? await blobbers(client: client) {
                    body["blobbers"] = blobbers.map { ["id": $0.id, "url": $0.url, "capacity": $0.capacity, "allocated": $0.allocated] }
                }
            }
            return try AppServer.json(body)
        }

        api(
            .post, "/api/network", summary: "Switch this app's network (signs out); the CLI's current network stays", access: .session,
            body: .json(.object([("name", .string(maxLength: 64))])), errors: [404]
        ) { [self] req in
            let body = try req.decode(UseNetworkBody.self)
            try mapConfig { try networkState.use(body.name) }
            sessions.lockAll()
            return try AppServer.json(["name": body.name])
        }

        api(
            .post, "/api/networks", summary: "Add a network (or change its URLs); it is not switched to", access: .session,
            body: .json(
                .object(
                    [("name", .string(maxLength: 64)), ("node", .string(maxLength: 512)), ("app", .string(maxLength: 512))],
                    required: ["name", "node"])),
            statuses: [201], errors: [422]
        ) { [self] req in
            let body = try req.decode(AddNetworkBody.self)
            let name = body.name.trimmingCharacters(in: .whitespaces)
            let node = body.node.trimmingCharacters(in: .whitespaces)
            let app = body.app?.trimmingCharacters(in: .whitespaces) ?? ""
            guard ClientConfig.Network.isValidName(name) else {
                throw HTTPError.unprocessable("A network name is 1 to 64 letters, digits, - or _.", code: "invalid_name")
            }
            guard ClientConfig.Network.isValidURL(node) else {
                throw HTTPError.unprocessable(
                    "The node URL must start with http:// or https://, such as http://10.0.0.5:7100.", code: "invalid_url")
            }
            guard app.isEmpty || ClientConfig.Network.isValidURL(app) else {
                throw HTTPError.unprocessable("The app URL must start with http:// or https://, or be left empty.", code: "invalid_url")
            }
            try mapConfig {
                var config = try ClientConfig.load(home: networkState.home)
                config.upsert(
                    ClientConfig.Network(
                        name: name, node: ClientConfig.Network.trimmed(node), app: app.isEmpty ? nil : app))
                try config.save(home: networkState.home)
            }
            return try AppServer.json(["name": name, "node": node], status: 201)
        }
    }

    /// A network name as the config keeps it: 1–64 of letters, digits, - and _.
    func mapConfig<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let e as ConfigError {
            switch e {
            case .unknownNetwork(let name, let known):
                throw HTTPError.notFound(
                    "There is no network named \(name) here"
                        + (known.isEmpty ? "." : "; the known ones are \(known.joined(separator: ", ")).") + " Add it in Network Details.",
                    code: "unknown_network")
            case .noNetwork:
                throw HTTPError.unavailable(
                    "No network is set up yet. Add one in Network Details, or start a test network on this computer.")
            default: throw HTTPError.internalError(e.description)
            }
        }
    }
}
