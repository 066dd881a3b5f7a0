import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The part of a node's `GET /health` the multi-node tests read: whether it holds the producer lease.
package struct NodeHealth: Decodable, Sendable {
    package let producer: Bool

    /// The `/health` of the node at `base`.
    package static func read(_ base: URL) throws -> NodeHealth {
        try JSONDecoder().decode(NodeHealth.self, from: Data(contentsOf: base.appendingPathComponent("health")))
    }
}
