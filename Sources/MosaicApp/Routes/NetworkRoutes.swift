import Foundation
import MosaicHTTP
import MosaicHTTPServer
import MosaicSDK
import MosaicProtocol

/// Network details and switching (which locks every session, as signing in again is expected).
extension AppServer {
    struct UseNetworkBody: Decodable { let name: String }

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
                if let blobbers = try? await blobbers(client: client) {
                    body["blobbers"] = blobbers.map { ["id": $0.id, "url": $0.url, "capacity": $0.capacity, "allocated": $0.allocated] }
                }
            }
            return try AppServer.json(body)
        }

        api(.post, "/api/network", summary: "Switch network (signs out)", access: .session,
            body: .json(.object([("name", .string(maxLength: 64))])), errors: [404]) { [self] req in
            let body = try req.decode(UseNetworkBody.self)
            try mapConfig { try networkState.use(body.name) }
            sessions.lockAll()
            return try AppServer.json(["name": body.name])
        }
    }

    func mapConfig<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let e as ConfigError {
            switch e {
            case .unknownNetwork: throw HTTPError.notFound(e.description, code: "unknown_network")
            case .noNetwork: throw HTTPError.unavailable(e.description)
            default: throw HTTPError.internalError(e.description)
            }
        }
    }
}
