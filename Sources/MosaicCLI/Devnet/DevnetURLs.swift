import Foundation
import MosaicProtocol

/// Where a running devnet can be reached; `--json` prints exactly these keys.
struct DevnetURLs: Sendable {
    /// Every node, in the order clients try them (never empty).
    var nodes: [URL]
    var app: URL?
    var blobbers: [URL]
    var directory: URL

    /// The first node: the one clients ask first.
    var node: URL { nodes[0] }

    var json: JSONValue {
        .object([
            ("node", .string(Devnet.text(node))),
            ("nodes", .array(nodes.map { .string(Devnet.text($0)) })),
            ("app", .optional(app.map(Devnet.text))),
            ("blobbers", .array(blobbers.map { .string(Devnet.text($0)) })),
            ("dir", .string(directory.path)),
        ])
    }
}
